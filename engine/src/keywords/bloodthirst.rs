//! Bloodthirst N (2014 rules 702.53; 2006: a keyword of section 502 since Guildpact, its
//! text absent from the seeds, the same ability): "If an opponent was dealt damage this
//! turn, this permanent enters the battlefield with N +1/+1 counters on it." A
//! replacement-like "enters with" ability checked as it enters (`Game::put_onto_battlefield`
//! asks [`Game::bloodthirst_counters`]). "Dealt damage this turn" is any damage, combat or
//! not; life loss isn't damage. The players dealt damage this turn are kept in
//! `Game::players_damaged` (only in games with a bloodthirst card; emptied as each turn
//! begins).

use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl Game {
    /// A player was dealt damage (noted only when some card has bloodthirst).
    pub(crate) fn note_player_damaged(&mut self, p: PlayerId) {
        if self.has_bloodthirst && !self.players_damaged.contains(&p) {
            self.players_damaged.push(p);
        }
    }

    /// The +1/+1 counters bloodthirst adds to `id` entering under `controller`: N if an
    /// opponent of theirs was dealt damage this turn.
    pub(crate) fn bloodthirst_counters(&self, id: ObjectId, controller: PlayerId) -> u32 {
        let Some(def) = self.def(id) else { return 0 };
        if def.bloodthirst == 0 {
            return 0;
        }
        let opponent_damaged = self.players_damaged.iter().any(|p| *p != controller);
        if opponent_damaged { def.bloodthirst } else { 0 }
    }
}
