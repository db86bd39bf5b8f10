//! Gravestorm (2014 rules 702.68; Planar Chaos, after the 2006 rules of the FAQ seed):
//! "When you cast this spell, copy it for each permanent put into a graveyard this turn. You
//! may choose new targets for the copies." It works like storm (`storm.rs`: the copies, new
//! targets, the trigger surviving the spell), counting instead the permanents put into a
//! graveyard from the battlefield this turn, any player's, tokens included
//! (`TurnCounts::to_graveyard`, counted by `Game::move_object_as` where the permanent
//! really arrives: one exiled instead by a replacement effect doesn't count).

use crate::abilities::TriggerDef;
use crate::game::Game;

/// Gravestorm's built-in triggered ability.
pub const GRAVESTORM_TRIGGER: u8 = u8::MAX - 21;

/// "When you cast this spell, copy it for each permanent put into a graveyard this turn."
pub(crate) fn definition() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        super::storm::copies_trigger("Gravestorm: copy this spell for each permanent put into a graveyard this turn (you may choose new targets for the copies).")
    })
}

impl Game {
    /// A permanent was put into a graveyard from the battlefield.
    pub(crate) fn note_to_graveyard(&mut self) {
        if self.has_storm {
            self.this_turn.to_graveyard += 1;
        }
    }

    /// Permanents put into a graveyard from the battlefield this turn so far (counted in
    /// games with a card that reads it).
    pub fn permanents_to_graveyard_this_turn(&self) -> u32 {
        self.this_turn.to_graveyard
    }
}
