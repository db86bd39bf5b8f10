//! Counters and tokens (121, 110.5): putting counters on permanents, creating tokens.

use super::*;

impl Game {
    /// Resolves one effect of counters and tokens that may ask a player something first.
    pub(super) fn execute_counters(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        match e {
            Effect::PutCounters { kind, count, what } => {
                let n = self.amount(res, count).max(0) as u32;
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    self.add_counters(o, kind.clone(), n);
                }
            }
            Effect::RemoveCounters { kind, count, what } => {
                // From a permanent, or from a card in exile (a suspended card).
                let n = self.amount(res, count).max(0) as u32;
                if let Some(o) = self.object_of(res, *what)
                    && self
                        .obj(o)
                        .is_some_and(|x| matches!(x.zone, ZoneKind::Battlefield | ZoneKind::Exile))
                {
                    self.remove_counters(o, kind, n);
                }
            }
            Effect::MoveCounter { kind, from, to } => {
                if let (Some(f), Some(t)) = (self.object_of(res, *from), self.object_of(res, *to)) {
                    self.move_counter(kind, f, t);
                }
            }
            Effect::PutCounterEach { kind, filter } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                for o in all {
                    self.add_counters(o, kind.clone(), 1);
                }
            }
            _ => debug_assert!(false, "not an effect of counters and tokens: {e:?}"),
        }
        Progress::Done
    }

    /// Applies one effect of counters and tokens that needs no choice.
    pub(super) fn apply_counters(&mut self, res: &Resolution, e: &Effect) {
        match e {
            Effect::CreateToken { token, count, who } => {
                let n = self.amount(res, count).max(0);
                if let Some(def) = self.catalog().by_name(token) {
                    // The creator is the effect's controller; the token's owner follows
                    // the ruleset (Δ23, `create_token`).
                    let me = res.item.controller;
                    for p in self.players_of(res, *who) {
                        for _ in 0..n {
                            self.create_token(def.id, me, p);
                        }
                    }
                }
            }
            _ => debug_assert!(false, "not an effect of counters and tokens: {e:?}"),
        }
    }
}
