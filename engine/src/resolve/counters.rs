//! Counters and tokens (121, 110.5): putting counters on permanents, creating tokens.

use super::*;
use crate::object::CounterKind;

impl Game {
    /// Resolves one effect of counters and tokens that may ask a player something first.
    pub(super) fn execute_counters(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        match e {
            Effect::PutCounters { kind, count, what } => {
                let n = self.amount(res, count).max(0) as u32;
                // On a permanent, or on a suspended card (Timecrafting).
                if let Some(o) = self.object_of(res, *what)
                    && (self.is_on_battlefield(o) || self.is_suspended(o))
                {
                    self.add_counters(o, kind.clone(), n);
                }
            }
            Effect::RemoveCounters {
                kind,
                count,
                what,
                then,
            } => {
                // From a permanent, or from a card in exile (a suspended card).
                let n = self.amount(res, count).max(0) as u32;
                let mut removed = false;
                if let Some(o) = self.object_of(res, *what)
                    && self
                        .obj(o)
                        .is_some_and(|x| matches!(x.zone, ZoneKind::Battlefield | ZoneKind::Exile))
                {
                    removed = n > 0 && self.obj(o).is_some_and(|x| x.counters.get(kind) > 0);
                    // The questions its damage asks (shield orders, Dralnu's sacrifice) come
                    // before anything happens (616.1): the effect runs again once answered.
                    if removed && let Some(p) = self.shield_question_for(res, then) {
                        return Progress::Ask(p);
                    }
                    self.remove_counters(o, kind, n);
                }
                // "If you do, ...".
                if removed {
                    for e in then {
                        if let Progress::Ask(p) = self.execute(res, e) {
                            debug_assert!(false, "a remove_counter && effect asked {p:?}");
                        }
                    }
                }
            }
            Effect::RemoveAllCounters { kind, what } => {
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    let n = self.obj(o).map_or(0, |x| x.counters.get(kind));
                    if n > 0 {
                        self.remove_counters(o, kind, n);
                    }
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
            Effect::RemoveOrAddCounter { what, time_only } => {
                return self.execute_remove_or_add_counter(res, *what, *time_only);
            }
            _ => debug_assert!(false, "not an effect of counters and tokens: {e:?}"),
        }
        Progress::Done
    }

    /// Clockspinning / Jhoira's Timebug ([`Effect::RemoveOrAddCounter`]): the counters on the
    /// permanent or suspended card are read as it resolves; its controller chooses a kind and
    /// whether to remove one or put another (`ChooseMode`, options in that order for each
    /// kind; the Timebug's "you may" adds "neither"). No counter (of the kind): nothing.
    pub(super) fn execute_remove_or_add_counter(
        &mut self,
        res: &mut Resolution,
        what: ObjRef,
        time_only: bool,
    ) -> Progress {
        let Some(o) = self.object_of(res, what).filter(|o| {
            self.is_on_battlefield(*o) || self.obj(*o).is_some_and(|x| x.zone == ZoneKind::Exile)
        }) else {
            return Progress::Done;
        };
        let kinds: Vec<CounterKind> = self.obj(o).map_or(Vec::new(), |x| {
            x.counters
                .0
                .iter()
                .filter(|(k, n)| *n > 0 && (!time_only || *k == CounterKind::Time))
                .map(|(k, _)| k.clone())
                .collect()
        });
        if kinds.is_empty() {
            return Progress::Done;
        }
        let Some(choice) = res.option else {
            let name = self.card_name(o).to_string();
            let mut options: Vec<String> = kinds
                .iter()
                .flat_map(|k| {
                    [
                        format!("remove a {k} counter from {name}"),
                        format!("put another {k} counter on {name}"),
                    ]
                })
                .collect();
            if time_only {
                options.push("neither".into());
            }
            return Progress::Ask(Pending {
                player: res.item.controller,
                decision: Decision::ChooseMode { options },
            });
        };
        if let Some(k) = kinds.get(choice as usize / 2) {
            if choice % 2 == 0 {
                self.remove_counters(o, k, 1);
            } else {
                self.add_counters(o, k.clone(), 1);
            }
        }
        Progress::Done
    }

    /// Applies one effect of counters and tokens that needs no choice.
    pub(super) fn apply_counters(&mut self, res: &Resolution, e: &Effect) {
        match e {
            Effect::CreateToken {
                token,
                count,
                who,
                pt,
            } => {
                let n = self.amount(res, count).max(0);
                // "An X/X token": X counted once, as the effect begins.
                let size = pt.as_ref().map(|a| self.amount(res, a));
                if let Some(def) = self.catalog().token_by_name(token) {
                    // The creator is the effect's controller; the token's owner follows
                    // the ruleset (Δ23, `create_token`).
                    let me = res.item.controller;
                    for p in self.players_of(res, *who) {
                        for _ in 0..n {
                            self.create_token_with_pt(def.id, me, p, size.map(|s| (s, s)));
                        }
                    }
                }
            }
            Effect::CreateChosenToken(names) => {
                let source = Self::source_of(&res.item);
                let chosen = self.obj(source).and_then(|o| o.chosen);
                if let Some(crate::object::Chosen::Option(i)) = chosen
                    && let Some(def) = names
                        .get(i as usize)
                        .and_then(|n| self.catalog().token_by_name(n))
                {
                    let me = res.item.controller;
                    self.create_token(def.id, me, me);
                }
            }
            _ => debug_assert!(false, "not an effect of counters and tokens: {e:?}"),
        }
    }
}
