//! Hellbent (an ability word, 2014 rules 207.2c; Dissension's, returning in Planar Chaos):
//! "Hellbent — [effect] as long as you have no cards in hand" or "... Activate only if you
//! have no cards in hand". The condition is the rule:
//!
//! - a static ability with `StaticCondition::Hellbent` (Cutthroat il-Dal's shadow, Gathan
//!   Raiders' +2/+2) applies only while its controller's hand is empty, re-checked
//!   whenever characteristics are (`Game::static_condition_holds`, `keywords/threshold.rs`);
//! - an activated ability's `condition = "hellbent"` is "activate only if you have no cards
//!   in hand" (`ActivationCondition::HandSizeExactly(0)`, checked as it is activated:
//!   Keldon Megaliths);
//! - "Hellbent — Skip your upkeep step if you have no cards in hand" (Gibbering Descent,
//!   script key `skip_upkeep_if_hellbent`): checked as the upkeep step would begin
//!   (`turn.rs`, `skips_step`).
//!
//! Both rulesets alike.

use crate::game::Game;
use crate::ids::PlayerId;

impl Game {
    /// Whether `player` is hellbent: they have no cards in hand.
    pub fn is_hellbent(&self, player: PlayerId) -> bool {
        self.player(player).hand.is_empty()
    }
}
