//! Storage lands (rulings A21; not a keyword: a cycle of Time Spiral lands, Calciform Pools
//! and its four cousins). Their abilities are ordinary ones of the script language:
//!
//! - "{1}, {T}: Put a storage counter on ~" is an activated ability using the stack
//!   (`put_counter storage this`); it makes no mana (R-storage-lands-2).
//! - "{1}, Remove X storage counters from ~: Add X mana in any combination of {W} and/or
//!   {U}" is a mana ability (2006 406.1 / 2014 605.1a: it makes mana, has no target and
//!   isn't a loyalty ability), cost [`CostPart::RemoveXCounters`], production
//!   [`ManaProduce::XCombination`]. It doesn't tap the land: a tapped storage land can use
//!   it, and it stays as it was (R-storage-lands-1); not being tapped for mana, it triggers
//!   nothing that waits for a land to be tapped for mana.
//!
//! X and the colours are chosen as it is activated: `Answer::ActivateManaX` names one colour
//! per mana, X being how many. Its {1} comes from the pool (as for every mana ability with a
//! mana cost here); it is activated at priority, and the mana stays in the pool for the
//! payment that follows (an X ability is not offered inside a payment: make the mana first).

use crate::cards::ManaProduce;
use crate::costs::CostPart;
use crate::decision::{Answer, RuleError};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::mana::{Color, ManaType};

impl Game {
    /// Checks `Answer::ActivateManaX`: `ability` of `source` makes X mana in a combination
    /// of its colours, X = `colors.len()`, and its cost (with X counters) can be paid now.
    pub(crate) fn check_mana_ability_x(
        &self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
        colors: &[Color],
    ) -> Result<(), RuleError> {
        let o = self
            .obj(source)
            .ok_or_else(|| RuleError::illegal("that permanent is no longer there"))?;
        let name = &self.catalog().get(o.face()).name;
        if o.zone != crate::zones::ZoneKind::Battlefield || o.controller != player {
            return Err(RuleError::illegal(format!(
                "you don't control {name} on the battlefield"
            )));
        }
        if !self.has_own_abilities(source) {
            return Err(RuleError::illegal(format!("{name} has lost its abilities")));
        }
        self.check_not_locked(source)?;
        let a = self
            .ability(source, ability)
            .ok_or_else(|| RuleError::illegal(format!("{name} has no ability {}", ability + 1)))?;
        let Some(ManaProduce::XCombination(allowed)) = &a.mana else {
            return Err(RuleError::illegal(format!(
                "{name}'s ability {} doesn't make X mana of your choice",
                ability + 1
            )));
        };
        if let Some(bad) = colors.iter().find(|c| !allowed.contains(c)) {
            let words: Vec<&str> = allowed.iter().map(|c| c.name()).collect();
            return Err(RuleError::illegal(format!(
                "{name} makes only {} mana, not {}",
                words.join(" and/or "),
                bad.name()
            )));
        }
        let x = colors.len() as u32;
        for p in &a.cost.parts {
            if let CostPart::RemoveXCounters(k) = p {
                let have = o.counters.get(k);
                if have < x {
                    return Err(RuleError::illegal(format!(
                        "{name} has {have} {k} counter(s), so it can't make {x} mana"
                    )));
                }
            }
        }
        if let Some(m) = &a.cost.mana {
            let mut pool = self.player(player).pool.clone();
            if !pool.try_pay(&self.as_spendable(player, m.to_payable(0))) {
                return Err(RuleError::illegal(format!(
                    "you need {m} in your mana pool to activate that"
                )));
            }
        }
        if a.cost.tap && o.tapped {
            return Err(RuleError::illegal(format!("{name} is already tapped")));
        }
        Ok(())
    }

    /// Activates a checked X mana ability: pays {1} from the pool, removes X counters, adds
    /// the mana (406.4: no stack; the player keeps priority).
    pub(crate) fn activate_mana_ability_x(
        &mut self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
        colors: &[Color],
    ) {
        let Some(a) = self.ability(source, ability) else {
            return;
        };
        let cost = a.cost.clone();
        if cost.tap {
            self.tap(source);
        }
        if let Some(m) = &cost.mana {
            let m = self.as_spendable(player, m.to_payable(0));
            self.player_mut(player).pool.try_pay(&m);
        }
        let x = colors.len() as u32;
        for p in &cost.parts {
            match p {
                CostPart::RemoveXCounters(k) => self.remove_counters(source, k, x),
                CostPart::PayLife(n) => self.lose_life(player, *n as i32),
                _ => {}
            }
        }
        for c in colors {
            let mana = ManaType::Colored(*c);
            self.player_mut(player).pool.add(mana, 1);
            self.emit(Event::ManaAdded {
                player,
                mana,
                amount: 1,
            });
        }
    }

    /// The X mana answers to list at priority for `source`'s `ability`: for each X from 1 to
    /// the counters it has, every combination of its colours (X = 0 makes nothing and is
    /// accepted but not listed).
    pub(crate) fn mana_x_answers(
        &self,
        player: PlayerId,
        source: ObjectId,
        ability: u8,
    ) -> Vec<Answer> {
        let Some(a) = self.ability(source, ability) else {
            return Vec::new();
        };
        let Some(ManaProduce::XCombination(colors)) = &a.mana else {
            return Vec::new();
        };
        let Some(o) = self.obj(source) else {
            return Vec::new();
        };
        let most = a
            .cost
            .parts
            .iter()
            .filter_map(|p| match p {
                CostPart::RemoveXCounters(k) => Some(o.counters.get(k)),
                _ => None,
            })
            .min()
            .unwrap_or(0);
        let mut out = Vec::new();
        for x in 1..=most.min(8) {
            for combo in combinations(colors, x as usize) {
                if self
                    .check_mana_ability_x(player, source, ability, &combo)
                    .is_ok()
                {
                    out.push(Answer::ActivateManaX {
                        source,
                        ability,
                        colors: combo,
                    });
                }
            }
        }
        out
    }
}

/// Every multiset of `n` colours drawn from `colors` (in the order given).
fn combinations(colors: &[Color], n: usize) -> Vec<Vec<Color>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let Some((first, rest)) = colors.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<Vec<Color>> = combinations(colors, n - 1)
        .into_iter()
        .map(|mut v| {
            v.insert(0, *first);
            v
        })
        .collect();
    out.extend(combinations(rest, n));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_the_multisets() {
        let c = combinations(&[Color::W, Color::U], 2);
        assert_eq!(
            c,
            vec![
                vec![Color::W, Color::W],
                vec![Color::W, Color::U],
                vec![Color::U, Color::U]
            ]
        );
        assert_eq!(combinations(&[Color::W, Color::U], 3).len(), 4);
    }
}
