//! Delve (2014 rules 702.65; Future Sight's 2007 rules for the classic ruleset).
//!
//! Modern (702.65a, the 2014 wording): "For each generic mana in this spell's total cost,
//! you may exile a card from your graveyard rather than pay that mana": at most as many
//! cards as the total cost has generic mana (X included). Classic (Future Sight, 2007):
//! "As an additional cost to play this spell, you may remove any number of cards in your
//! graveyard from the game. This spell costs {1} less to play for each card removed this
//! way": any number of cards, the reduction applying to generic mana only
//! (`Ruleset::delve_exiles_any_number`). Either way the cards are chosen while casting, with
//! the other objects a cost needs (`CostPart::Delve`, answered with `Objects`: none, some or
//! all of the cards offered), and exiled as the costs are paid; the spell's mana value
//! doesn't change.

use crate::casting::{CastKind, Casting};
use crate::costs::{Cost, CostPart};
use crate::game::Game;
use crate::ids::ObjectId;
use crate::mana::ManaSymbol;
use crate::zones::ZoneKind;

impl Game {
    /// The delve part of a spell's total cost (`total` without it), if it has delve and
    /// something could be exiled.
    pub(crate) fn delve_part(&self, c: &Casting, total: &Cost) -> Option<CostPart> {
        let CastKind::Spell(card) = c.kind else {
            return None;
        };
        if c.face_down || !self.def(card)?.cast_keys.delve {
            return None;
        }
        let cards = self.delve_candidates(c).len() as u32;
        let max = if self.ruleset.delve_exiles_any_number() {
            cards
        } else {
            let x = c.x.unwrap_or(0);
            let generic: u32 = total.mana.as_ref().map_or(0, |m| {
                m.symbols
                    .iter()
                    .map(|s| match s {
                        ManaSymbol::Generic(n) => *n,
                        ManaSymbol::X => x,
                        _ => 0,
                    })
                    .sum()
            });
            generic.min(cards)
        };
        (max > 0).then_some(CostPart::Delve(max))
    }

    /// The cards `c`'s caster may exile for delve: the other cards in their graveyard.
    pub(crate) fn delve_candidates(&self, c: &Casting) -> Vec<ObjectId> {
        let me = match c.kind {
            CastKind::Spell(card) => Some(card),
            _ => None,
        };
        self.player(c.player)
            .graveyard
            .iter()
            .copied()
            .filter(|id| {
                Some(*id) != me && self.obj(*id).is_some_and(|o| o.zone == ZoneKind::Graveyard)
            })
            .collect()
    }

    /// How much generic mana delve pays: the cards chosen, or, before they are chosen (to
    /// tell whether the spell can be cast at all), as many as could be.
    pub(crate) fn delve_reduction(&self, c: &Casting, parts: &[CostPart]) -> u32 {
        let Some(i) = parts.iter().position(|p| matches!(p, CostPart::Delve(_))) else {
            return 0;
        };
        match c.cost_objects.get(i) {
            Some(chosen) => chosen.len() as u32,
            None => match parts[i] {
                CostPart::Delve(max) => max,
                _ => 0,
            },
        }
    }
}
