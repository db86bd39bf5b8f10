//! Characteristics after continuous effects (rule 418.5; rules.md Section 3).
//!
//! Supported now: printed characteristics; "+P/+T until end of turn" effects from resolved
//! spells and abilities, locked to their object (418.3b), applied in timestamp order in the
//! modification sublayer (classic 6b / modern 7c); +1/+1 and -1/-1 counters (6c / 7d).
//! Cards whose text needs other layer effects are not scripted yet, so they are refused,
//! never mis-played. Issue "Effects" extends this module to the full layer system.

use crate::cards::{CardType, Keyword, PtValue};
use crate::game::Game;
use crate::ids::ObjectId;
use crate::mana::ColorSet;
use crate::object::CounterKind;
use serde::{Deserialize, Serialize};

/// "+P/+T until end of turn" on one object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PtEffect {
    pub object: ObjectId,
    pub power: i32,
    pub toughness: i32,
    pub timestamp: u32,
}

impl Game {
    fn printed_pt(&self, id: ObjectId) -> Option<(i32, i32)> {
        let def = self.def(id)?;
        // Δ18: "*" is 0 where no characteristic-defining ability sets it (none scripted yet).
        let v = |x: Option<PtValue>| match x {
            Some(PtValue::Fixed(n)) => n,
            _ => 0,
        };
        if def.power.is_none() && def.toughness.is_none() {
            return None;
        }
        Some((v(def.power), v(def.toughness)))
    }

    /// Power and toughness with every applicable effect (signed: rule 104.2 clamps on use).
    pub fn power_toughness(&self, id: ObjectId) -> Option<(i32, i32)> {
        let (mut p, mut t) = self.printed_pt(id)?;
        let o = self.obj(id)?;
        for e in self.pt_effects.iter().filter(|e| e.object == id) {
            p += e.power;
            t += e.toughness;
        }
        if o.counters.is_empty() {
            return Some((p, t));
        }
        let plus = o.counters.get(&CounterKind::PlusOnePlusOne) as i32;
        let minus = o.counters.get(&CounterKind::MinusOneMinusOne) as i32;
        p += plus - minus;
        t += plus - minus;
        Some((p, t))
    }
    pub fn power(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.0)
    }
    pub fn toughness(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.1)
    }
    pub fn has_keyword(&self, id: ObjectId, k: Keyword) -> bool {
        self.def(id).is_some_and(|d| d.keywords.contains(&k))
    }
    pub fn colors(&self, id: ObjectId) -> ColorSet {
        self.def(id).map_or(ColorSet::NONE, |d| d.colors)
    }
    pub fn has_subtype(&self, id: ObjectId, sub: &str) -> bool {
        self.def(id)
            .is_some_and(|d| d.subtypes.iter().any(|s| s.eq_ignore_ascii_case(sub)))
    }
    pub fn types_of(&self, id: ObjectId) -> &'static [CardType] {
        self.def(id).map_or(&[], |d| d.types.as_slice())
    }
}
