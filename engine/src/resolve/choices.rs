//! Effects whose player chooses as they resolve (413.2d / 608.2d): sacrifices, "unless pays", "you may pay", Spitting Slug's payment.

use super::*;

impl Game {
    /// Resolves one effect of choices that may ask a player something first.
    pub(super) fn execute_choices(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::SpittingSlug => {
                let this = self.object_of(res, ObjRef::This);
                let paid = match res.paid {
                    Some(p) => p,
                    None => {
                        let cost = spitting_slug_cost();
                        if self.plan_payment_now(me, &cost).is_some() {
                            return Progress::Ask(Pending {
                                player: me,
                                decision: Decision::PayMana { cost },
                            });
                        }
                        // A cost that can't be paid is declined.
                        false
                    }
                };
                if paid {
                    if let Some(o) = this.filter(|o| self.is_on_battlefield(*o)) {
                        self.add_keyword_effect(
                            source,
                            me,
                            vec![o],
                            crate::keywords::Keyword::FirstStrike,
                            crate::layers::Duration::EndOfTurn,
                        );
                    }
                } else if let (Some(o), Some(c)) = (this, &self.combat) {
                    // Each creature blocking or blocked by it (none if it left combat).
                    let others: Vec<ObjectId> = c
                        .blockers
                        .iter()
                        .filter(|b| b.attacker == o)
                        .map(|b| b.id)
                        .chain(c.blockers.iter().filter(|b| b.id == o).map(|b| b.attacker))
                        .filter(|x| self.is_on_battlefield(*x))
                        .collect();
                    self.add_keyword_effect(
                        source,
                        me,
                        others,
                        crate::keywords::Keyword::FirstStrike,
                        crate::layers::Duration::EndOfTurn,
                    );
                }
            }
            Effect::SacrificeThen { what, then } => {
                // Shield orders for its damage are asked before anything happens (616.1).
                if let Some(p) = self.shield_question_for(res, then) {
                    return Progress::Ask(p);
                }
                // "Sacrifice it. If you do, ...": only a permanent you control now.
                let sacrificed = self
                    .object_of(res, *what)
                    .filter(|o| self.obj(*o).is_some_and(|x| x.controller == me))
                    .filter(|o| self.is_on_battlefield(*o))
                    .and_then(|o| self.sacrifice(o))
                    .is_some();
                if sacrificed {
                    for e in then {
                        if let Progress::Ask(p) = self.execute(res, e) {
                            // Loading refuses effects that ask anything more here.
                            debug_assert!(false, "a sacrifice-then effect asked {p:?}");
                        }
                    }
                }
            }
            Effect::Sacrifice { who, filter, count } => {
                let n = self.amount(res, count).max(0) as usize;
                for p in self.players_of(res, *who) {
                    if res.choices.iter().any(|(q, _)| *q == p) {
                        continue;
                    }
                    let cands: Vec<ObjectId> = self
                        .battlefield_of(p)
                        .map(|o| o.id)
                        .filter(|id| self.matches_filter(*id, filter, p))
                        .collect();
                    if n == 0 {
                        res.choices.push((p, Vec::new()));
                    } else if cands.len() <= n {
                        res.choices.push((p, cands));
                    } else {
                        return Progress::Ask(Pending {
                            player: p,
                            decision: Decision::Sacrifice {
                                filter: filter.clone(),
                                count: n as u32,
                            },
                        });
                    }
                }
                let chosen = std::mem::take(&mut res.choices);
                let all: Vec<ObjectId> = chosen.iter().flat_map(|(_, v)| v.clone()).collect();
                self.begin_batch(&all);
                for o in all {
                    self.sacrifice(o);
                }
                self.end_batch();
            }
            _ => debug_assert!(false, "not an effect of choices: {e:?}"),
        }
        Progress::Done
    }

    /// Curse of the Cabal's sacrifices: "sacrifices half the permanents they control,
    /// rounded down" (each player chooses, APNAP) and "may sacrifice a permanent. If the
    /// player does, ..." (yes or no, then which one if there are several); Dream Stalker's
    /// "return a permanent you control to its owner's hand" (which one, if several).
    pub(super) fn execute_sacrifice_choices(
        &mut self,
        res: &mut Resolution,
        e: &Effect,
    ) -> Progress {
        match e {
            Effect::SacrificeHalf { .. } | Effect::BalanceSacrifice(_) => {
                let (players, filter) = match e {
                    Effect::SacrificeHalf { who } => (
                        self.players_of(res, *who),
                        crate::targets::ObjectFilter::default(),
                    ),
                    Effect::BalanceSacrifice(f) => (self.apnap(), f.clone()),
                    _ => return Progress::Done,
                };
                let count = |g: &Game, p: PlayerId| {
                    g.battlefield_of(p)
                        .filter(|o| g.matches_filter(o.id, &filter, p))
                        .count()
                };
                // Restore Balance: down to the fewest any player still in the game controls.
                let fewest = players
                    .iter()
                    .filter(|p| self.player(**p).in_game())
                    .map(|p| count(self, *p))
                    .min()
                    .unwrap_or(0);
                for p in players {
                    if res.choices.iter().any(|(q, _)| *q == p) {
                        continue;
                    }
                    let have = count(self, p);
                    let n = match e {
                        Effect::SacrificeHalf { .. } => have / 2,
                        _ => have.saturating_sub(fewest),
                    };
                    if n == 0 {
                        res.choices.push((p, Vec::new()));
                        continue;
                    }
                    if n == have {
                        let all = self
                            .battlefield_of(p)
                            .filter(|o| self.matches_filter(o.id, &filter, p))
                            .map(|o| o.id)
                            .collect();
                        res.choices.push((p, all));
                        continue;
                    }
                    return Progress::Ask(Pending {
                        player: p,
                        decision: Decision::Sacrifice {
                            filter: filter.clone(),
                            count: n as u32,
                        },
                    });
                }
                let all: Vec<ObjectId> = std::mem::take(&mut res.choices)
                    .into_iter()
                    .flat_map(|(_, v)| v)
                    .collect();
                self.begin_batch(&all);
                for o in all {
                    self.sacrifice(o);
                }
                self.end_batch();
            }
            Effect::ReturnChosen(filter) => {
                let me = res.item.controller;
                let chosen = match res.choices.iter().position(|(q, _)| *q == me) {
                    Some(i) => res.choices.remove(i).1,
                    None => {
                        let cands: Vec<ObjectId> = self
                            .battlefield_of(me)
                            .map(|o| o.id)
                            .filter(|id| self.matches_filter(*id, filter, me))
                            .collect();
                        if cands.len() > 1 {
                            return Progress::Ask(Pending {
                                player: me,
                                decision: Decision::ReturnToHand {
                                    filter: filter.clone(),
                                    count: 1,
                                },
                            });
                        }
                        cands
                    }
                };
                for o in chosen {
                    self.move_object(o, ZoneKind::Hand, Position::Top);
                }
            }
            Effect::MaySacrificeThen {
                who,
                filter,
                count,
                then,
            } => return self.execute_may_sacrifice(res, *who, filter, *count, then),
            Effect::SacrificeOrElse { filter, otherwise } => {
                return self.sacrifice_or_else(res, filter, otherwise);
            }
            _ => debug_assert!(false, "not a sacrifice choice: {e:?}"),
        }
        Progress::Done
    }

    /// "Sacrifice a <filter> (`other`: not the source). If you can't, <otherwise>" (Liege of
    /// the Pit): mandatory when there is one; the controller chooses among several.
    fn sacrifice_or_else(
        &mut self,
        res: &mut Resolution,
        filter: &crate::targets::ObjectFilter,
        otherwise: &[Effect],
    ) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        let cands: Vec<ObjectId> = self
            .battlefield_of(me)
            .map(|o| o.id)
            .filter(|id| !(filter.other && *id == source))
            .filter(|id| self.matches_filter(*id, filter, me))
            .collect();
        if cands.is_empty() {
            if let Some(p) = self.shield_question_for(res, otherwise) {
                return Progress::Ask(p);
            }
            for e in otherwise {
                if let Progress::Ask(p) = self.execute(res, e) {
                    debug_assert!(false, "a sacrifice_or_else effect asked {p:?}");
                }
            }
            return Progress::Done;
        }
        let chosen = match (res.choices.first(), cands.as_slice()) {
            (Some((_, v)), _) => v.first().copied(),
            (None, [only]) => Some(*only),
            (None, _) => {
                return Progress::Ask(Pending {
                    player: me,
                    decision: Decision::Sacrifice {
                        filter: filter.clone(),
                        count: 1,
                    },
                });
            }
        };
        if let Some(o) = chosen {
            self.sacrifice(o);
        }
        Progress::Done
    }

    /// "EFFECTS unless you pay COST": the controller is asked whether to pay (not if they
    /// can't: 2006 / 2014 a player can pay life only up to their life total, 119.4); paid,
    /// nothing else happens; else the effects do.
    fn execute_unless_pays(
        &mut self,
        res: &mut Resolution,
        mana: Option<&crate::mana::ManaCost>,
        life: u32,
        effects: &[Effect],
    ) -> Progress {
        let me = res.item.controller;
        let payable = mana.map(|m| m.to_payable(0));
        let can_pay = payable.as_ref().is_none_or(|p| self.can_pay_now(me, p))
            && self.player(me).life >= life as i32;
        match res.may {
            None if can_pay => {
                let card = &self.catalog().get(res.item.card).name;
                let cost = match (mana, life) {
                    (Some(m), 0) => m.to_string(),
                    (Some(m), n) => format!("{m} and {n} life"),
                    (None, n) => format!("{n} life"),
                };
                return Self::ask_yes_no(me, format!("{card}: pay {cost}?"));
            }
            Some(true)
                if can_pay
                    && payable
                        .as_ref()
                        .is_none_or(|p| self.pay_automatically(me, p)) =>
            {
                if life > 0 {
                    self.lose_life(me, life as i32);
                }
                return Progress::Done;
            }
            _ => {}
        }
        for e in effects {
            if let Progress::Ask(p) = self.execute(res, e) {
                debug_assert!(false, "an unless_pays effect asked {p:?}");
            }
        }
        Progress::Done
    }

    /// Resolves one effect of payments and yes/no questions that may ask a player something first.
    pub(super) fn execute_payments(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::AnyPlayerMayTakeDamage { amount, otherwise } => {
                // Each player who said no is kept in `choices` (APNAP order).
                let asked = |g: &Game, res: &Resolution| {
                    g.apnap()
                        .into_iter()
                        .find(|p| !res.choices.iter().any(|(q, _)| q == p))
                };
                if let Some(yes) = res.may.take()
                    && let Some(p) = asked(self, res)
                {
                    if yes {
                        self.deal_damage(source, Target::Player(p), *amount, false);
                        return Progress::Done;
                    }
                    res.choices.push((p, Vec::new()));
                }
                let Some(p) = asked(self, res) else {
                    return self.execute(res, otherwise);
                };
                let def = self.catalog().get(res.item.card);
                return Self::ask_yes_no(
                    p,
                    format!(
                        "{}: have it deal {amount} damage to you? ({})",
                        def.name, def.text
                    ),
                );
            }
            Effect::MayPay { cost, effects } => {
                let payable = cost.to_payable(0);
                match res.may {
                    None if self.can_pay_now(me, &payable) => {
                        let card = &self.catalog().get(res.item.card).name;
                        return Self::ask_yes_no(me, format!("{card}: pay {cost}?"));
                    }
                    Some(true) if let Some(p) = self.shield_question_for(res, effects) => {
                        return Progress::Ask(p);
                    }
                    // Paid once (`res.paid`): a question an effect asks as it puts a card
                    // onto the battlefield (Lim-Dûl returning an Aquamorph Entity: 5/1 or
                    // 1/5?) waits, and that effect runs again once answered, without paying
                    // again or redoing the effects before it (`res.inner_done`).
                    Some(true)
                        if res.paid == Some(true) || self.pay_automatically(me, &payable) =>
                    {
                        res.paid = Some(true);
                        for (i, e) in effects.iter().enumerate().skip(res.inner_done as usize) {
                            if let Progress::Ask(p) = self.execute(res, e) {
                                return Progress::Ask(p);
                            }
                            res.inner_done = (i + 1) as u8;
                        }
                    }
                    // Declined, or can't pay: nothing happens.
                    _ => {}
                }
            }
            Effect::SacrificeUnlessPays { cost } => {
                return self.execute_echo(res, source, cost, true);
            }
            Effect::SacrificeThisUnlessPays { cost } => {
                return self.execute_echo(res, source, cost, false);
            }
            Effect::UnlessPays {
                mana,
                life,
                effects,
            } => return self.execute_unless_pays(res, mana.as_ref(), *life, effects),
            Effect::PactPay => {
                let Some(cost) = self.pact_cost(res.item.card) else {
                    return Progress::Done;
                };
                let payable = cost.to_payable(0);
                match res.may {
                    None if self.can_pay_now(me, &payable) => {
                        let card = &self.catalog().get(res.item.card).name;
                        return Self::ask_yes_no(
                            me,
                            format!("{card}: pay {cost}, or lose the game? Pay?"),
                        );
                    }
                    Some(true) if self.pay_automatically(me, &payable) => {}
                    _ => self.pact_unpaid(me),
                }
            }
            Effect::CounterUnlessPays { what, generic } => {
                let Some(o) = self.object_of(res, *what) else {
                    return Progress::Done;
                };
                let Some(item) = self.stack.iter().find(|s| s.object() == Some(o)).cloned() else {
                    return Progress::Done;
                };
                let payer = item.controller;
                let generic = self.amount(res, generic).max(0) as u32;
                let cost = crate::mana::ManaCost::generic(generic).to_payable(0);
                match res.may {
                    // 413.2 / 608.2: the player chooses as it resolves; one who can't pay
                    // isn't asked.
                    None if self.can_pay_now(payer, &cost) => {
                        return Progress::Ask(Pending {
                            player: payer,
                            decision: Decision::YesNo {
                                question: format!(
                                    "{}: pay {{{generic}}}, or {} is countered. Pay?",
                                    self.catalog().get(res.item.card).name,
                                    self.catalog().get(item.card).name
                                ),
                            },
                        });
                    }
                    Some(true) if self.pay_automatically(payer, &cost) => {}
                    _ => self.counter_item(&item, false),
                }
            }
            Effect::ItsControllerMay { effects, text } => {
                // "That creature's controller": now, or as it last existed (the player the
                // trigger recorded as it entered).
                let chooser = Self::subject_id(res)
                    .and_then(|s| self.obj(s).map(|o| o.controller))
                    .or(match res.item.kind {
                        StackKind::Trigger { player, .. } => player,
                        _ => None,
                    })
                    .unwrap_or(me);
                return self.execute_may(res, chooser, effects, text);
            }
            _ => debug_assert!(
                false,
                "not an effect of payments and yes/no questions: {e:?}"
            ),
        }
        Progress::Done
    }

    /// "Change the target of target spell or ability with a single target" (Willbender):
    /// the resolving ability's controller picks the new target among the legal ones (asked
    /// only with two or more); with none, the target stays.
    pub(super) fn execute_change_target(&mut self, res: &mut Resolution, what: ObjRef) -> Progress {
        let ObjRef::Target(n) = what else {
            return Progress::Done;
        };
        let Some(t) = Self::target_at(res, n) else {
            return Progress::Done;
        };
        let Some(pos) = self.stack.iter().position(|s| match t {
            crate::targets::Target::Object(id) => s.object() == Some(id),
            crate::targets::Target::Ability(serial) => s.serial == Some(serial),
            crate::targets::Target::Player(_) => false,
        }) else {
            return Progress::Done;
        };
        let item = self.stack[pos].clone();
        let cands = self.new_single_target_candidates(&item);
        let new = match (res.option, cands.as_slice()) {
            (_, []) => return Progress::Done,
            (None, [only]) => *only,
            (None, _) => {
                let options = cands.iter().map(|c| self.describe_target(*c)).collect();
                return Progress::Ask(Pending {
                    player: res.item.controller,
                    decision: Decision::ChooseMode { options },
                });
            }
            (Some(i), _) => match cands.get(i as usize) {
                Some(c) => *c,
                None => return Progress::Done,
            },
        };
        let s = &mut self.stack[pos];
        match s.division.first_mut() {
            Some((d, _)) if s.targets.is_empty() => *d = new,
            _ => {
                if let Some(old) = s.targets.first_mut() {
                    *old = new;
                }
            }
        }
        let (card, spell, controller) = (item.card, item.object(), item.controller);
        self.emit(Event::TargetChanged {
            card,
            spell,
            controller,
            target: new,
        });
        Progress::Done
    }

    /// "Change the target of target spell that targets only a single creature to ~" (Muck
    /// Drubb): only while the spell still targets only that one creature, and only if the
    /// ability's source is a legal new target for it (checked as Willbender's are: as if
    /// its controller chose it now); every target (or recipient) becomes the source.
    pub(super) fn change_target_to_this(&mut self, res: &Resolution, what: ObjRef) {
        let ObjRef::Target(n) = what else { return };
        let (Some(crate::targets::Target::Object(spell)), Some(this)) =
            (Self::target_at(res, n), res.item.ability_source())
        else {
            return;
        };
        let Some(pos) = self.stack.iter().position(|s| s.object() == Some(spell)) else {
            return;
        };
        let item = self.stack[pos].clone();
        let new = crate::targets::Target::Object(this);
        if self.single_creature_target(&item).is_none()
            || !self.new_single_target_candidates(&item).contains(&new)
        {
            return;
        }
        let s = &mut self.stack[pos];
        match s.division.first_mut() {
            Some((d, _)) if s.targets.is_empty() => *d = new,
            _ => {
                if let Some(old) = s.targets.first_mut() {
                    *old = new;
                }
            }
        }
        let (card, controller) = (item.card, item.controller);
        self.emit(Event::TargetChanged {
            card,
            spell: Some(spell),
            controller,
            target: new,
        });
    }

    /// "Any player may sacrifice a <filter>. If a player does, <then>" (Brain Gorgers): in
    /// APNAP order each player who controls one is asked yes or no until one says yes; that
    /// player chooses which (asked only with a choice) and sacrifices it, then `then`
    /// happens. `res.choices` keeps those who said no (with no objects) and the sacrifice
    /// chosen (with its object).
    pub(super) fn execute_any_player_may_sacrifice(
        &mut self,
        res: &mut Resolution,
        filter: &ObjectFilter,
        then: &[Effect],
    ) -> Progress {
        let cands = |g: &Game, p: PlayerId| -> Vec<ObjectId> {
            g.battlefield_of(p)
                .map(|o| o.id)
                .filter(|id| g.matches_filter(*id, filter, p))
                .collect()
        };
        let undecided = |g: &Game, res: &Resolution| {
            g.apnap()
                .into_iter()
                .find(|p| !res.choices.iter().any(|(q, _)| q == p) && !cands(g, *p).is_empty())
        };
        let mut chosen = res
            .choices
            .iter()
            .find(|(_, v)| !v.is_empty())
            .map(|(_, v)| v.clone());
        if chosen.is_none()
            && let Some(yes) = res.may.take()
            && let Some(p) = undecided(self, res)
        {
            let mine = cands(self, p);
            match (yes, mine.as_slice()) {
                (false, _) => res.choices.push((p, Vec::new())),
                (true, [only]) => chosen = Some(vec![*only]),
                (true, _) => {
                    return Progress::Ask(Pending {
                        player: p,
                        decision: Decision::Sacrifice {
                            filter: filter.clone(),
                            count: 1,
                        },
                    });
                }
            }
        }
        if let Some(objs) = chosen {
            if objs
                .iter()
                .filter(|o| self.sacrifice(**o).is_some())
                .count()
                > 0
            {
                for e in then {
                    if let Progress::Ask(q) = self.execute(res, e) {
                        debug_assert!(false, "an any_player_may_sacrifice effect asked {q:?}");
                    }
                }
            }
            return Progress::Done;
        }
        let Some(p) = undecided(self, res) else {
            return Progress::Done;
        };
        let card = &self.catalog().get(res.item.card).name;
        Self::ask_yes_no(p, format!("{card}: you may sacrifice a {filter}. Do you?"))
    }

    /// "That player may sacrifice <count> <filter>. If the player does, <then>" (Curse of the
    /// Cabal, Leviathan): a yes/no question (only with enough of them), then which ones
    /// (only with a choice), all sacrificed at once.
    fn execute_may_sacrifice(
        &mut self,
        res: &mut Resolution,
        who: PlayerRef,
        filter: &ObjectFilter,
        count: u32,
        then: &[Effect],
    ) -> Progress {
        let Some(p) = self.players_of(res, who).first().copied() else {
            return Progress::Done;
        };
        let n = count.max(1) as usize;
        let cands: Vec<ObjectId> = self
            .battlefield_of(p)
            .map(|o| o.id)
            .filter(|id| self.matches_filter(*id, filter, p))
            .collect();
        // Too few to sacrifice: they can't, so nothing happens.
        if cands.len() < n || res.may == Some(false) {
            return Progress::Done;
        }
        if res.may.is_none() {
            let card = &self.catalog().get(res.item.card).name;
            let what = if n == 1 {
                format!("a {filter}")
            } else {
                format!("{n} ({filter})")
            };
            return Self::ask_yes_no(p, format!("{card}: you may sacrifice {what}. Do you?"));
        }
        let chosen = match res.choices.first() {
            Some((_, v)) => v.clone(),
            None if cands.len() == n => cands,
            None => {
                return Progress::Ask(Pending {
                    player: p,
                    decision: Decision::Sacrifice {
                        filter: filter.clone(),
                        count: n as u32,
                    },
                });
            }
        };
        // Several at once (one alone as before, without a batch).
        let batch = chosen.len() > 1;
        if batch {
            self.begin_batch(&chosen);
        }
        let sacrificed = chosen
            .iter()
            .filter(|o| self.sacrifice(**o).is_some())
            .count();
        if batch {
            self.end_batch();
        }
        if sacrificed == n {
            for e in then {
                if let Progress::Ask(q) = self.execute(res, e) {
                    debug_assert!(false, "a may_sacrifice effect asked {q:?}");
                }
            }
        }
        Progress::Done
    }
}
