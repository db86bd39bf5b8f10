//! Threshold (rulings A17; Odyssey's keyword rules were deleted with Time Spiral, which
//! made it an ability word: 2014 rules 207.2c). "Threshold — As
//! long as seven or more cards are in your graveyard, ..." is an ordinary ability with a
//! condition (R-threshold-2: it is no keyword, and an effect that removes abilities
//! removes it like any other).
//!
//! - A static ability with `StaticCondition::Threshold` applies only while its
//!   controller's graveyard holds seven or more cards, re-checked whenever characteristics
//!   are (`layers.rs`: the fast paths' `static_applies` and the layer table's
//!   `static_reaches`), so Mystic Enforcer is a 6/6 flier exactly while the count is seven
//!   or more (R-threshold-1).
//! - An activated ability or an effect with threshold would ask [`Game::has_threshold`]
//!   (no card of the block has one).
//!
//! Both rulesets alike (the Time Spiral FAQ's rule, unchanged in 2014).

use crate::cards::{StaticAbility, StaticCondition};
use crate::game::Game;
use crate::ids::PlayerId;

/// Threshold's count: "seven or more cards are in your graveyard".
pub const THRESHOLD_CARDS: usize = 7;

impl Game {
    /// Whether `player` has threshold: seven or more cards in their graveyard.
    pub fn has_threshold(&self, player: PlayerId) -> bool {
        self.player(player).graveyard.len() >= THRESHOLD_CARDS
    }

    /// Whether a static ability of `src`'s "as long as" condition holds for its controller
    /// now (threshold here, hellbent in `keywords/hellbent.rs`, kicked in
    /// `keywords/kicker.rs`); true without a condition. `table`: the layer computation
    /// under way, whose land types "you control a Plains" reads (the fast paths read the
    /// printed ones).
    pub(crate) fn static_condition_holds(
        &self,
        st: &StaticAbility,
        src: crate::ids::ObjectId,
        controller: PlayerId,
        table: Option<&crate::layers::Table>,
    ) -> bool {
        match st.condition {
            None => true,
            Some(StaticCondition::Threshold) => self.has_threshold(controller),
            Some(StaticCondition::Hellbent) => self.is_hellbent(controller),
            Some(StaticCondition::Kicked) => self.was_kicked(src, None),
            Some(StaticCondition::InYourGraveyardAndYouControl(c)) => {
                let land = crate::types::land_type_of(c);
                self.obj(src).is_some_and(|o| {
                    o.zone == crate::zones::ZoneKind::Graveyard && o.owner == controller
                }) && self.controls_land_type(controller, land, table)
            }
        }
    }
}
