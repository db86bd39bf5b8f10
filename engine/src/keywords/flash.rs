//! Flash (2006 rules 502.57; 2014 rules 702.8): a card with flash may be cast any time its
//! controller could cast an instant. The face-down spell of a morph card has no flash.
//!
//! Granted flash: "Creature cards you own that aren't on the battlefield have flash"
//! (Teferi, Mage of Zhalfir: `CardDef::own_creature_cards_have_flash`). The player casting a
//! card from their hand, graveyard or exile owns it, so the grant is asked of the caster;
//! several instances are one permission (502.57b / 702.8b: R-flash-4). Its other half, "each
//! opponent can cast spells only any time they could cast a sorcery", is a restriction on
//! casting (`Game::check_cast_permission` in `priority.rs`), which wins over any flash.

use crate::cards::CardDef;
use crate::game::Game;
use crate::ids::PlayerId;
use crate::keywords::Keyword;
use crate::types::CardType;

/// Whether a card may be cast with instant timing (an instant, or a card with flash).
pub fn has_instant_timing(def: &CardDef) -> bool {
    def.has_type(CardType::Instant) || def.keywords.contains(&Keyword::Flash)
}

impl Game {
    /// Whether `player` controls a permanent saying "creature cards you own that aren't on
    /// the battlefield have flash" (Teferi), whose abilities work.
    pub(crate) fn creature_cards_have_flash(&self, player: PlayerId) -> bool {
        self.has_statics
            && self.facts().gives_creatures_flash
            && self.battlefield_of(player).any(|o| {
                self.catalog().get(o.face()).own_creature_cards_have_flash
                    && self.has_own_abilities(o.id)
            })
    }

    /// For listing `player`'s actions: whether a card may be cast with instant timing now,
    /// with Teferi's flash for creature cards and his opponents' sorcery timing looked up
    /// once.
    pub(crate) fn instant_timing_rule(&self, player: PlayerId) -> impl Fn(&CardDef) -> bool {
        let flash_creatures = self.creature_cards_have_flash(player);
        let restricted = self.sorcery_timing_only(player).is_some();
        move |def: &CardDef| {
            !restricted
                && (has_instant_timing(def)
                    || (flash_creatures && def.has_type(CardType::Creature)))
        }
    }

    /// Whether `player` may cast (or suspend) the card `def` with instant timing: printed
    /// instant timing, or a creature card when its creature cards have flash.
    pub(crate) fn instant_timing_for(&self, player: PlayerId, def: &CardDef) -> bool {
        has_instant_timing(def)
            || (def.has_type(CardType::Creature) && self.creature_cards_have_flash(player))
    }
}
