//! Split cards (2006 rules 505; 2014 rules 708): two card faces on one card (Assault //
//! Battery, Boom // Bust, Dead // Gone, Rough // Tumble).
//!
//! - 505.2 / 708.2: in every zone but the stack the card has two sets of characteristics
//!   and two mana costs (both names, both colours, both types). The halves are definitions
//!   of their own (`CardId::split_half`, `Catalog::get`), made from the facts'
//!   `[[card.half]]` tables and scripted in the card's `[[card.half]]` tables.
//! - 505.2 / 708.2 and 708.3: the player chooses the half as they begin to cast it
//!   (`Answer::CastSplit { card, half }`, "cast Boom"); while it is a spell only that half's
//!   characteristics exist (`Object::split_half`, read by `Object::face`), so its cost,
//!   timing, targets, colours (505.3 / 708.3: only the half's, for protection), name
//!   ("can't be cast" by name) and effects are the half's; a copy of it copies that half.
//!   As it leaves the stack it is the whole card again (`move_object_as`).
//! - 505.4 / 708.4: it is one card (drawn, discarded, counted once).
//! - 505.5 / 708.5: a number asked of it (its converted mana cost) gets both answers,
//!   counted together: `CardDef::mana_value` is the sum (Assault // Battery "1, and 4": 5).
//! - 505.6 / 708.6: a comparison ("with mana value 3", "the same name") is true if either
//!   half's would be: `CardDef::mana_value_matches`, `CardDef::shares_name_with`.
//!
//! Both rulesets play split cards alike: the July 2013 rules (the engine's modern ruleset)
//! still give a split card two sets of characteristics outside the stack; only the 2017
//! rules (Amonkhet) combined them into one (Boom // Bust a single mana value 8, so a
//! search for "mana value 2" no longer finds it). `R-split-*` and `split-*` scenarios check
//! both rulesets.

use crate::cards::CardDef;
use crate::casting::{CastKind, Casting};
use crate::decision::{Answer, RuleError, Words};
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};

impl Game {
    /// The characteristics a spell being cast has: a split card's half when one is being
    /// cast, else the card's own.
    pub(crate) fn spell_def_of(
        &self,
        card: ObjectId,
        half: Option<u8>,
    ) -> Option<&'static CardDef> {
        match half {
            Some(h) => self
                .obj(card)
                .map(|o| self.catalog().get(o.card.split_half(h))),
            None => self.def(card),
        }
    }

    /// [`Game::spell_def_of`] for a cast in progress (None for abilities).
    pub(crate) fn spell_def(&self, c: &Casting) -> Option<&'static CardDef> {
        match c.kind {
            CastKind::Spell(card) => self.spell_def_of(card, c.half),
            _ => None,
        }
    }

    /// What casting `whole` as `half` casts: the half of a split card (a split card is
    /// always cast as one of its halves, 505.2 / 708.2), or the card itself.
    pub(crate) fn half_to_cast(
        &self,
        whole: &'static CardDef,
        half: Option<u8>,
    ) -> Result<&'static CardDef, RuleError> {
        match (&whole.split, half) {
            (None, None) => Ok(whole),
            (None, Some(_)) => Err(RuleError::illegal(format!(
                "{} is not a split card: cast it whole",
                whole.name
            ))),
            (Some(s), None) => Err(RuleError::illegal(format!(
                "{} is a split card: cast one of its halves ({} or {})",
                whole.name, s.names[0], s.names[1]
            ))),
            (Some(s), Some(h)) if h > 1 => Err(RuleError::illegal(format!(
                "{} has two halves, {} and {}",
                whole.name, s.names[0], s.names[1]
            ))),
            (Some(_), Some(h)) => Ok(self.catalog().get(whole.id.split_half(h))),
        }
    }

    /// `Answer::CastSplit`: begin casting one half of a split card.
    pub(crate) fn begin_cast_half(
        &mut self,
        player: PlayerId,
        card: ObjectId,
        half: u8,
    ) -> Result<(), RuleError> {
        let c = self.check_begin_cast_as(player, card, Some(half))?;
        self.continue_casting(c);
        Ok(())
    }

    /// The halves of split card `card` that `player` may begin to cast now.
    pub(crate) fn castable_halves(&self, player: PlayerId, card: ObjectId) -> Vec<Answer> {
        (0..2u8)
            .filter(|h| {
                self.begin_cast_in(player, card, Some(*h), Words::Quiet)
                    .is_ok()
            })
            .map(|half| Answer::CastSplit { card, half })
            .collect()
    }
}
