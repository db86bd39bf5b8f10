//! Characteristics after continuous effects (rule 418.5; rules.md Section 3).
//!
//! Built: printed characteristics; static abilities of permanents ("Sliver creatures get
//! +1/+1", "have double strike"), applied continuously to whatever matches now (418.4);
//! effects of resolved spells and abilities locked to their objects (418.3b) with durations
//! "until end of turn": modify (+P/+T), set (base P/T becomes N/M) and switch; counters.
//! Power/toughness follow each ruleset's sublayers (Δ19):
//! - classic 6a CDA, 6b all resolved effects (setting and modifying) in timestamp order,
//!   6c counters, 6d static modifications, 6e switching;
//! - modern 7a CDA, 7b setting, 7c all modifications (static or resolved), 7d counters,
//!   7e switching.
//!
//! Static abilities here only change P/T and add keywords, and their filters look only at
//! types, subtypes, colours and controllers (layers 4-5, which nothing changes yet), so no
//! dependency can arise; type-, colour-, text-, control- and copy-changing effects (layers
//! 1-5) are not built, and the cards that need them are not scripted.

use crate::cards::{CardType, Keyword, PtValue};
use crate::game::Game;
use crate::ids::ObjectId;
use crate::mana::ColorSet;
use crate::object::CounterKind;
use serde::{Deserialize, Serialize};

/// What a resolved P/T effect does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PtChange {
    /// +P/+T.
    Modify(i32, i32),
    /// Base power and toughness become P/T.
    Set(i32, i32),
    /// Power and toughness are switched.
    Switch,
}

/// A P/T effect of a resolved spell or ability on one object, until end of turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PtEffect {
    pub object: ObjectId,
    pub change: PtChange,
    pub timestamp: u32,
}

/// How long a resolved effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    /// Ends in the cleanup step (314.2).
    EndOfTurn,
    /// Ends as the end of combat step ends (311.2; modern 511.3).
    EndOfCombat,
}

/// A keyword an object gained from a resolved spell or ability ("gains first strike until
/// end of turn"), locked to that object (418.3b).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeywordEffect {
    pub object: ObjectId,
    pub keyword: Keyword,
    pub until: Duration,
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

    /// Static-ability P/T modifications that apply to `id` now, with their timestamps.
    fn static_pt_mods(&self, id: ObjectId) -> Vec<(u32, i32, i32)> {
        let mut out = Vec::new();
        if !self.has_statics {
            return out;
        }
        for &src in &self.battlefield {
            let Some(s) = self.obj(src) else { continue };
            for st in &self.catalog().get(s.card).statics {
                if (st.power != 0 || st.toughness != 0) && self.static_applies(src, st, id) {
                    out.push((s.timestamp, st.power, st.toughness));
                }
            }
        }
        out
    }

    /// Whether a static ability of `src` affects `id` (418.4: whatever matches now).
    fn static_applies(
        &self,
        src: ObjectId,
        st: &crate::cards::StaticAbility,
        id: ObjectId,
    ) -> bool {
        let Some(s) = self.obj(src) else { return false };
        if st.other && src == id {
            return false;
        }
        self.is_on_battlefield(id) && self.matches_filter(id, &st.affects, s.controller)
    }

    /// Power and toughness with every applicable effect (signed: rule 104.2 clamps on use).
    pub fn power_toughness(&self, id: ObjectId) -> Option<(i32, i32)> {
        let (mut p, mut t) = self.printed_pt(id)?;
        let o = self.obj(id)?;
        let mut resolved: Vec<&PtEffect> =
            self.pt_effects.iter().filter(|e| e.object == id).collect();
        resolved.sort_by_key(|e| e.timestamp);
        let statics = self.static_pt_mods(id);
        let plus = o.counters.get(&CounterKind::PlusOnePlusOne) as i32;
        let minus = o.counters.get(&CounterKind::MinusOneMinusOne) as i32;
        let mut switches = 0;
        if self.ruleset.layers_2006() {
            // 6b: setting and modifying effects of resolved spells, in timestamp order.
            for e in &resolved {
                match e.change {
                    PtChange::Set(a, b) => (p, t) = (a, b),
                    PtChange::Modify(a, b) => (p, t) = (p + a, t + b),
                    PtChange::Switch => switches += 1,
                }
            }
            // 6c: counters; 6d: static modifications.
            (p, t) = (p + plus - minus, t + plus - minus);
            for (_, a, b) in &statics {
                (p, t) = (p + a, t + b);
            }
        } else {
            // 7b: setting effects; 7c: every modification; 7d: counters.
            for e in &resolved {
                if let PtChange::Set(a, b) = e.change {
                    (p, t) = (a, b);
                }
            }
            for e in &resolved {
                match e.change {
                    PtChange::Modify(a, b) => (p, t) = (p + a, t + b),
                    PtChange::Switch => switches += 1,
                    PtChange::Set(..) => {}
                }
            }
            for (_, a, b) in &statics {
                (p, t) = (p + a, t + b);
            }
            (p, t) = (p + plus - minus, t + plus - minus);
        }
        // 6e / 7e: switching last.
        if switches % 2 == 1 {
            (p, t) = (t, p);
        }
        Some((p, t))
    }
    pub fn power(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.0)
    }
    pub fn toughness(&self, id: ObjectId) -> i32 {
        self.power_toughness(id).map_or(0, |x| x.1)
    }
    /// Printed keywords plus those granted by static abilities and by resolved effects
    /// (layer 6 / classic 5).
    pub fn has_keyword(&self, id: ObjectId, k: Keyword) -> bool {
        if self.def(id).is_some_and(|d| d.keywords.contains(&k)) {
            return true;
        }
        if self
            .keyword_effects
            .iter()
            .any(|e| e.object == id && e.keyword == k)
        {
            return true;
        }
        // A static that grants a keyword only to objects that already have it (Cavalry
        // Master) adds an instance, never the first one: skipped here, counted by
        // `keyword_instances`, which keeps the filter from asking itself.
        self.has_statics
            && self.battlefield.iter().any(|&src| {
                self.obj(src).is_some_and(|s| {
                    self.catalog().get(s.card).statics.iter().any(|st| {
                        st.affects.keyword.is_none()
                            && st.grants.contains(&k)
                            && self.static_applies(src, st, id)
                    })
                })
            })
    }
    /// Whether the object still has the abilities of its own card (not lost to "loses all
    /// abilities", layer 6 / classic 5).
    pub fn has_own_abilities(&self, _id: ObjectId) -> bool {
        true
    }

    /// How many instances of a keyword the object has (502.3b flanking, 502.12c rampage:
    /// each triggers separately): printed ones, one per applicable static ability, one
    /// per resolved "gains" effect.
    pub fn keyword_instances(&self, id: ObjectId, k: Keyword) -> u32 {
        let printed =
            self.def(id)
                .map_or(0, |d| d.keywords.iter().filter(|x| **x == k).count()) as u32;
        let resolved = self
            .keyword_effects
            .iter()
            .filter(|e| e.object == id && e.keyword == k)
            .count() as u32;
        let mut statics = 0;
        if self.has_statics {
            for &src in &self.battlefield {
                let Some(s) = self.obj(src) else { continue };
                for st in &self.catalog().get(s.card).statics {
                    if st.grants.contains(&k) && self.static_applies(src, st, id) {
                        statics += 1;
                    }
                }
            }
        }
        printed + resolved + statics
    }

    /// A resolved "gains K until end of turn / until end of combat" effect.
    pub(crate) fn add_keyword_effect(
        &mut self,
        object: ObjectId,
        keyword: Keyword,
        until: Duration,
    ) {
        if keyword.is_triggered() {
            self.has_triggers = true;
        }
        self.keyword_effects.push(KeywordEffect {
            object,
            keyword,
            until,
        });
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
