//! Cycling, typecycling and landcycling (2006 rules 502.18, of which the FAQ seed quotes
//! only 502.18c, landcycling; 2014 rules 702.28; rulings A16).
//!
//! - "Cycling [cost]" means "[Cost], Discard this card: Draw a card" (502.18a / 702.28a):
//!   an activated ability that works only while the card is in its owner's hand
//!   (`ActivatedAbility::cycling`, answered `Answer::Activate` with the card in hand as its
//!   source). Its cost may be other than mana ("Cycling—Sacrifice a land", "—Pay 2 life").
//!   Discarding the card is a cost: madness applies to it (Ichor Slick).
//! - "[Type]cycling [cost]" (landcycling 502.18c, typecycling 2007 502.18d / 702.28e) means
//!   "[Cost], Discard this card: Search your library for a [type] card, reveal it, and put
//!   it into your hand. Then shuffle your library" (`Effect::SearchReveal`): a card with
//!   that subtype, basic or not (R-landcycling-1). It is cycling: "whenever a player cycles
//!   a card" triggers on it, and effects that stop cycling stop it (502.18c / 702.28f,
//!   R-landcycling-2; the fixture's `players_cant_cycle`).
//! - Homing Sliver: "Each Sliver card in each player's hand has slivercycling {3}": the
//!   ability `GRANTED_CYCLING_ABILITY + k` of every card with that subtype in a hand while
//!   a permanent with the grant is on the battlefield with its abilities.
//! - "Whenever a player cycles a card" (`TriggerEvent::PlayerCycles`) triggers as the
//!   cycling ability is activated (its cost paid).
//!
//! 2006 and 2014 play cycling alike (the 2006 rules predate typecycling of other subtypes
//! than land types, which Future Sight's 2007 rules 502.18d added; the engine plays them
//! the same in both rulesets).

use crate::abilities::TriggerEvent;
use crate::cards::{ActivatedAbility, GRANTED_CYCLING_ABILITY};
use crate::decision::RuleError;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::zones::ZoneKind;

impl Game {
    /// Whether ability `index` of `id` is a cycling or typecycling ability.
    pub(crate) fn is_cycling_ability(&self, id: ObjectId, index: u8) -> bool {
        self.ability(id, index).is_some_and(|a| a.cycling)
    }

    /// An ability that works from the hand (cycling, transmute, forecast) can be activated
    /// only while its card is in its owner's hand (502.18a / 702.28a, 702.52a, 702.56a);
    /// cycling not while an effect stops players from cycling, forecast only once each turn.
    pub(crate) fn check_hand_ability_source(
        &self,
        player: PlayerId,
        card: ObjectId,
        a: &ActivatedAbility,
    ) -> Result<(), RuleError> {
        let o = self
            .obj(card)
            .ok_or_else(|| RuleError::illegal("that card is no longer there"))?;
        let name = &self.catalog().get(o.face()).name;
        if o.zone != ZoneKind::Hand || o.owner != player {
            return Err(RuleError::illegal(format!(
                "{name}'s ability can be activated only from your hand"
            )));
        }
        if a.forecast {
            self.check_forecast_once(card)?;
        }
        if !a.cycling {
            return Ok(());
        }
        if let Some(ban) = self.battlefield.iter().find(|id| {
            self.has_own_abilities(**id) && self.def(**id).is_some_and(|d| d.players_cant_cycle)
        }) {
            return Err(RuleError::illegal(format!(
                "{name} can't be cycled: {} says players can't cycle cards",
                self.card_name(*ban)
            )));
        }
        Ok(())
    }

    /// Whether a permanent that grants typecycling to cards in hands (Homing Sliver) is on
    /// the battlefield (with its abilities or not).
    pub(crate) fn cycling_granter_out(&self) -> bool {
        let catalog = self.catalog();
        if !self.facts().grants_hand_cycling {
            return false;
        }
        self.battlefield.iter().any(|id| {
            self.obj(*id)
                .is_some_and(|o| catalog.granted_cycling().any(|(_, g, _)| g == o.face()))
        })
    }

    /// The abilities a card in a hand has there now (cycling, transmute, forecast), by
    /// index: its own, then those permanents grant to it (Homing Sliver).
    pub(crate) fn hand_abilities(&self, card: ObjectId) -> Vec<u8> {
        let Some(def) = self.def(card) else {
            return Vec::new();
        };
        let mut out: Vec<u8> = def
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.from_hand)
            .map(|(i, _)| i as u8)
            .collect();
        if def.subtypes.is_empty() {
            return out;
        }
        for (index, _, subtype) in self.catalog().granted_cycling() {
            // Its subtype first: most cards have none of the granted ones.
            if def.subtypes.iter().any(|s| s == subtype)
                && self.granted_cycling_ability(card, index).is_some()
            {
                out.push(index);
            }
        }
        out
    }

    /// Ability `index` (from `GRANTED_CYCLING_ABILITY`) of a card in a hand: the typecycling
    /// a permanent on the battlefield grants to cards of its subtype in hands.
    pub(crate) fn granted_cycling_ability(
        &self,
        card: ObjectId,
        index: u8,
    ) -> Option<&'static ActivatedAbility> {
        let o = self.obj(card).filter(|o| o.zone == ZoneKind::Hand)?;
        let (_, granter, subtype) = self
            .catalog()
            .granted_cycling()
            .find(|(i, _, _)| *i == index)?;
        let def = self.catalog().get(o.face());
        if !def.subtypes.iter().any(|s| s == subtype) {
            return None;
        }
        let granted = self.battlefield.iter().any(|id| {
            self.obj(*id).is_some_and(|p| p.face() == granter) && self.has_own_abilities(*id)
        });
        debug_assert!(index >= GRANTED_CYCLING_ABILITY);
        granted
            .then(|| self.catalog().ability(o.face(), index))
            .flatten()
    }

    /// "Whenever a player cycles a card" abilities (702.28d / 702.28f: typecycling too),
    /// triggered as `player` activates a cycling ability.
    pub(crate) fn cycled(&mut self, player: PlayerId) {
        let found = self.matching(|_, _, ctrl, w| {
            matches!(w, TriggerEvent::PlayerCycles(scope) if scope.holds(ctrl, player))
        });
        self.queue_about_player(found, None, player);
    }
}
