//! Poisonous N (2014 rules 702.69; 2006: added to section 502 with Future Sight, its text
//! absent from the seeds, the same ability): "Whenever this creature deals combat damage to
//! a player, that player gets N poison counters." Each instance triggers separately
//! (702.69b). A built-in triggered ability ([`POISONOUS1_TRIGGER`], [`POISONOUS3_TRIGGER`]);
//! the poison counters are `Player::poison`, and a player with ten or more loses the next
//! time state-based actions are checked, in both rulesets (2006 102.3d / 420.5; 2014
//! 104.3d / 704.5c). Views show each player's poison counters.

use crate::abilities::{TriggerDef, TriggerEvent};
use crate::effects::{Effect, PlayerRef};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;

/// Poisonous 1's and poisonous 3's built-in triggers.
pub const POISONOUS1_TRIGGER: u8 = u8::MAX - 40;
pub const POISONOUS3_TRIGGER: u8 = u8::MAX - 41;

/// "Whenever this creature deals combat damage to a player, that player gets N poison
/// counters" (the trigger's player is the damaged one).
pub(crate) fn definition(n: u32) -> TriggerDef {
    TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::DealsCombatDamageToPlayer,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::Poison {
            amount: n,
            who: PlayerRef::SubjectPlayer,
        }],
        text: format!(
            "Poisonous {n}: whenever this creature deals combat damage to a player, that player gets {n} poison counter{}.",
            if n == 1 { "" } else { "s" }
        ),
    }
}

impl Game {
    /// The poisonous triggers of `source`, which just dealt combat damage to a player.
    pub(crate) fn poisonous_triggers(
        &self,
        source: ObjectId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let Some(o) = self.obj(source) else {
            return Vec::new();
        };
        let mut v = Vec::new();
        for (k, index) in [
            (Keyword::Poisonous1, POISONOUS1_TRIGGER),
            (Keyword::Poisonous3, POISONOUS3_TRIGGER),
        ] {
            for _ in 0..self.keyword_instances(source, k) {
                v.push((o.id, o.card, o.controller, index as usize, Some(source)));
            }
        }
        v
    }

    /// `player` gets `n` poison counters (the state-based check makes ten or more a loss).
    pub(crate) fn give_poison(&mut self, player: PlayerId, n: u32) {
        if n == 0 || !self.player(player).in_game() {
            return;
        }
        self.player_mut(player).poison += n;
        self.emit(Event::PoisonCounters { player, amount: n });
    }
}
