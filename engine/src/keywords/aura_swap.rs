//! Aura swap (2014 rules 702.64; 2006: added to section 502 with Future Sight, its text
//! absent from the seeds, the same ability; today's rules number it 702.65). "Aura swap
//! [cost]" means "[Cost]: You may exchange this permanent with an Aura card in your hand"
//! (702.64a); "if either half of the exchange can't be completed, the ability has no effect"
//! (702.64b). The script key `aura_swap = "{2}{U}"` builds the activated ability
//! (`cards/script.rs`, checked against the card's "Aura swap {2}{U}" line), whose effect is
//! [`Effect::AuraSwap`](crate::effects::Effect::AuraSwap).
//!
//! As it resolves (the Arcanum Wings rulings, 2007-05-01):
//! - Its controller may choose an Aura card in their hand ([`Decision::AuraSwap`], answered
//!   `Objects([card])` or `Objects([])`); with none in hand, or with the Aura gone from the
//!   battlefield, nothing is asked and nothing happens. Choosing nothing does nothing.
//! - The chosen card must be able to enchant the permanent the Aura is attached to, as that
//!   permanent is now (its "enchant" and protection: `Game::aura_illegal`); an "enchant
//!   player" Aura can't enchant a permanent. If it can't, nothing happens (702.64b: both
//!   halves or neither).
//! - The Aura must still be on the battlefield, attached to a permanent, and owned by the
//!   ability's controller (it goes to their hand); otherwise nothing happens.
//! - The exchange is simultaneous: the Aura goes to its owner's hand and the card is put
//!   onto the battlefield under the ability's controller, attached to that permanent (it is
//!   not cast and targets nothing: shroud doesn't stop it), with a new timestamp
//!   (418.5e / 613.6e). No state-based action is checked between the two halves.
//!
//! Both rulesets play it alike. Cards: Arcanum Wings.

use crate::decision::{Decision, Pending};
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::resolve::{Progress, Resolution};
use crate::stack::StackKind;
use crate::zones::{Position, ZoneKind};

impl Game {
    /// The Aura cards in `player`'s hand, in hand order.
    pub(crate) fn aura_cards_in_hand(&self, player: PlayerId) -> Vec<ObjectId> {
        self.player(player)
            .hand
            .iter()
            .copied()
            .filter(|c| {
                self.def(*c)
                    .is_some_and(|d| d.subtypes.iter().any(|s| s == "Aura"))
            })
            .collect()
    }

    /// `Effect::AuraSwap` as the ability resolves: ask which Aura card (if there is one and
    /// the Aura is still on the battlefield), then exchange.
    pub(crate) fn execute_aura_swap(&mut self, res: &mut Resolution) -> Progress {
        let me = res.item.controller;
        let StackKind::Ability { source, .. } = res.item.kind else {
            return Progress::Done;
        };
        let Some(i) = res.choices.iter().position(|(p, _)| *p == me) else {
            let cards = self.aura_cards_in_hand(me);
            if cards.is_empty() || !self.is_on_battlefield(source) {
                return Progress::Done;
            }
            let names = cards
                .iter()
                .map(|c| self.card_name(*c).to_string())
                .collect();
            return Progress::Ask(Pending {
                player: me,
                decision: Decision::AuraSwap { cards, names },
            });
        };
        let (_, chosen) = res.choices.remove(i);
        if let [card] = chosen.as_slice() {
            self.exchange_aura(me, source, *card);
        }
        Progress::Done
    }

    /// The exchange itself (702.64a-b): nothing unless both halves can be done.
    fn exchange_aura(&mut self, me: PlayerId, aura: ObjectId, card: ObjectId) -> bool {
        let Some(to) = self
            .obj(aura)
            .filter(|o| o.zone == ZoneKind::Battlefield)
            .and_then(|o| o.attached_to)
        else {
            return false;
        };
        let owned = self.objects[aura.slot()].owner == me;
        let in_hand = self.player(me).hand.contains(&card);
        let enchants_permanents = self.def(card).is_some_and(|d| d.enchant.is_some());
        if !owned
            || !self.has_subtype(aura, "Aura")
            || !in_hand
            || !enchants_permanents
            || !self.aura_cards_in_hand(me).contains(&card)
            || !self.is_on_battlefield(to)
            || self.aura_illegal(card, to)
        {
            return false;
        }
        self.move_object(aura, ZoneKind::Hand, Position::Top);
        let Some(new) = self.put_onto_battlefield(card, me, false) else {
            return false;
        };
        let ts = self.new_timestamp();
        if let Some(o) = self.obj_mut(new) {
            o.attached_to = Some(to);
            o.timestamp = ts;
        }
        true
    }
}
