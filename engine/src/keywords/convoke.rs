//! Convoke (2014 rules 702.50; Ravnica's keyword, returning in Future Sight, its 2006 text
//! absent from the seeds).
//!
//! Modern (702.50a, the 2014 wording): "For each colored mana in this spell's total cost,
//! you may tap an untapped creature of that color you control rather than pay that mana.
//! For each generic mana in this spell's total cost, you may tap an untapped creature you
//! control rather than pay that mana": each creature tapped pays for one mana, so every
//! creature chosen must pay for something. Classic (as printed in Ravnica and Future
//! Sight): "As an additional cost to play this spell, you may tap any untapped creature
//! you control. Each creature tapped this way reduces the cost by {1} or by one mana of
//! any of that creature's colors": any number of creatures, one tapped beyond what the
//! cost has reducing nothing (`Ruleset::convoke_taps_any_number`).
//!
//! Either way the creatures are chosen while casting, with the other objects a cost needs
//! (`CostPart::Convoke`, answered with `Objects`; summoning sickness doesn't matter: it is
//! not a {T} cost), applied to the total cost after increases and reductions, and tapped
//! as the costs are paid (they can't also tap for mana for the same spell). Each creature
//! pays a coloured mana of one of its colours where it can (the best assignment, found by
//! matching), else {1}. Tapping creatures isn't spending mana: the spell's mana value and
//! the colours spent to cast it don't change.

use crate::casting::{CastKind, Casting};
use crate::costs::{Cost, CostPart};
use crate::decision::RuleError;
use crate::game::Game;
use crate::ids::ObjectId;
use crate::mana::{Color, ColorSet, ManaSymbol, PayableCost};

impl Game {
    /// The convoke part of a spell's total cost (`total` without it), if it has convoke and
    /// some creature could be tapped.
    pub(crate) fn convoke_part(&self, c: &Casting, total: &Cost) -> Option<CostPart> {
        let CastKind::Spell(card) = c.kind else {
            return None;
        };
        if c.face_down || !self.def(card)?.cast_keys.convoke {
            return None;
        }
        let creatures = self.convoke_candidates(c).len() as u32;
        let max = if self.ruleset.convoke_taps_any_number() {
            creatures
        } else {
            // At most one creature for each mana of the total cost.
            let x = c.x.unwrap_or(0);
            let mana: u32 = total.mana.as_ref().map_or(0, |m| {
                m.symbols
                    .iter()
                    .map(|s| match s {
                        ManaSymbol::Generic(n) => *n,
                        ManaSymbol::X => x,
                        _ => 1,
                    })
                    .sum()
            });
            (mana + self.spell_cost_increase()).min(creatures)
        };
        (max > 0).then_some(CostPart::Convoke(max))
    }

    /// The creatures `c`'s caster may tap for convoke: their untapped creatures.
    pub(crate) fn convoke_candidates(&self, c: &Casting) -> Vec<ObjectId> {
        self.battlefield_of(c.player)
            .filter(|o| !o.tapped)
            .map(|o| o.id)
            .filter(|id| self.is_creature(*id))
            .collect()
    }

    /// The creatures chosen for convoke so far (none before the choice).
    pub(crate) fn convoke_chosen(&self, c: &Casting, parts: &[CostPart]) -> Vec<ObjectId> {
        parts
            .iter()
            .position(|p| matches!(p, CostPart::Convoke(_)))
            .and_then(|i| c.cost_objects.get(i))
            .cloned()
            .unwrap_or_default()
    }

    /// The creatures convoke pays with for the cost being worked out: the ones chosen, or,
    /// before they are chosen (to tell whether the spell can be cast at all), every one
    /// that could be.
    pub(crate) fn convoke_creatures(&self, c: &Casting, parts: &[CostPart]) -> Vec<ObjectId> {
        let Some(i) = parts.iter().position(|p| matches!(p, CostPart::Convoke(_))) else {
            return Vec::new();
        };
        match c.cost_objects.get(i) {
            Some(chosen) => chosen.clone(),
            None => self.convoke_candidates(c),
        }
    }

    /// Modern (702.50a): each creature chosen must pay for a mana of the cost (classic: a
    /// creature may reduce nothing).
    /// Either way, the rest of the cost must still be payable with the other sources.
    pub(crate) fn check_convoke(
        &self,
        c: &Casting,
        creatures: &[ObjectId],
    ) -> Result<(), RuleError> {
        let mut cost = self.payable_before_convoke(c);
        if self.convoke_pay(&mut cost, creatures) > 0 && !self.ruleset.convoke_taps_any_number() {
            return Err(RuleError::illegal(
                "each creature tapped for convoke pays for {1} or one mana of its colour, and this cost has no such mana left for one of them",
            ));
        }
        let mut next = c.clone();
        next.cost_objects.push(creatures.to_vec());
        let rest = self.payable_mana(&next);
        if !rest.is_zero() && !self.payment_possible(&next, &rest, creatures) {
            return Err(RuleError::illegal(format!(
                "with these creatures tapped for convoke you couldn't pay the rest ({rest}) with your other mana sources"
            )));
        }
        Ok(())
    }

    /// Reduces `cost` by what `creatures` pay: coloured mana of their colours first (a
    /// maximum matching of creatures to coloured and hybrid symbols), then {1} each.
    /// Returns how many creatures paid for nothing.
    pub(crate) fn convoke_pay(&self, cost: &mut PayableCost, creatures: &[ObjectId]) -> u32 {
        let colours: Vec<ColorSet> = creatures.iter().map(|id| self.colors(*id)).collect();
        // The coloured symbols as slots, each with the colours that may pay it.
        let mut slots: Vec<ColorSet> = Vec::new();
        for c in Color::ALL {
            for _ in 0..cost.colored[c as usize] {
                slots.push(ColorSet::single(c));
            }
        }
        for (a, b) in &cost.hybrid {
            let mut s = ColorSet::single(*a);
            s.insert(*b);
            slots.push(s);
        }
        let matched = max_matching(&colours, &slots);
        let mut paid = vec![false; slots.len()];
        let mut unused = 0;
        for slot in &matched {
            match slot {
                Some(s) => paid[*s] = true,
                None if cost.generic > 0 => cost.generic -= 1,
                None => unused += 1,
            }
        }
        // Rebuild the coloured part from the slots left unpaid.
        let mut colored = [0u32; 5];
        let n_colored: u32 = cost.colored.iter().sum();
        for (i, s) in slots.iter().enumerate().take(n_colored as usize) {
            if !paid[i] {
                for c in s.iter() {
                    colored[c as usize] += 1;
                }
            }
        }
        let hybrid: Vec<(Color, Color)> = cost
            .hybrid
            .iter()
            .enumerate()
            .filter(|(i, _)| !paid[n_colored as usize + i])
            .map(|(_, h)| *h)
            .collect();
        cost.colored = colored;
        cost.hybrid = hybrid;
        unused
    }
}

/// A maximum matching of creatures (their colours) to slots (the colours that may pay
/// each): for each creature, the slot it pays, if any (augmenting paths; the sets are
/// small).
fn max_matching(creatures: &[ColorSet], slots: &[ColorSet]) -> Vec<Option<usize>> {
    fn augment(
        c: usize,
        creatures: &[ColorSet],
        slots: &[ColorSet],
        seen: &mut [bool],
        slot_of: &mut [Option<usize>],
    ) -> bool {
        for (s, allowed) in slots.iter().enumerate() {
            if seen[s] || !creatures[c].iter().any(|col| allowed.contains(col)) {
                continue;
            }
            seen[s] = true;
            if slot_of[s].is_none_or(|other| augment(other, creatures, slots, seen, slot_of)) {
                slot_of[s] = Some(c);
                return true;
            }
        }
        false
    }
    let mut slot_of: Vec<Option<usize>> = vec![None; slots.len()];
    for c in 0..creatures.len() {
        let mut seen = vec![false; slots.len()];
        augment(c, creatures, slots, &mut seen, &mut slot_of);
    }
    let mut out = vec![None; creatures.len()];
    for (s, c) in slot_of.iter().enumerate() {
        if let Some(c) = c {
            out[*c] = Some(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::max_matching;
    use crate::mana::{Color, ColorSet};

    #[test]
    fn matching_finds_the_assignment_a_greedy_pick_misses() {
        // A white-green creature and a green one; the cost has {W} and {G}: the green one
        // must pay {G} so that the white-green one can pay {W}.
        let mut wg = ColorSet::single(Color::W);
        wg.insert(Color::G);
        let g = ColorSet::single(Color::G);
        let slots = [ColorSet::single(Color::G), ColorSet::single(Color::W)];
        let m = max_matching(&[wg, g], &slots);
        assert!(m.iter().all(Option::is_some));
        assert_ne!(m[0], m[1]);
        // A colourless creature pays no coloured symbol.
        assert_eq!(max_matching(&[ColorSet::NONE], &slots), vec![None]);
    }
}
