//! Permissions to play a card from exile that its owner need not be the one to play
//! (Grinning Totem: "Until the beginning of your next upkeep, you may play that card. At the
//! beginning of your next upkeep, if you haven't played it, put it into its owner's
//! graveyard").
//!
//! "Play" is casting it or, for a land, playing it as a land (2006 glossary / 2014 rule
//! 701.11 "play"). The permission changes only the zone it is played from: everything else
//! is as usual (its official ruling, R-grinning-totem-3): a spell's timing (2006 408.1d /
//! 2014 307.1, flash), its costs, its targets; a land only in its player's own main phase
//! with an empty stack, using their one land play (2006 212.6a-b, 305.4 / 2014 305.1-305.2). The
//! player who plays it controls the spell or the land (2006 409.1a / 2014 601.2a, 305.1);
//! the card still has its owner, so it goes to its owner's graveyard, hand or library
//! (2006 217.1a / 2014 400.3). Teferi's "creature cards you own ... have flash" is asked of
//! the card's owner (`keywords/flash.rs`).
//!
//! The permission ends "the moment her next upkeep begins" (R-grinning-totem-2): at the
//! beginning of that player's next upkeep step (an additional upkeep step, Paradox Haze's,
//! counts). The delayed ability (2006 404.4 / 2014 603.7) (`DelayedWhen::YourNextUpkeepUnplayed`)
//! triggers then, with its "if you haven't played it" condition (an intervening "if", 2006 404.3 /
//! 2014 603.4): playing the card removes it, so it never triggers; a card that left exile
//! some other way is a new object, so the ability finds nothing to put into a graveyard
//! (2006 217.1c / 2014 400.7).

use crate::decision::Answer;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::triggers::{DelayedTrigger, DelayedWhen};
use crate::types::CardType;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

/// "Until the beginning of your next upkeep, you may play that card": `player` may play
/// `card` (an exiled object) until their next upkeep begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExilePlay {
    pub card: ObjectId,
    pub player: PlayerId,
}

impl Game {
    /// Whether `player` may play `card` now by a permission of this module (it is still the
    /// exiled object the permission names).
    pub(crate) fn may_play_from_exile(&self, player: PlayerId, card: ObjectId) -> bool {
        !self.exile_plays.is_empty()
            && self.obj(card).is_some_and(|o| o.zone == ZoneKind::Exile)
            && self
                .exile_plays
                .iter()
                .any(|p| p.card == card && p.player == player)
    }

    /// Grinning Totem's resolution after the card is exiled: `player` may play it until
    /// their next upkeep, and at the beginning of that upkeep, if they haven't played it,
    /// it is put into its owner's graveyard (a delayed ability of `source`, a `card`).
    pub(crate) fn grant_exile_play(
        &mut self,
        exiled: ObjectId,
        player: PlayerId,
        source: ObjectId,
        card: CardId,
    ) {
        self.exile_plays.push(ExilePlay {
            card: exiled,
            player,
        });
        // Events are matched to delayed abilities only in games with triggers.
        self.has_triggers = true;
        self.delayed.push(DelayedTrigger {
            when: DelayedWhen::YourNextUpkeepUnplayed(player),
            source,
            card,
            controller: player,
            subject: Some(exiled),
        });
    }

    /// `player` plays `card` from exile (it is about to leave for the stack or the
    /// battlefield): the permission is used, and "if you haven't played it" is now false, so
    /// the delayed ability waiting for it is removed.
    pub(crate) fn note_played_from_exile(&mut self, player: PlayerId, card: ObjectId) {
        if !self.may_play_from_exile(player, card) {
            return;
        }
        self.exile_plays
            .retain(|p| !(p.card == card && p.player == player));
        self.delayed.retain(|d| {
            !(d.when == DelayedWhen::YourNextUpkeepUnplayed(player) && d.subject == Some(card))
        });
    }

    /// The beginning of `active`'s upkeep: their permissions end ("until the beginning of
    /// your next upkeep"); permissions naming cards that left exile go too.
    pub(crate) fn end_exile_plays(&mut self, active: PlayerId) {
        if self.exile_plays.is_empty() {
            return;
        }
        let exiled: Vec<ObjectId> = self.exile.clone();
        self.exile_plays
            .retain(|p| p.player != active && exiled.contains(&p.card));
    }

    /// The priority answers playing `player`'s permitted exiled cards: a land (its own
    /// checks: turn, main phase, empty stack, land play left), a spell (each half of a split
    /// card), a morph card face down.
    pub(crate) fn exile_play_answers(&self, player: PlayerId, out: &mut Vec<Answer>) {
        for p in self.exile_plays.iter().filter(|p| p.player == player) {
            let card = p.card;
            if !self.may_play_from_exile(player, card) {
                continue;
            }
            let Some(def) = self.def(card) else { continue };
            if def.has_type(CardType::Land) {
                if self.check_play_land(player, card).is_ok() {
                    out.push(Answer::PlayLand(card));
                }
                continue;
            }
            if def.split.is_some() {
                out.extend(self.castable_halves(player, card));
            } else if self.can_begin_cast(player, card) {
                out.push(Answer::Cast(card));
            }
            if def.morph.is_some() && self.can_begin_cast_face_down(player, card) {
                out.push(Answer::CastFaceDown(card));
            }
        }
    }
}
