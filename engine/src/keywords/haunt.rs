//! Haunt (Guildpact; 2006 rules 502.86, 2014 702.54). Not a keyword of the Time Spiral
//! block: it is here for the test fixture that R-pull-from-eternity-3 needs (Pull from
//! Eternity putting a haunting card into its owner's graveyard).
//!
//! - 702.54a: "When this creature dies, exile it haunting target creature" (the script's
//!   `exile_haunting target` in a `dies` trigger): the card that died leaves its graveyard
//!   for exile, and the new exiled object haunts the creature (`Game::haunting`).
//! - 702.54c: "When the creature it haunts dies" (`haunted_dies`): an ability of the exiled
//!   card, which functions in exile ([`crate::abilities::TriggeredAbility::functions_in_exile`]).
//! - A card that leaves exile is a new object (400.7) and haunts nothing: the haunt ends.
//!   So does it when the haunted creature leaves the battlefield.

use crate::effects::ObjRef;
use crate::game::Game;
use crate::ids::ObjectId;
use crate::resolve::Resolution;
use crate::zones::{Position, ZoneKind};

impl Game {
    /// "Exile it haunting `creature`": the trigger's subject, the card in its owner's
    /// graveyard, if it is still there and the creature still on the battlefield.
    pub(crate) fn exile_haunting(&mut self, res: &Resolution, creature: ObjRef) {
        let (Some(card), Some(haunted)) = (
            self.object_of(res, ObjRef::Subject),
            self.object_of(res, creature),
        ) else {
            return;
        };
        if self.obj(card).map(|o| o.zone) != Some(ZoneKind::Graveyard)
            || !self.is_on_battlefield(haunted)
        {
            return;
        }
        if let Some(exiled) = self.move_object(card, ZoneKind::Exile, Position::Top) {
            // Entries whose card or creature has since become a new object end here.
            let live: Vec<(ObjectId, ObjectId)> = self
                .haunting
                .iter()
                .copied()
                .filter(|(c, h)| self.obj(*c).is_some() && self.obj(*h).is_some())
                .collect();
            self.haunting = live;
            self.haunting.push((exiled, haunted));
        }
    }
}
