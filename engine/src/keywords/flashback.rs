//! Flashback (2006 rules 502.22; 2014 rules 702.34): casting a card from its owner's
//! graveyard by paying its flashback cost, an alternative cost (409.1b / 601.2b), with the
//! card's normal timing; the spell is exiled instead of going anywhere else whenever it
//! leaves the stack (`Object::flashback`, applied by `Game::move_object_as`). Flashback
//! granted until end of turn (Dralnu, Lich Lord: its mana cost) is in
//! `Game::granted_flashback`.

use crate::decision::RuleError;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// Which flashback cost a spell cast from its owner's graveyard is cast for (2006 502.22a;
/// 702.34a): an alternative to its mana cost. The spell is exiled whenever it would leave
/// the stack (`Object::flashback`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlashbackCost {
    /// The card's own "Flashback [cost]" (mana plus any other parts, e.g. Conflagrate's
    /// "{R}{R}, Discard X cards").
    Printed,
    /// Flashback an effect gave it "until end of turn" with "the flashback cost equal to its
    /// mana cost" (Dralnu, Lich Lord; `Game::granted_flashback`).
    ManaCost,
}

impl Game {
    /// Whether `card` would be cast with flashback: `None` for a card elsewhere than a
    /// graveyard (the hand checks follow), the flashback cost for a card in `player`'s own
    /// graveyard that has flashback (printed, else granted), an error for any other card in a
    /// graveyard. A card with both uses its printed flashback cost.
    pub(crate) fn flashback_to_cast(
        &self,
        player: PlayerId,
        card: ObjectId,
    ) -> Result<Option<FlashbackCost>, RuleError> {
        let o = self
            .obj(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        if o.zone != ZoneKind::Graveyard {
            return Ok(None);
        }
        let def = self.catalog().get(o.face());
        if o.owner != player {
            return Err(RuleError::illegal(format!(
                "{} is in another player's graveyard: only its owner may cast it with flashback",
                def.name
            )));
        }
        self.flashback_cost_of(card).map(Some).ok_or_else(|| {
            RuleError::illegal(format!(
                "{} is in your graveyard and has no flashback, so it can't be cast from there",
                def.name
            ))
        })
    }
    /// The flashback a card in a graveyard has now: its printed one, else one granted until
    /// end of turn (Dralnu, Lich Lord).
    pub(crate) fn flashback_cost_of(&self, card: ObjectId) -> Option<FlashbackCost> {
        let o = self.obj(card)?;
        if o.zone != ZoneKind::Graveyard {
            return None;
        }
        if self.catalog().get(o.face()).flashback.is_some() {
            Some(FlashbackCost::Printed)
        } else if self.granted_flashback.contains(&card) {
            Some(FlashbackCost::ManaCost)
        } else {
            None
        }
    }
}
