//! Resolving spells and abilities (rule 413.2): following the instructions in order, asking
//! players for the choices an effect needs (413.2c-d: active player first, then the others,
//! then the effect happens at once), and finishing (413.2h).

use crate::copy::CopyMoment;
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::effects::{Amount, Effect, ObjRef, PlayerRef, Recipient};
use crate::events::Event;
use crate::game::Game;
use crate::ids::{ObjectId, PlayerId};
use crate::layers::{CharChange, Duration, PtChange, PtEffect};
use crate::replacement::Shield;
use crate::stack::{StackItem, StackKind};
use crate::steps::Step;
use crate::targets::{ObjectFilter, Target};
use crate::turn::StepFlow;
use crate::types::CardType;
use crate::zones::{Position, ZoneKind};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// A resolution in progress, kept while a player makes a choice it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub item: StackItem,
    /// Which targets are still legal (413.2a).
    pub legal: Vec<bool>,
    pub effect: usize,
    /// Choices made so far for the current effect, in APNAP order.
    pub choices: Vec<(PlayerId, Vec<ObjectId>)>,
    /// The controller of each target object as the resolution began (last known information).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_controllers: Vec<Option<PlayerId>>,
    /// The converted mana cost of each target spell as the resolution began (X included;
    /// last known information once it is countered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_mana_values: Vec<Option<u32>>,
    /// The power and toughness of each target creature as the resolution began (last known
    /// information once it has left: Phthisis).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_pts: Vec<Option<(i32, i32)>>,
    /// The current effect's optional payment: made (true) or declined (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid: Option<bool>,
    /// The answer to the current effect's "you may" question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub may: Option<bool>,
}

impl Resolution {
    pub fn new(item: StackItem, legal: Vec<bool>) -> Self {
        Resolution {
            item,
            legal,
            effect: 0,
            choices: Vec::new(),
            target_controllers: Vec::new(),
            target_mana_values: Vec::new(),
            target_pts: Vec::new(),
            paid: None,
            may: None,
        }
    }
}

/// What executing one effect did.
enum Progress {
    Done,
    /// A player must choose; the resolution waits.
    Ask(Pending),
}

impl Game {
    /// Runs the resolution from where it stopped until it needs a choice or is done.
    pub(crate) fn run_resolution(&mut self) {
        loop {
            let Some(mut res) = self.resolution.take() else {
                return;
            };
            let effects = self.item_ability(&res.item).1;
            if res.effect >= effects.len() || self.result.is_some() {
                // "As ~ enters the battlefield, choose a creature type": chosen as it enters.
                if self.result.is_none()
                    && let StackKind::Spell(card) = res.item.kind
                    && self.catalog().get(res.item.card).choose_creature_type
                    && self.obj(card).is_some_and(|o| o.chosen_type.is_none())
                {
                    self.pending = Some(Pending {
                        player: res.item.controller,
                        decision: Decision::ChooseCreatureType {
                            card: self.catalog().get(res.item.card).name.clone(),
                        },
                    });
                    self.resolution = Some(res);
                    return;
                }
                // "As ~ enters the battlefield, you may choose a creature; it enters as a
                // copy" (Clone, Vesuvan Shapeshifter): chosen as it enters (`copy.rs`).
                if self.result.is_none()
                    && let StackKind::Spell(card) = res.item.kind
                    && self.copy_choice_due(card).is_some()
                {
                    let p = self.ask_copy(card, res.item.controller, CopyMoment::Entering);
                    self.pending = Some(p);
                    self.resolution = Some(res);
                    return;
                }
                self.finish_resolution(&res.item);
                // Suspend: the card is cast as its trigger finishes resolving.
                if let Some(c) = self.cast_after_resolution.take() {
                    self.continue_casting(c);
                }
                return;
            }
            let effect = effects[res.effect].clone();
            match self.execute(&mut res, &effect) {
                Progress::Done => {
                    res.effect += 1;
                    res.choices.clear();
                    res.paid = None;
                    res.may = None;
                    self.resolution = Some(res);
                }
                Progress::Ask(p) => {
                    self.pending = Some(p);
                    self.resolution = Some(res);
                    return;
                }
            }
        }
    }

    /// 413.2h: a permanent spell enters the battlefield; an instant or sorcery goes to the
    /// graveyard.
    fn finish_resolution(&mut self, item: &StackItem) {
        self.resolution = None;
        if let StackKind::Spell(card) = item.kind {
            self.stack.retain(|s| s.object() != Some(card));
            let def = self.catalog().get(item.card);
            if def.is_permanent() {
                let by_suspend = self.obj(card).is_some_and(|o| o.suspend_cast);
                let new = self.put_onto_battlefield(card, item.controller, false);
                if by_suspend && let Some(p) = new {
                    self.grant_suspend_haste(p, item.controller);
                }
                // An Aura spell enters attached to the permanent it targeted (303.4f).
                if def.enchant.is_some()
                    && let (Some(aura), Some(Target::Object(t))) = (new, item.targets.first())
                    && self.is_on_battlefield(*t)
                {
                    let ts = self.new_timestamp();
                    if let Some(o) = self.obj_mut(aura) {
                        o.attached_to = Some(*t);
                        // 418.5e: an Aura gets a new timestamp as it becomes attached.
                        o.timestamp = ts;
                    }
                }
            } else {
                self.spell_to_graveyard(card);
            }
        }
        self.copy_chosen.clear();
        self.emit(Event::Resolved {
            card: item.card,
            controller: item.controller,
        });
    }

    /// A "you may" question or an optional payment, asked as the resolution goes on.
    fn ask_yes_no(player: PlayerId, question: String) -> Progress {
        Progress::Ask(Pending {
            player,
            decision: Decision::YesNo { question },
        })
    }

    /// "As ~ enters the battlefield" copy choices (`copy.rs`) of the cards an effect is about
    /// to put onto the battlefield: asked of the player it will enter under, before it moves.
    fn entering_copy_question(&mut self, res: &Resolution, e: &Effect) -> Option<Pending> {
        // Vesuvan Shapeshifter turned face up by an effect (Break Open): its controller
        // chooses as it turns face up.
        if let Effect::TurnFaceUp(r) = e {
            let o = self
                .object_of(res, *r)
                .filter(|o| self.is_on_battlefield(*o) && self.copy_as_turned_face_up(*o))
                .filter(|o| !self.copy_chosen.iter().any(|(c, _)| c == o))?;
            let player = self.objects[o.slot()].controller;
            return Some(self.ask_copy(o, player, CopyMoment::TurnedFaceUpByEffect));
        }
        let entering: Vec<(ObjectId, PlayerId)> = match e {
            Effect::ReturnToBattlefield(r) => self
                .object_of(res, *r)
                .filter(|o| {
                    matches!(
                        self.obj(*o).map(|x| x.zone),
                        Some(ZoneKind::Exile | ZoneKind::Graveyard)
                    )
                })
                .map(|o| (o, self.objects[o.slot()].owner))
                .into_iter()
                .collect(),
            // Momentary Blink: asked before it leaves (the battlefield it returns to is the
            // same), of the owner it returns under.
            Effect::ExileAndReturn(r) => self
                .object_of(res, *r)
                .filter(|o| self.is_on_battlefield(*o))
                .map(|o| (o, self.objects[o.slot()].owner))
                .into_iter()
                .collect(),
            Effect::ReturnLinkedToBattlefield => {
                let source = Self::source_of(&res.item);
                self.links
                    .iter()
                    .filter(|(s, o)| {
                        *s == source && self.obj(*o).is_some_and(|x| x.zone == ZoneKind::Exile)
                    })
                    .map(|(_, o)| (*o, self.objects[o.slot()].owner))
                    .collect()
            }
            Effect::Search {
                to: ZoneKind::Battlefield,
                ..
            } => res
                .choices
                .iter()
                .flat_map(|(_, objs)| objs.iter().map(|o| (*o, res.item.controller)))
                .collect(),
            _ => return None,
        };
        let (object, player) = entering
            .into_iter()
            .find(|(o, _)| self.copy_choice_due(*o).is_some())?;
        Some(self.ask_copy(object, player, CopyMoment::Entering))
    }

    fn source_of(item: &StackItem) -> ObjectId {
        match item.kind {
            StackKind::Spell(id) => id,
            StackKind::Ability { source, .. } | StackKind::Trigger { source, .. } => source,
            StackKind::CombatDamage { .. } => ObjectId(u32::MAX),
        }
    }

    fn amount(&self, res: &Resolution, a: &Amount) -> i32 {
        match a {
            Amount::Fixed(n) => *n,
            Amount::X | Amount::ThatMuch => res.item.x as i32,
            Amount::CreaturesYouControl => self
                .battlefield_of(res.item.controller)
                .filter(|o| self.is_creature(o.id))
                .count() as i32,
            Amount::BasicLandTypesYouControl => {
                let lands: Vec<ObjectId> = self
                    .battlefield_of(res.item.controller)
                    .map(|o| o.id)
                    .filter(|id| self.has_type(*id, CardType::Land))
                    .collect();
                ["Plains", "Island", "Swamp", "Mountain", "Forest"]
                    .iter()
                    .filter(|t| lands.iter().any(|id| self.has_subtype(*id, t)))
                    .count() as i32
            }
            Amount::AttackingCreatures => {
                self.combat.as_ref().map_or(0, |c| c.attackers.len() as i32)
            }
            Amount::BlockersBeyondFirst => {
                let subject = self.object_of(res, ObjRef::Subject);
                let blockers = self.combat.as_ref().map_or(0, |c| {
                    c.blockers
                        .iter()
                        .filter(|b| Some(b.attacker) == subject)
                        .count() as i32
                });
                (blockers - 1).max(0)
            }
            Amount::SubjectPower => match Self::subject_id(res) {
                Some(s) if self.is_on_battlefield(s) => self.power(s),
                // Gone: its power as it last existed on the battlefield.
                Some(s) => self
                    .lki_power
                    .iter()
                    .rev()
                    .find(|(o, _)| *o == s)
                    .map_or(0, |(_, p)| *p),
                None => 0,
            },
            // Its face: a face-down spell has no mana cost, so 0 (R-endrek-sahr-master-breeder-3).
            Amount::SubjectManaValue => Self::subject_id(res)
                .and_then(|s| self.objects.get(s.slot()))
                .map(|o| o.face())
                .map_or(0, |c| self.catalog().get(c).mana_value() as i32),
            Amount::TargetManaValue(slot) => res
                .target_mana_values
                .get(*slot as usize)
                .copied()
                .flatten()
                .unwrap_or(0) as i32,
            Amount::TargetPowerPlusToughness(slot) => match Self::target_at(res, *slot) {
                // A negative power or toughness counts as 0 (R-phthisis-2).
                Some(Target::Object(o)) if self.is_on_battlefield(o) => {
                    self.power(o).max(0) + self.toughness(o).max(0)
                }
                // Gone during this resolution: as it was as the resolution began, which is
                // as it last existed (nothing before its leaving changed it).
                _ => res
                    .target_pts
                    .get(*slot as usize)
                    .copied()
                    .flatten()
                    .map_or(0, |(p, t)| p.max(0) + t.max(0)),
            },
        }
    }

    /// The trigger's subject as it was when the ability triggered (it may be gone since).
    fn subject_id(res: &Resolution) -> Option<ObjectId> {
        match res.item.kind {
            StackKind::Trigger { subject, .. } => subject,
            _ => None,
        }
    }

    /// Who receives damage dealt to `to`, in order.
    fn recipients_of(&self, res: &Resolution, to: &[Recipient]) -> Vec<Target> {
        let me = res.item.controller;
        let mut recipients: Vec<Target> = Vec::new();
        for r in to {
            match r {
                Recipient::Target(slot) => recipients.extend(Self::target_at(res, *slot)),
                Recipient::Player(p) => {
                    recipients.extend(self.players_of(res, *p).into_iter().map(Target::Player))
                }
                Recipient::EachCreature(f) => recipients.extend(
                    self.battlefield
                        .iter()
                        .copied()
                        .filter(|id| self.matches_filter(*id, f, me))
                        .map(Target::Object),
                ),
                Recipient::EachCreatureBlocking(what) => {
                    // The blocks are remembered after the blocked creature left combat.
                    let blocked = match what {
                        ObjRef::Subject => Self::subject_id(res),
                        other => self.object_of(res, *other),
                    };
                    if let (Some(a), Some(c)) = (blocked, &self.combat) {
                        recipients.extend(
                            c.blockers
                                .iter()
                                .filter(|b| b.attacker == a && self.is_on_battlefield(b.id))
                                .map(|b| Target::Object(b.id)),
                        );
                    }
                }
            }
        }
        recipients
    }

    fn target_at(res: &Resolution, slot: u8) -> Option<Target> {
        let i = slot as usize;
        if res.legal.get(i).copied().unwrap_or(false) {
            res.item.targets.get(i).copied()
        } else {
            None
        }
    }

    fn players_of(&self, res: &Resolution, r: PlayerRef) -> Vec<PlayerId> {
        let me = res.item.controller;
        match r {
            PlayerRef::You => vec![me],
            PlayerRef::Target(n) => match Self::target_at(res, n) {
                Some(Target::Player(p)) => vec![p],
                _ => Vec::new(),
            },
            PlayerRef::TargetController(n) => match Self::target_at(res, n) {
                Some(Target::Object(o)) => match self.obj(o) {
                    Some(o) => vec![o.controller],
                    // Gone since (destroyed by an earlier instruction): as it last existed.
                    None => res
                        .target_controllers
                        .get(n as usize)
                        .copied()
                        .flatten()
                        .into_iter()
                        .collect(),
                },
                _ => Vec::new(),
            },
            PlayerRef::EachPlayer => self.apnap(),
            PlayerRef::EachOpponent => self.apnap().into_iter().filter(|p| *p != me).collect(),
            PlayerRef::SubjectPlayer => match res.item.kind {
                StackKind::Trigger {
                    player: Some(p), ..
                } => vec![p],
                _ => Vec::new(),
            },
        }
        .into_iter()
        .filter(|p| self.player(*p).in_game())
        .collect()
    }

    fn object_of(&self, res: &Resolution, r: ObjRef) -> Option<ObjectId> {
        match r {
            ObjRef::Subject => match res.item.kind {
                StackKind::Trigger {
                    subject: Some(s), ..
                } => self.obj(s).map(|o| o.id),
                _ => None,
            },
            ObjRef::This => {
                let src = Self::source_of(&res.item);
                self.obj(src).map(|o| o.id)
            }
            ObjRef::Linked => {
                let src = Self::source_of(&res.item);
                self.links
                    .iter()
                    .filter(|(s, _)| *s == src)
                    .find_map(|(_, o)| self.obj(*o).map(|x| x.id))
            }
            ObjRef::Target(n) => match Self::target_at(res, n)? {
                Target::Object(o) => self.obj(o).map(|o| o.id),
                Target::Player(_) => None,
            },
        }
    }

    /// "<Chooser> may A && B": asks, then (yes) applies the effects, none of which asks
    /// anything more (loading refuses that) except the shield orders asked first.
    fn execute_may(
        &mut self,
        res: &mut Resolution,
        chooser: PlayerId,
        effects: &[Effect],
        text: &str,
    ) -> Progress {
        match res.may {
            None => {
                let name = &self.catalog().get(res.item.card).name;
                return Progress::Ask(Pending {
                    player: chooser,
                    decision: Decision::YesNo {
                        question: format!("{name}: you may {text}. Do you?"),
                    },
                });
            }
            Some(true) => {
                if let Some(p) = self.shield_question_for(res, effects) {
                    return Progress::Ask(p);
                }
                for inner in effects {
                    if let Progress::Ask(p) = self.execute(res, inner) {
                        debug_assert!(false, "a may effect asked {p:?}");
                    }
                }
            }
            Some(false) => {}
        }
        Progress::Done
    }

    /// The first shield-order question the damage among `effects` would need (asked before
    /// effects run that can't stop midway: "you may A && B", "sacrifice it && ...").
    fn shield_question_for(&self, res: &Resolution, effects: &[Effect]) -> Option<Pending> {
        effects.iter().find_map(|e| match e {
            Effect::Damage { amount, to } | Effect::DamageFrom { amount, to, .. } => {
                let n = self.amount(res, amount).max(0) as u32;
                if n == 0 {
                    return None;
                }
                let source = match e {
                    Effect::DamageFrom { source, .. } => match source {
                        ObjRef::Subject => Self::subject_id(res),
                        other => self.object_of(res, *other),
                    }?,
                    _ => Self::source_of(&res.item),
                };
                let recipients = self.recipients_of(res, to);
                self.next_shield_question(recipients.into_iter().map(|t| (source, t, n)), false)
            }
            Effect::IfSpent { color, effect } if res.item.spent.contains(*color) => {
                self.shield_question_for(res, std::slice::from_ref(effect))
            }
            _ => None,
        })
    }

    /// Deals `n` damage from `source` to each recipient, after asking the affected players
    /// to order the shields that apply to it where the order matters (616.1): nothing is
    /// dealt until every such question is answered.
    fn deal_damage_asking(
        &mut self,
        source: ObjectId,
        recipients: Vec<Target>,
        n: u32,
    ) -> Progress {
        let damage: Vec<(Target, u32)> = recipients.into_iter().map(|t| (t, n)).collect();
        self.deal_divided_damage_asking(source, damage)
    }

    /// Deals each recipient its own amount from `source` (divided damage; one event each,
    /// dealt at once), after the questions asked before damage (shield orders, Dralnu).
    fn deal_divided_damage_asking(
        &mut self,
        source: ObjectId,
        damage: Vec<(Target, u32)>,
    ) -> Progress {
        if let Some(p) = self.next_shield_question(
            damage
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(t, n)| (source, *t, *n)),
            false,
        ) {
            return Progress::Ask(p);
        }
        for (t, n) in damage {
            self.deal_damage(source, t, n, false);
        }
        // An order or choice for damage that ended up prevented in full is not kept.
        self.clear_damage_orders();
        Progress::Done
    }

    fn execute(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        if let Some(p) = self.entering_copy_question(res, e) {
            return Progress::Ask(p);
        }
        match e {
            Effect::IfSpent { color, effect } => {
                if res.item.spent.contains(*color) {
                    return self.execute(res, effect);
                }
            }
            Effect::IfCastInMainPhase { then, otherwise } => {
                let main = self.active == me
                    && matches!(self.step, Step::PrecombatMain | Step::PostcombatMain);
                return self.execute(res, if main { then } else { otherwise });
            }
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
            Effect::CastSuspended => {
                let card = Self::source_of(&res.item);
                self.cast_suspended(card);
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
            Effect::Draw { amount, who } => {
                let n = self.amount(res, amount).max(0) as u32;
                for p in self.players_of(res, *who) {
                    self.draw_cards(p, n);
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
                    self.lose_life(p, n);
                }
            }
            Effect::Mill { amount, who } => {
                let n = self.amount(res, amount).max(0);
                for p in self.players_of(res, *who) {
                    for _ in 0..n {
                        if let Some(&top) = self.player(p).library.last() {
                            self.move_object(top, ZoneKind::Graveyard, Position::Top);
                        }
                    }
                }
            }
            Effect::Discard {
                amount,
                who,
                random,
            } => {
                let n = self.amount(res, amount).max(0) as usize;
                let players = self.players_of(res, *who);
                if *random {
                    for p in players {
                        for _ in 0..n {
                            let hand = self.player(p).hand.clone();
                            if hand.is_empty() {
                                break;
                            }
                            let i = self.rng.random_range(0..hand.len());
                            self.discard(p, hand[i]);
                        }
                    }
                } else {
                    // 413.2d: each player chooses in APNAP order; then all discard at once.
                    for p in players {
                        if res.choices.iter().any(|(q, _)| *q == p) {
                            continue;
                        }
                        let hand = &self.player(p).hand;
                        if hand.len() <= n {
                            res.choices.push((p, hand.clone()));
                        } else {
                            return Progress::Ask(Pending {
                                player: p,
                                decision: Decision::Discard { count: n as u32 },
                            });
                        }
                    }
                    for (p, cards) in std::mem::take(&mut res.choices) {
                        for c in cards {
                            self.discard(p, c);
                        }
                    }
                }
            }
            Effect::Sacrifice { who, filter } => {
                for p in self.players_of(res, *who) {
                    if res.choices.iter().any(|(q, _)| *q == p) {
                        continue;
                    }
                    let cands: Vec<ObjectId> = self
                        .battlefield_of(p)
                        .map(|o| o.id)
                        .filter(|id| self.matches_filter(*id, filter, p))
                        .collect();
                    match cands.len() {
                        0 => res.choices.push((p, Vec::new())),
                        1 => res.choices.push((p, cands)),
                        _ => {
                            return Progress::Ask(Pending {
                                player: p,
                                decision: Decision::Sacrifice {
                                    filter: filter.clone(),
                                },
                            });
                        }
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
            Effect::Search {
                filter,
                to,
                tapped,
                then_copy,
            } => {
                if res.choices.is_empty() {
                    return Progress::Ask(Pending {
                        player: me,
                        decision: Decision::Search {
                            filter: filter.clone(),
                        },
                    });
                }
                let found = std::mem::take(&mut res.choices);
                let mut moved = Vec::new();
                for (_, objs) in found {
                    for o in objs {
                        let new = match to {
                            ZoneKind::Battlefield => self.put_onto_battlefield(o, me, *tapped),
                            _ => self.move_object(o, *to, Position::Top),
                        };
                        moved.extend(new);
                    }
                }
                // Scion of the Ur-Dragon: "If you do, ~ becomes a copy of that card until end
                // of turn" (the card's own values: it is not a copy of anything).
                if *then_copy
                    && let [card] = moved.as_slice()
                    && self.is_on_battlefield(source)
                {
                    let values = crate::copy::CopiableValues {
                        card: self.objects[card.slot()].card,
                        shapeshifter_trigger: false,
                    };
                    self.set_copy(source, Some((values, crate::copy::CopyUntil::EndOfTurn)));
                }
                self.shuffle_library(me);
            }
            Effect::PutCounterEach { kind, filter } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                for o in all {
                    self.add_counters(o, kind.clone(), 1);
                }
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
                    Some(true) if self.pay_automatically(me, &payable) => {
                        for e in effects {
                            if let Progress::Ask(p) = self.execute(res, e) {
                                debug_assert!(false, "a may_pay effect asked {p:?}");
                            }
                        }
                    }
                    // Declined, or can't pay: nothing happens.
                    _ => {}
                }
            }
            Effect::SacrificeUnlessPays { cost } => {
                // "Sacrifice it": only if it is still the same permanent and still its
                // controller's (R-vesuvan-shapeshifter-8: face down, it is the same one).
                let this = source;
                let mine = self
                    .obj(this)
                    .is_some_and(|o| o.zone == ZoneKind::Battlefield && o.controller == me);
                if !mine {
                    return Progress::Done;
                }
                let payable = cost.to_payable(0);
                match res.may {
                    None if self.can_pay_now(me, &payable) => {
                        let name = self.seen_name(this, Some(me));
                        return Self::ask_yes_no(
                            me,
                            format!("pay {cost}, or sacrifice {name}? Pay?"),
                        );
                    }
                    Some(true) if self.pay_automatically(me, &payable) => {}
                    _ => {
                        self.sacrifice(this);
                    }
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
                let cost = crate::mana::ManaCost::generic(*generic).to_payable(0);
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
            Effect::May { effects, text } => return self.execute_may(res, me, effects, text),
            other => self.apply_simple_effect(res, other),
        }
        Progress::Done
    }

    /// Effects that need no choice.
    fn apply_simple_effect(&mut self, res: &Resolution, e: &Effect) {
        let me = res.item.controller;
        let source = Self::source_of(&res.item);
        match e {
            Effect::Destroy { what, regen } => {
                if let Some(o) = self.object_of(res, *what) {
                    self.destroy_with(o, *regen);
                }
            }
            Effect::DestroyAll { filter, regen } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                // All at once (the regeneration shields are checked one by one, which is the
                // same thing: each replaces only its own creature's destruction).
                self.begin_batch(&all);
                for o in all {
                    self.destroy_with(o, *regen);
                }
                self.end_batch();
            }
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
            Effect::LivingEnd => {
                let mut exiled = Vec::new();
                for p in self.apnap() {
                    let cards: Vec<ObjectId> = self
                        .player(p)
                        .graveyard
                        .iter()
                        .copied()
                        .filter(|c| self.has_type(*c, CardType::Creature))
                        .collect();
                    for c in cards {
                        exiled.extend(self.move_object(c, ZoneKind::Exile, Position::Top));
                    }
                }
                let creatures: Vec<ObjectId> = self
                    .battlefield
                    .iter()
                    .copied()
                    .filter(|o| self.is_creature(*o))
                    .collect();
                self.begin_batch(&creatures);
                for o in creatures {
                    self.sacrifice(o);
                }
                self.end_batch();
                let back: Vec<(ObjectId, PlayerId)> = exiled
                    .into_iter()
                    .filter(|o| self.obj(*o).is_some_and(|x| x.zone == ZoneKind::Exile))
                    .map(|o| (o, self.objects[o.slot()].owner))
                    .collect();
                self.put_onto_battlefield_together(&back);
            }
            Effect::TurnFaceDown(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.turn_face_down(o);
                }
            }
            Effect::Exile(r) => {
                // From the battlefield, or a card in a graveyard: the card a dies trigger is
                // about (Cyclopean Giant: only if it is still that object there) or a targeted
                // card (Withered Wretch).
                if let Some(o) = self.object_of(res, *r)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Battlefield | ZoneKind::Graveyard)
                    )
                {
                    self.move_object(o, ZoneKind::Exile, Position::Top);
                }
            }
            Effect::SkipNext { what, who } => {
                for p in self.players_of(res, *who) {
                    self.skips.push((p, *what));
                }
            }
            Effect::ReturnAtNextEndStep(r) => {
                // The card in the graveyard (or exile): if it is still there then, it returns.
                if let Some(o) = self.object_of(res, *r)
                    && self
                        .obj(o)
                        .is_some_and(|x| matches!(x.zone, ZoneKind::Graveyard | ZoneKind::Exile))
                {
                    let card = self.objects[o.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::NextEndStep,
                        source: o,
                        card,
                        controller: me,
                        subject: Some(o),
                    });
                }
            }
            Effect::ChangeText { what, from, to } => self.char_effect_on(
                res,
                *what,
                CharChange::ChangeText {
                    from: *from,
                    to: *to,
                },
                Duration::Indefinite,
            ),
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
            Effect::PreventAll(scope) => self.add_shield(Shield::PreventAll(*scope)),
            Effect::CantRegenerate(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self.is_creature(o)
                {
                    self.add_shield(Shield::CantRegenerate(o));
                }
            }
            Effect::ExileIfDies(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self.is_creature(o)
                {
                    self.add_shield(Shield::ExileIfDies(o));
                }
            }
            Effect::Counter(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && let Some(item) = self.stack.iter().find(|s| s.object() == Some(o)).cloned()
                {
                    self.counter_item(&item, false);
                }
            }
            Effect::Tap(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.tap(o);
                }
            }
            Effect::Untap(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.untap(o);
                }
            }
            Effect::TurnFaceUp(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    let copy = self.take_copy_choice(o);
                    self.turn_face_up_as(o, copy);
                }
            }
            Effect::Pump {
                what,
                power,
                toughness,
            } => self.pt_effect_on(res, *what, PtChange::Modify(*power, *toughness)),
            Effect::Grant {
                what,
                keyword,
                until,
            } => {
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    self.add_keyword_effect(source, me, vec![o], *keyword, *until);
                }
            }
            Effect::PumpCount {
                what,
                amount,
                power,
                toughness,
            } => {
                // 502.12b: counted once, as the ability resolves; the result is locked in.
                let n = self.amount(res, amount).max(0);
                if n > 0 {
                    self.pt_effect_on(res, *what, PtChange::Modify(power * n, toughness * n));
                }
            }
            Effect::GrantAll {
                filter,
                keyword,
                until,
            } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                self.add_keyword_effect(source, me, all, *keyword, *until);
            }
            Effect::PumpAllCount {
                filter,
                amount,
                power,
                toughness,
            } => {
                let n = self.amount(res, amount).max(0);
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                if n > 0 {
                    for o in all {
                        self.add_pt_effect(o, PtChange::Modify(power * n, toughness * n));
                    }
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
            Effect::DiscardHandDrawThatMany { who } => {
                for p in self.players_of(res, *who) {
                    let hand = self.player(p).hand.clone();
                    let n = hand.len() as u32;
                    for c in hand {
                        self.discard(p, c);
                    }
                    self.draw_cards(p, n);
                }
            }
            Effect::PumpAll {
                filter,
                power,
                toughness,
            } => {
                let all: Vec<ObjectId> = self.permanents_matching(filter, me);
                for o in all {
                    self.add_pt_effect(o, PtChange::Modify(*power, *toughness));
                }
            }
            Effect::CreateToken { token, count, who } => {
                let n = self.amount(res, count).max(0);
                if let Some(def) = self.catalog().by_name(token) {
                    for p in self.players_of(res, *who) {
                        for _ in 0..n {
                            self.create_token(def.id, p);
                        }
                    }
                }
            }
            Effect::SetPt {
                what,
                power,
                toughness,
            } => self.pt_effect_on(res, *what, PtChange::Set(*power, *toughness)),
            Effect::SwitchPt(what) => self.pt_effect_on(res, *what, PtChange::Switch),
            Effect::SacrificeThis { unless_counters } => {
                if let Some(o) = self.object_of(res, ObjRef::This) {
                    let keep = unless_counters
                        .as_ref()
                        .is_some_and(|k| self.obj(o).is_some_and(|x| x.counters.get(k) > 0));
                    if !keep {
                        self.sacrifice(o);
                    }
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
            Effect::CoalitionVictory => {
                let lands = ["Plains", "Island", "Swamp", "Mountain", "Forest"];
                let mine: Vec<ObjectId> = self.battlefield_of(me).map(|o| o.id).collect();
                let has_land = |sub: &str| {
                    mine.iter()
                        .any(|id| self.has_type(*id, CardType::Land) && self.has_subtype(*id, sub))
                };
                let has_color = |c| {
                    mine.iter()
                        .any(|id| self.is_creature(*id) && self.colors(*id).contains(c))
                };
                if lands.iter().all(|l| has_land(l))
                    && crate::mana::Color::ALL.into_iter().all(has_color)
                {
                    self.win_game(me);
                }
            }
            Effect::ReturnToHand(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.move_object(o, ZoneKind::Hand, Position::Top);
                }
            }
            Effect::BecomeCreatureType { what, types } => self.char_effect_on(
                res,
                *what,
                CharChange::SetCreatureTypes(types.clone()),
                Duration::EndOfTurn,
            ),
            Effect::LoseAllAbilities { filter, who, base } => {
                let players = self.players_of(res, *who);
                let all: Vec<ObjectId> = self
                    .battlefield
                    .iter()
                    .copied()
                    .filter(|id| {
                        self.obj(*id)
                            .is_some_and(|o| players.contains(&o.controller))
                            && self.matches_filter(*id, filter, me)
                    })
                    .collect();
                let source = Self::source_of(&res.item);
                self.add_char_effect(
                    source,
                    me,
                    all.clone(),
                    CharChange::LoseAllAbilities,
                    Duration::EndOfTurn,
                );
                if let Some((p, t)) = base {
                    for o in all {
                        self.add_pt_effect(o, PtChange::Set(*p, *t));
                    }
                }
            }
            Effect::BecomeLandType {
                what,
                types,
                until_source_leaves,
            } => {
                let source = Self::source_of(&res.item);
                // "Until ~ leaves the battlefield": if it already has, the effect does
                // nothing (611.2b style: a duration that has already ended).
                let duration = if *until_source_leaves {
                    Duration::WhileSourceOnBattlefield
                } else {
                    Duration::EndOfTurn
                };
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                    && (!*until_source_leaves || self.is_on_battlefield(source))
                {
                    self.add_char_effect(
                        source,
                        me,
                        vec![o],
                        CharChange::SetLandTypes(types.clone()),
                        duration,
                    );
                }
            }
            Effect::BecomeColor { what, colors } => self.char_effect_on(
                res,
                *what,
                CharChange::SetColors(*colors),
                Duration::EndOfTurn,
            ),
            Effect::WinGame => self.win_game(me),
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
            Effect::BecomeCreature {
                what,
                power,
                toughness,
                colors,
                subtypes,
                keywords,
            } => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *what)
                    && self.is_on_battlefield(o)
                {
                    for change in [
                        CharChange::BecomeCreature(subtypes.clone()),
                        CharChange::SetColors(*colors),
                        CharChange::AddKeywords(crate::layers::KeywordSet::of(keywords)),
                    ] {
                        self.add_char_effect(source, me, vec![o], change, Duration::EndOfTurn);
                    }
                    self.add_pt_effect(o, PtChange::Set(*power, *toughness));
                }
            }
            Effect::GainControlUntilEndOfTurn(r) => {
                self.char_effect_on(res, *r, CharChange::Control(me), Duration::EndOfTurn)
            }
            Effect::GainControlWhileYouControlThis(r) => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && self
                        .obj(source)
                        .is_some_and(|s| s.zone == ZoneKind::Battlefield && s.controller == me)
                {
                    self.add_char_effect(
                        source,
                        me,
                        vec![o],
                        CharChange::Control(me),
                        Duration::WhileYouControlSource,
                    );
                    self.links.push((source, o));
                }
            }
            Effect::ExileLinked(r) => {
                let source = Self::source_of(&res.item);
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(new) = self.move_object(o, ZoneKind::Exile, Position::Top)
                {
                    self.links.push((source, new));
                }
            }
            Effect::ReturnLinkedToBattlefield => {
                let source = Self::source_of(&res.item);
                let linked: Vec<ObjectId> = self
                    .links
                    .iter()
                    .filter(|(s, _)| *s == source)
                    .map(|(_, o)| *o)
                    .collect();
                self.links.retain(|(s, _)| *s != source);
                for o in linked {
                    if self.obj(o).is_some_and(|x| x.zone == ZoneKind::Exile) {
                        let owner = self.objects[o.slot()].owner;
                        self.put_onto_battlefield(o, owner, false);
                    }
                }
            }
            Effect::ExileUntilNextEndStep(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(new) = self.move_object(o, ZoneKind::Exile, Position::Top)
                {
                    let card = self.objects[new.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::NextEndStep,
                        source: new,
                        card,
                        controller: me,
                        subject: Some(new),
                    });
                }
            }
            Effect::ReturnIfDiesThisTurn(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                {
                    let card = self.objects[o.slot()].card;
                    self.has_triggers = true;
                    self.delayed.push(crate::triggers::DelayedTrigger {
                        when: crate::triggers::DelayedWhen::PutIntoYourGraveyardThisTurn(o),
                        source: Self::source_of(&res.item),
                        card,
                        controller: me,
                        subject: None,
                    });
                }
            }
            Effect::GrantFlashback(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.obj(o).is_some_and(|x| x.zone == ZoneKind::Graveyard)
                    && !self.granted_flashback.contains(&o)
                {
                    self.granted_flashback.push(o);
                }
            }
            Effect::ExileAndReturn(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && self.is_on_battlefield(o)
                    && let Some(exiled) = self.move_object(o, ZoneKind::Exile, Position::Top)
                    && self.obj(exiled).is_some_and(|x| x.zone == ZoneKind::Exile)
                {
                    // Its copy choice was asked before it left; it returns as that card.
                    for (c, _) in &mut self.copy_chosen {
                        if *c == o {
                            *c = exiled;
                        }
                    }
                    let owner = self.objects[exiled.slot()].owner;
                    self.put_onto_battlefield(exiled, owner, false);
                }
            }
            Effect::ReturnToBattlefield(r) => {
                if let Some(o) = self.object_of(res, *r)
                    && matches!(
                        self.obj(o).map(|x| x.zone),
                        Some(ZoneKind::Exile | ZoneKind::Graveyard)
                    )
                {
                    let owner = self.objects[o.slot()].owner;
                    self.put_onto_battlefield(o, owner, false);
                }
            }
            Effect::ExileAll(f) => {
                let all: Vec<ObjectId> = self.permanents_matching(f, me);
                self.begin_batch(&all);
                for o in all {
                    self.move_object(o, ZoneKind::Exile, Position::Top);
                }
                self.end_batch();
            }
            Effect::PutOnTop(r) => {
                if let Some(o) = self.object_of(res, *r) {
                    self.move_object(o, ZoneKind::Library, Position::Top);
                }
            }
            Effect::DrawRevealDiscardNonland => {
                for card in self.draw_cards(me, 1) {
                    self.emit(Event::Revealed { player: me, card });
                    if !self.has_type(card, CardType::Land) {
                        self.discard(me, card);
                    }
                }
            }
            // Effects with choices are handled in `execute`.
            Effect::Damage { .. }
            | Effect::Draw { .. }
            | Effect::Discard { .. }
            | Effect::GainLife { .. }
            | Effect::LoseLife { .. }
            | Effect::Mill { .. }
            | Effect::Sacrifice { .. }
            | Effect::SpittingSlug
            | Effect::Search { .. }
            | Effect::May { .. }
            | Effect::CounterUnlessPays { .. }
            | Effect::MayPay { .. }
            | Effect::SacrificeUnlessPays { .. }
            | Effect::IfSpent { .. }
            | Effect::IfCastInMainPhase { .. }
            | Effect::DamageDivided
            | Effect::PutCounterEach { .. }
            | Effect::PutCounters { .. }
            | Effect::RemoveCounters { .. }
            | Effect::CastSuspended
            | Effect::DamageFrom { .. }
            | Effect::SacrificeThen { .. }
            | Effect::ItsControllerMay { .. } => {}
        }
    }

    /// A continuous effect of the resolving spell or ability, locked to the object `what`
    /// names (418.3b), if it is on the battlefield.
    fn char_effect_on(
        &mut self,
        res: &Resolution,
        what: ObjRef,
        change: CharChange,
        until: Duration,
    ) {
        if let Some(o) = self.object_of(res, what)
            && self.is_on_battlefield(o)
        {
            let source = Self::source_of(&res.item);
            self.add_char_effect(source, res.item.controller, vec![o], change, until);
        }
    }

    /// A P/T effect until end of turn on the object `r` names, if it is on the battlefield.
    fn pt_effect_on(&mut self, res: &Resolution, r: ObjRef, change: PtChange) {
        if let Some(o) = self.object_of(res, r)
            && self.is_on_battlefield(o)
        {
            self.add_pt_effect(o, change);
        }
    }

    fn add_pt_effect(&mut self, object: ObjectId, change: PtChange) {
        let timestamp = self.new_timestamp();
        self.pt_effects.push(PtEffect {
            object,
            change,
            timestamp,
        });
    }

    /// A mana ability's extra effects happen at once, without the stack (406.4).
    pub(crate) fn apply_immediate_effect(
        &mut self,
        controller: PlayerId,
        source: ObjectId,
        e: &Effect,
    ) {
        let card = self.objects[source.slot()].card;
        let item = StackItem {
            kind: StackKind::Ability { source, index: 0 },
            controller,
            card,
            targets: Vec::new(),
            x: 0,
            mode: None,
            spent: crate::mana::ColorSet::NONE,
            division: Vec::new(),
        };
        let mut res = Resolution::new(item, Vec::new());
        if let Progress::Ask(_) = self.execute(&mut res, e) {
            // Card loading rejects mana abilities whose effects need choices.
            debug_assert!(false, "mana ability effect needed a choice");
        }
    }

    /// The permanents matching `f` for a spell or ability controlled by `me`, in timestamp
    /// order.
    pub(crate) fn permanents_matching(&self, f: &ObjectFilter, me: PlayerId) -> Vec<ObjectId> {
        self.battlefield
            .iter()
            .copied()
            .filter(|id| self.matches_filter(*id, f, me))
            .collect()
    }

    pub(crate) fn answer_yes_no(
        &mut self,
        _player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let yes = match answer {
            Answer::Yes => true,
            Answer::No => false,
            other => {
                return Err(RuleError::WrongKind {
                    expected: format!("yes or no, not {}", other.kind_name()),
                });
            }
        };
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        res.may = Some(yes);
        self.pending = None;
        self.run_resolution();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        Ok(())
    }

    pub(crate) fn answer_creature_type(
        &mut self,
        _player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::CreatureType(name) = answer else {
            return Err(RuleError::WrongKind {
                expected: "a creature type".into(),
            });
        };
        let Some(t) = self.catalog().creature_type(&name) else {
            let some: Vec<&str> = self
                .catalog()
                .creature_types()
                .iter()
                .take(5)
                .map(String::as_str)
                .collect();
            return Err(RuleError::illegal(format!(
                "`{name}` is not a creature type (for example {})",
                some.join(", ")
            )));
        };
        let Some(StackKind::Spell(card)) = self.resolution.as_ref().map(|r| r.item.kind) else {
            return Err(RuleError::illegal("nothing is entering the battlefield"));
        };
        let t = t.to_string();
        self.pending = None;
        if let Some(o) = self.obj_mut(card) {
            o.chosen_type = Some(t.clone());
        }
        self.emit(Event::Chose {
            object: card,
            choice: t,
        });
        self.run_resolution();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        Ok(())
    }

    // ----- choices asked during resolution (and cleanup) -----------------------------------

    fn choice_candidates(&self, player: PlayerId, d: &Decision) -> Vec<ObjectId> {
        match d {
            Decision::Discard { .. } => self.player(player).hand.clone(),
            Decision::Sacrifice { filter } => self
                .battlefield_of(player)
                .map(|o| o.id)
                .filter(|id| self.matches_filter(*id, filter, player))
                .collect(),
            Decision::Search { filter } => self
                .player(player)
                .library
                .iter()
                .copied()
                .filter(|id| self.card_matches(*id, filter))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn check_choice(
        &self,
        player: PlayerId,
        d: &Decision,
        objs: &[ObjectId],
    ) -> Result<(), RuleError> {
        let cands = self.choice_candidates(player, d);
        let (min, max) = match d {
            Decision::Discard { count } => (*count as usize, *count as usize),
            Decision::Sacrifice { .. } => (1, 1),
            Decision::Search { .. } => (0, 1),
            _ => (0, 0),
        };
        if objs.len() < min || objs.len() > max {
            return Err(RuleError::illegal(if min == max {
                format!("choose exactly {min}")
            } else {
                format!("choose {min} to {max}")
            }));
        }
        for (i, o) in objs.iter().enumerate() {
            if !cands.contains(o) {
                return Err(RuleError::illegal(format!(
                    "{} can't be chosen for this",
                    self.card_name(*o)
                )));
            }
            if objs[..i].contains(o) {
                return Err(RuleError::illegal("the same card was chosen twice"));
            }
        }
        Ok(())
    }

    pub(crate) fn answer_resolution_choice(
        &mut self,
        player: PlayerId,
        d: &Decision,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Objects(objs) = answer else {
            return Err(RuleError::WrongKind {
                expected: d.describe(),
            });
        };
        self.check_choice(player, d, &objs)?;
        self.pending = None;
        if self.resolution.is_none() && self.step == Step::Cleanup {
            // 314.1: discard to hand size.
            for o in objs {
                self.discard(player, o);
            }
            if self.finish_cleanup() == StepFlow::Continue {
                self.step_over();
            }
            return Ok(());
        }
        if let Some(res) = &mut self.resolution {
            res.choices.push((player, objs));
        }
        self.run_resolution();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        Ok(())
    }

    /// An optional payment asked while an ability resolves (Spitting Slug): `AutoPay` pays
    /// it with the payment solver, `Cancel` declines.
    pub(crate) fn answer_optional_payment(
        &mut self,
        player: PlayerId,
        d: &Decision,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Decision::PayMana { cost } = d else {
            return Err(RuleError::illegal("no payment is asked"));
        };
        let paid = match answer {
            Answer::AutoPay => {
                self.pay_mana_now(player, cost)
                    .map_err(RuleError::Illegal)?;
                true
            }
            Answer::Cancel => false,
            other => {
                return Err(RuleError::WrongKind {
                    expected: format!(
                        "pay {cost} (autopay) or decline (cancel), not {}",
                        other.kind_name()
                    ),
                });
            }
        };
        self.pending = None;
        if let Some(res) = &mut self.resolution {
            res.paid = Some(paid);
        }
        self.run_resolution();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
        Ok(())
    }

    pub(crate) fn optional_payment_answers(&self, player: PlayerId, d: &Decision) -> Vec<Answer> {
        let mut out = Vec::new();
        if let Decision::PayMana { cost } = d
            && self.plan_payment_now(player, cost).is_some()
        {
            out.push(Answer::AutoPay);
        }
        out.push(Answer::Cancel);
        out
    }

    pub(crate) fn resolution_choice_answers(&self, player: PlayerId, d: &Decision) -> Vec<Answer> {
        let cands = self.choice_candidates(player, d);
        let mut out: Vec<Answer> = match d {
            Decision::Discard { count } if *count > 1 => {
                // One answer per card for the first pick would not be a full answer; list the
                // first `count` cards and each single-card swap of the last slot.
                let n = *count as usize;
                let mut v = Vec::new();
                for extra in n - 1..cands.len() {
                    let mut pick: Vec<ObjectId> = cands[..n - 1].to_vec();
                    pick.push(cands[extra]);
                    v.push(Answer::Objects(pick));
                }
                v
            }
            Decision::Search { .. } => {
                let mut v = vec![Answer::Objects(Vec::new())];
                v.extend(cands.into_iter().map(|c| Answer::Objects(vec![c])));
                v
            }
            _ => cands
                .into_iter()
                .map(|c| Answer::Objects(vec![c]))
                .collect(),
        };
        out.retain(|a| matches!(a, Answer::Objects(o) if self.check_choice(player, d, o).is_ok()));
        out
    }

    /// Whether a card in a hidden or public zone matches a filter by its printed
    /// characteristics (used for library searches).
    pub(crate) fn card_matches(&self, id: ObjectId, f: &ObjectFilter) -> bool {
        let Some(def) = self.def(id) else {
            return false;
        };
        (f.types_any.is_empty() || f.types_any.iter().any(|t| def.has_type(*t)))
            && !f.types_none.iter().any(|t| def.has_type(*t))
            && (!f.basic || def.supertypes.contains(&crate::types::Supertype::Basic))
            && f.subtype
                .as_ref()
                .is_none_or(|s| def.subtypes.iter().any(|x| x == s))
    }
}

/// Spitting Slug's optional cost, {1}{G}.
fn spitting_slug_cost() -> crate::mana::PayableCost {
    let mut colored = [0; 5];
    colored[crate::mana::Color::G as usize] = 1;
    crate::mana::PayableCost {
        colored,
        generic: 1,
        ..Default::default()
    }
}
