//! Damage and life, prevention and regeneration shields (119-120, 419.6, 615): the effects that deal, prevent or redirect damage and change life totals.

use super::*;

impl Game {
    /// "~ deals an amount of damage of your choice to <recipients>. The damage can't be
    /// prevented." (Volcano Hellion): its controller chooses the amount as it resolves (any
    /// number, 0 included: `Decision::ChooseX`), then each recipient is dealt that much at
    /// once; `unpreventable` keeps prevention effects and shields off it (`deal_damage`).
    pub(super) fn execute_damage_any_amount(
        &mut self,
        res: &mut Resolution,
        to: &[Recipient],
        unpreventable: bool,
    ) -> Progress {
        let Some(n) = res.number else {
            return Progress::Ask(Pending {
                player: res.item.controller,
                decision: Decision::ChooseX,
            });
        };
        let source = Self::source_of(&res.item);
        let recipients = self.recipients_of(res, to);
        self.damage_unpreventable = unpreventable;
        let progress = self.deal_damage_asking(source, recipients, n);
        self.damage_unpreventable = false;
        progress
    }

    /// Resolves one effect of damage and life that may ask a player something first.
    pub(super) fn execute_damage(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let source = Self::source_of(&res.item);
        match e {
            Effect::Damage { amount, to } => {
                let n = self.amount(res, amount).max(0) as u32;
                let recipients = self.recipients_of(res, to);
                return self.deal_damage_asking(source, recipients, n);
            }
            Effect::DamageDivided => {
                // 413.2a / 608.2b: a target illegal now gets no damage; its share is not
                // given to the others.
                let legal: Vec<(Target, u32)> = res
                    .item
                    .division
                    .iter()
                    .copied()
                    .filter(|(t, _)| self.division_target_legal(&res.item, *t))
                    .collect();
                return self.deal_divided_damage_asking(source, legal);
            }
            Effect::DamageFrom {
                source: from,
                amount,
                to,
            } => {
                // "It deals damage": the object, as it last existed if it has left.
                let from = match from {
                    ObjRef::Subject => Self::subject_id(res),
                    other => self.object_of(res, *other),
                };
                if let Some(from) = from {
                    let n = self.amount(res, amount).max(0) as u32;
                    let recipients = self.recipients_of(res, to);
                    return self.deal_damage_asking(from, recipients, n);
                }
            }
            Effect::GainLife { amount, who } => {
                let n = self.amount(res, amount);
                for p in self.players_of(res, *who) {
                    self.gain_life(p, n);
                }
            }
            Effect::LoseLife { amount, who } => {
                let n = self.amount(res, amount);
                for p in self.players_of(res, *who) {
                    let before = self.player(p).life;
                    self.lose_life(p, n);
                    res.life_lost += (before - self.player(p).life).max(0) as u32;
                }
            }
            Effect::Poison { amount, who } => {
                for p in self.players_of(res, *who) {
                    self.give_poison(p, *amount);
                }
            }
            _ => debug_assert!(false, "not an effect of damage and life: {e:?}"),
        }
        Progress::Done
    }

    /// Applies one effect of damage and life that needs no choice.
    pub(super) fn apply_damage(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        match e {
            Effect::Regenerate(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    self.add_shield(Shield::Regenerate(o));
                }
            }
            Effect::RegenerateAll(f) => {
                let all: Vec<ObjectId> = self.permanents_matching(f, me);
                for o in all {
                    self.add_shield(Shield::Regenerate(o));
                }
            }
            Effect::RedirectNextFromThis { amount, to } => {
                let this = self.object_of(res, ObjRef::This);
                if let (Some(from), Some(to)) = (this, self.object_of(res, *to))
                    && self.is_on_battlefield(from)
                    && self.is_on_battlefield(to)
                {
                    self.add_shield(Shield::RedirectNext {
                        from,
                        to,
                        remaining: *amount,
                    });
                }
            }
            Effect::PreventNext { amount, to } => {
                let n = self.amount(res, amount).max(0) as u32;
                let recipients: Vec<Target> = match to {
                    Recipient::Target(slot) => Self::target_at(res, *slot).into_iter().collect(),
                    Recipient::Player(p) => self
                        .players_of(res, *p)
                        .into_iter()
                        .map(Target::Player)
                        .collect(),
                    r => self.recipients_of(res, std::slice::from_ref(r)),
                };
                for t in recipients {
                    if n > 0 && self.target_exists(t) {
                        self.add_shield(Shield::PreventNext {
                            target: t,
                            remaining: n,
                        });
                    }
                }
            }
            Effect::PreventDivided => {
                // Angel of Salvation: the division was made as it went on the stack; a target
                // illegal now gets no shield (its share is not given to the others).
                let legal: Vec<(Target, u32)> = res
                    .item
                    .division
                    .iter()
                    .copied()
                    .filter(|(t, n)| *n > 0 && self.division_target_legal(&res.item, *t))
                    .collect();
                for (target, remaining) in legal {
                    self.add_shield(Shield::PreventNext { target, remaining });
                }
            }
            Effect::PreventAll(scope) => self.add_shield(Shield::PreventAll(*scope)),
            Effect::LifeFloorUntilEndOfTurn => self.add_shield(Shield::LifeFloor(me)),
            Effect::CantRegenerate(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self.is_creature(o)
                {
                    self.add_shield(Shield::CantRegenerate(o));
                }
            }
            Effect::Fight { a, b } => {
                let a = self
                    .object_of(res, *a)
                    .filter(|o| self.is_on_battlefield(*o));
                let b = self
                    .object_of(res, *b)
                    .filter(|o| self.is_on_battlefield(*o));
                if let (Some(a), Some(b)) = (a, b)
                    && self.is_creature(a)
                    && self.is_creature(b)
                {
                    // Both deal their damage at the same time, by their power now.
                    let (pa, pb) = (self.power(a).max(0) as u32, self.power(b).max(0) as u32);
                    self.deal_damage(a, Target::Object(b), pa, false);
                    self.deal_damage(b, Target::Object(a), pb, false);
                }
            }
            Effect::ExchangeLife(slot) => {
                if let Some(Target::Player(other)) = Self::target_at(res, *slot) {
                    // 2006 ruling (R-magus-of-the-mirror-1): each player gains or loses the
                    // difference, simultaneously.
                    let (a, b) = (self.player(me).life, self.player(other).life);
                    self.set_life(me, b);
                    self.set_life(other, a);
                }
            }
            Effect::LoseAtNextDrawUnlessPays { lose, pay, who } => {
                let source = Self::source_of(&res.item);
                for p in self.players_of(res, *who) {
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::NextDrawStepUnlessPaid {
                            player: p,
                            pay: *pay,
                            lose: *lose,
                        },
                        source,
                        card: res.item.card,
                        controller: me,
                        subject: None,
                    });
                }
            }
            Effect::PreventCombatDamageFrom(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.add_shield(Shield::PreventCombatDamageFrom(o));
                }
            }
            Effect::PreventCombatDamageToAndFrom(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.add_shield(Shield::PreventCombatDamageToAndFrom(o));
                }
            }
            _ => debug_assert!(false, "not an effect of damage and life: {e:?}"),
        }
    }

    /// Honorable Passage (`Effect::PreventNextFromChosenSource`): its controller chooses a
    /// source as it resolves (a `choose_mode` question listing
    /// `Game::damage_source_candidates`, each named with what it is), then the target (a
    /// creature or a player, still legal) gets the shield against that source's next
    /// damage to it this turn (`Shield::PreventNextFromSource`).
    pub(super) fn prevent_from_chosen_source(
        &mut self,
        res: &mut Resolution,
        to: ObjRef,
        reflect_red: bool,
    ) -> Progress {
        let Some(target) = (match to {
            ObjRef::Target(slot) => Self::target_at(res, slot),
            other => self.object_of(res, other).map(Target::Object),
        }) else {
            return Progress::Done;
        };
        let candidates = self.damage_source_candidates();
        let Some(i) = res.option else {
            let me = res.item.controller;
            let options = candidates
                .iter()
                .map(|&c| self.source_option_words(c, me))
                .collect();
            return Progress::Ask(Pending {
                player: me,
                decision: Decision::ChooseMode { options },
            });
        };
        let Some(&source) = candidates.get(i as usize) else {
            return Progress::Done;
        };
        if self.target_exists(target) {
            let reflect = reflect_red.then(|| Self::source_of(&res.item));
            self.add_shield(Shield::PreventNextFromSource {
                source,
                target,
                reflect,
            });
        }
        Progress::Done
    }

    /// A damage source in a "choose a source" question: its name as `viewer` sees it, and
    /// what it is (a permanent and its controller, a spell, a card elsewhere).
    fn source_option_words(&self, id: ObjectId, viewer: PlayerId) -> String {
        let name = self.seen_name(id, Some(viewer));
        match self.obj(id) {
            Some(o) if o.zone == ZoneKind::Battlefield => {
                format!("{name} ({}'s permanent)", self.player(o.controller).name)
            }
            Some(o) if o.zone == ZoneKind::Stack => {
                format!("{name} ({}'s spell)", self.player(o.controller).name)
            }
            Some(o) => format!("{name} (in {}'s {})", self.player(o.owner).name, o.zone),
            None => format!("{name} (as it last existed, the source of an ability)"),
        }
    }
}
