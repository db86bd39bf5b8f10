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
use crate::types::CardType;
use crate::zones::{Position, ZoneKind};
use rand::RngExt;
use serde::{Deserialize, Serialize};

// The effects, one family a module: each resolves the effects of one kind of rule.
mod choices;
mod continuous;
mod control;
mod counters;
mod damage;
mod from_hand;
mod library;
mod naming;
mod piles;
mod zones;

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
    /// The current effect's choice among options asked as it resolves (`ChooseMode`:
    /// Clockspinning's counter and whether to remove or add it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<u8>,
    /// The current effect's draws still to make, in order (`keywords/dredge.rs`: each may
    /// wait for a dredge question); `Some(empty)` once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draws: Option<Vec<(PlayerId, u32)>>,
    /// The answer to the open dredge question: the card dredged, or none (a draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dredged: Option<Vec<ObjectId>>,
    /// The cards the current effect's draws drew so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<ObjectId>,
    /// The life its effects made players lose so far ("the life lost this way").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub life_lost: u32,
    /// The card name the current effect's controller chose (`Decision::NameCard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named: Option<String>,
    /// What the Aura the current effect puts onto the battlefield will enchant
    /// (`Decision::EnchantAsItEnters`, `resolve/from_hand.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enchant: Option<Target>,
    /// The revealed cards' piles as they are made and chosen (`resolve/piles.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piles: Option<piles::Piles>,
    /// The number the current effect's controller chose as it resolves (`Decision::ChooseX`:
    /// Volcano Hellion's amount of damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// How many of the current effect's inner effects are done ("you may pay {1}{B}. If you
    /// do, ..."), when one of them waits for a question (an Aquamorph Entity returned to
    /// the battlefield: 5/1 or 1/5?).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub inner_done: u8,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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
            option: None,
            draws: None,
            dredged: None,
            drawn: Vec::new(),
            life_lost: 0,
            named: None,
            enchant: None,
            piles: None,
            number: None,
            inner_done: 0,
        }
    }
}

/// What executing one effect did. (A `Pending` is asked at most once per effect and moved
/// out at once: boxing it would buy nothing; Scry's `top_only` took it past the lint's size.)
#[allow(clippy::large_enum_variant)]
pub(crate) enum Progress {
    Done,
    /// A player must choose; the resolution waits.
    Ask(Pending),
}

impl Game {
    /// After a choice made mid-resolution: runs the resolution on, then gives the active
    /// player priority if it finished and nothing else waits (the game goes on).
    pub(crate) fn resume_resolution(&mut self) {
        self.run_resolution();
        if self.pending.is_none() && self.result.is_none() {
            self.give_priority(self.active);
        }
    }

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
                // "As ~ enters the battlefield, choose a color / an opponent / ..."
                // (`as_enters.rs`).
                if self.result.is_none()
                    && let StackKind::Spell(card) = res.item.kind
                    && let Some(p) = self.spell_enter_choice(card, &mut res)
                {
                    self.pending = Some(p);
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
                // Storm, Reiterate: each copy made may get new targets.
                if self.pending.is_none() {
                    self.start_next_retarget();
                }
                return;
            }
            let effect = effects[res.effect].clone();
            self.executing_for = Some(res.item.controller);
            let progress = self.execute(&mut res, &effect);
            self.executing_for = None;
            match progress {
                Progress::Done => {
                    res.effect += 1;
                    res.choices.clear();
                    res.paid = None;
                    res.inner_done = 0;
                    res.may = None;
                    res.option = None;
                    res.named = None;
                    res.enchant = None;
                    res.piles = None;
                    res.number = None;
                    res.draws = None;
                    res.dredged = None;
                    res.drawn.clear();
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
                // An Aura spell enters attached to the permanent (or, "enchant player", the
                // player) it targeted (303.4f).
                if (def.enchant.is_some() || def.enchant_player)
                    && let (Some(aura), Some(t)) = (new, item.targets.first())
                {
                    self.attach_entering_aura(aura, *t);
                }
            } else if self.buyback_destination(card, item.controller) == ZoneKind::Hand {
                // Buyback (502.16a / 702.26a): its owner's hand instead.
                self.move_object(card, ZoneKind::Hand, Position::Top);
            } else {
                self.spell_to_graveyard(card);
            }
        }
        self.copy_chosen.clear();
        self.enter_choices.clear();
        self.emit(Event::Resolved {
            card: item.card,
            controller: item.controller,
        });
    }

    /// A "you may" question or an optional payment, asked as the resolution goes on.
    pub(crate) fn ask_yes_no(player: PlayerId, question: String) -> Progress {
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
        let entering = self.entering_objects(res, e);
        let (object, player) = entering
            .into_iter()
            .find(|(o, _)| self.copy_choice_due(*o).is_some())?;
        Some(self.ask_copy(object, player, CopyMoment::Entering))
    }

    /// The "as it enters" questions (a copy choice, then a choice of color, opponent...) of
    /// the cards effect `e` is about to put onto the battlefield, asked before it runs.
    fn entering_question(&mut self, res: &mut Resolution, e: &Effect) -> Option<Pending> {
        self.entering_copy_question(res, e)
            .or_else(|| self.entering_choice_question(res, e))
    }

    /// The cards a resolving effect is about to put onto the battlefield from another zone,
    /// each with the player it will enter under (asked their "as it enters" choices first).
    pub(crate) fn entering_objects(
        &self,
        res: &Resolution,
        e: &Effect,
    ) -> Vec<(ObjectId, PlayerId)> {
        match e {
            Effect::ReturnToBattlefield(r) | Effect::ReturnToBattlefieldTapped(r) => self
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
                under,
                ..
            } => {
                let controller = self.search_controller(res, *under);
                res.choices
                    .iter()
                    .flat_map(|(_, objs)| objs.iter().map(move |o| (*o, controller)))
                    .collect()
            }
            Effect::PutFromHand { .. } | Effect::PutFromHandInTurn(_) => {
                self.chosen_from_hand(res).into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    pub(crate) fn source_of(item: &StackItem) -> ObjectId {
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
            Amount::LifeYouLostThisTurn => {
                self.player(res.item.controller).life_lost_this_turn as i32
            }
            Amount::LifeLostThisWay => res.life_lost as i32,
            Amount::TwiceX => 2 * res.item.x as i32,
            Amount::MinusThatPlayersHand(n) => self
                .players_of(res, PlayerRef::SubjectPlayer)
                .first()
                .map_or(0, |p| n - self.player(*p).hand.len() as i32),
            Amount::CreaturesYouControl => self
                .battlefield_of(res.item.controller)
                .filter(|o| self.is_creature(o.id))
                .count() as i32,
            Amount::PerCreatureTargetPlayerControls(each) => match Self::target_at(res, 0) {
                Some(Target::Player(p)) => {
                    each * self
                        .battlefield_of(p)
                        .filter(|o| self.is_creature(o.id))
                        .count() as i32
                }
                _ => 0,
            },
            Amount::YouControlSubtype(t) => self
                .battlefield_of(res.item.controller)
                .filter(|o| self.has_subtype(o.id, t))
                .count() as i32,
            Amount::LandsYouControl => self
                .battlefield_of(res.item.controller)
                .filter(|o| self.has_type(o.id, CardType::Land))
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
            Amount::BlockersOfIt => {
                let subject = self.object_of(res, ObjRef::Subject);
                self.combat.as_ref().map_or(0, |c| {
                    c.blockers
                        .iter()
                        .filter(|b| Some(b.attacker) == subject)
                        .count() as i32
                })
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
            Amount::SourcePower => match res.item.kind {
                StackKind::Ability { source, .. } if self.is_on_battlefield(source) => {
                    self.power(source)
                }
                _ => 0,
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
            Amount::TargetPower(slot) => match Self::target_at(res, *slot) {
                Some(Target::Object(o)) if self.is_on_battlefield(o) => self.power(o),
                _ => res
                    .target_pts
                    .get(*slot as usize)
                    .copied()
                    .flatten()
                    .map_or(0, |(p, _)| p),
            },
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
                Recipient::Object(r) => recipients.extend(
                    self.object_of(res, *r)
                        .filter(|o| self.is_on_battlefield(*o))
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
            PlayerRef::ChosenPlayer => {
                match self.obj(Self::source_of(&res.item)).and_then(|o| o.chosen) {
                    Some(crate::object::Chosen::Player(p)) => vec![p],
                    _ => Vec::new(),
                }
            }
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

    pub(crate) fn object_of(&self, res: &Resolution, r: ObjRef) -> Option<ObjectId> {
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
                Target::Player(_) | Target::Ability(_) => None,
            },
            ObjRef::Enchanted => {
                let src = Self::source_of(&res.item);
                let host = match self.obj(src) {
                    Some(o) if self.is_on_battlefield(o.id) => o.attached_to,
                    _ => self
                        .lki_attached
                        .iter()
                        .find(|(a, _)| *a == src)
                        .map(|(_, h)| *h),
                };
                host.and_then(|h| self.obj(h)).map(|o| o.id)
            }
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
                        // Only a lone scry or fateseal asks (loading refuses others); it
                        // runs again with the answer, the "may" staying answered.
                        debug_assert!(
                            effects.len() == 1
                                && matches!(
                                    inner,
                                    Effect::Scry(_) | Effect::Fateseal(_) | Effect::Search { .. }
                                ),
                            "a may effect asked {p:?}"
                        );
                        return Progress::Ask(p);
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
        if let Some(p) = self.entering_question(res, e) {
            return Progress::Ask(p);
        }
        match e {
            Effect::IfSpent { .. }
            | Effect::IfCastInMainPhase { .. }
            | Effect::IfKicked { .. }
            | Effect::IfYouControlAtMost { .. }
            | Effect::IfActivatedThisTurn { .. } => return self.execute_conditions(res, e),
            Effect::CastSuspended => {
                let card = Self::source_of(&res.item);
                self.cast_suspended(card);
            }
            Effect::StormCopies => {
                if let StackKind::Trigger { source, .. } = res.item.kind {
                    self.storm_copies(source, res.item.x);
                }
            }
            Effect::CopySpell(r) => {
                if let Some(spell) = self.object_of(res, *r) {
                    self.copy_spell_for(spell, res.item.controller);
                }
            }
            Effect::PactUpkeep(_) => {
                let source = Self::source_of(&res.item);
                self.create_pact(source, res.item.card, me);
            }
            Effect::GainControlOfSpell(r) => {
                if let Some(spell) = self.object_of(res, *r) {
                    self.gain_control_of_spell(spell, res.item.controller);
                }
            }
            Effect::CastMadness => {
                if let Some(p) = self.madness_trigger_resolves(res) {
                    return Progress::Ask(p);
                }
            }
            Effect::May { effects, text } => return self.execute_may(res, me, effects, text),
            Effect::Damage { .. }
            | Effect::DamageDivided
            | Effect::DamageFrom { .. }
            | Effect::GainLife { .. }
            | Effect::LoseLife { .. }
            | Effect::Poison { .. } => return self.execute_damage(res, e),
            Effect::PreventNextFromChosenSource { to, reflect_red } => {
                return self.prevent_from_chosen_source(res, *to, *reflect_red);
            }
            Effect::Draw { .. }
            | Effect::Mill { .. }
            | Effect::Discard { .. }
            | Effect::DiscardHandDrawThatMany { .. }
            | Effect::DrawRevealDiscardNonland
            | Effect::SearchReveal(..)
            | Effect::SearchSameManaValue { .. }
            | Effect::Scry(_)
            | Effect::Fateseal(_)
            | Effect::ReorderTop(_)
            | Effect::RevealForX(..)
            | Effect::RevealChroma(..)
            | Effect::RevealRandomDamage(_)
            | Effect::RevealTop(_)
            | Effect::RevealTopNamesakeToGraveyardElseDraw
            | Effect::ChooseRevealedToBottom(_)
            | Effect::SearchExilePlayable { .. }
            | Effect::Search { .. } => return self.execute_library(res, e),
            Effect::NameCardRevealRandom { who, then, discard } => {
                return self.name_card_reveal_random(res, *who, then, *discard);
            }
            Effect::PutCounters { .. }
            | Effect::PutCounterEach { .. }
            | Effect::MoveCounter { .. }
            | Effect::RemoveAllCounters { .. }
            | Effect::RemoveOrAddCounter { .. }
            | Effect::RemoveCounters { .. } => return self.execute_counters(res, e),
            Effect::MayTapOrUntap(what) => return self.execute_may_tap_or_untap(res, *what),
            Effect::RevealTopPiles(n) => return self.execute_piles(res, n),
            Effect::SearchZonesForSameNameAsIt => return self.search_zones_for_same_name(res),
            Effect::ReturnExiledCardNamed(name) => {
                return self.return_exiled_card_named(res, name);
            }
            Effect::SetBasePowerOrToughness { .. } => return self.execute_set_base_pt(res, e),
            Effect::AuraSwap => return self.execute_aura_swap(res),
            Effect::PutFromHand { .. } | Effect::PutFromHandInTurn(_) => {
                return self.execute_from_hand(res, e);
            }
            Effect::IntoSuspend {
                what,
                time,
                counter,
            } => {
                if let Some(o) = self.object_of(res, *what) {
                    self.exile_with_suspend(o, *time, *counter);
                }
            }
            Effect::TimeCountersEach { put, count } => {
                let n = self.amount(res, count).max(0) as u32;
                self.time_counters_each(*put, n);
            }
            Effect::SpittingSlug | Effect::SacrificeThen { .. } | Effect::Sacrifice { .. } => {
                return self.execute_choices(res, e);
            }
            Effect::MayPay { .. }
            | Effect::UnlessPays { .. }
            | Effect::PactPay
            | Effect::SacrificeUnlessPays { .. }
            | Effect::SacrificeThisUnlessPays { .. }
            | Effect::CounterUnlessPays { .. }
            | Effect::AnyPlayerMayTakeDamage { .. }
            | Effect::ItsControllerMay { .. } => return self.execute_payments(res, e),
            Effect::DiscardHand { .. } | Effect::BalanceDiscard | Effect::VoidNumber { .. } => {
                return self.execute_hand_discards(res, e);
            }
            Effect::SacrificeHalf { .. }
            | Effect::MaySacrificeThen { .. }
            | Effect::SacrificeOrElse { .. }
            | Effect::BalanceSacrifice(_)
            | Effect::ReturnChosen(_) => return self.execute_sacrifice_choices(res, e),
            Effect::ChangeTarget(what) => return self.execute_change_target(res, *what),
            Effect::ChangeTargetToThis(what) => self.change_target_to_this(res, *what),
            Effect::DamageAnyAmount { to, unpreventable } => {
                return self.execute_damage_any_amount(res, to, *unpreventable);
            }
            Effect::DrawUpTo { max, who } => return self.execute_draw_up_to(res, *max, *who),
            Effect::AnyPlayerMaySacrifice { filter, then } => {
                return self.execute_any_player_may_sacrifice(res, filter, then);
            }
            other => self.apply_simple_effect(res, other),
        }
        Progress::Done
    }

    /// The conditional effects ("if ... , EFFECT"): each checks its condition as it resolves
    /// and executes the effect it guards, or its alternative.
    fn execute_conditions(&mut self, res: &mut Resolution, e: &Effect) -> Progress {
        let me = res.item.controller;
        let guarded = match e {
            Effect::IfSpent { color, effect } => res.item.spent.contains(*color).then_some(effect),
            Effect::IfCastInMainPhase { then, otherwise } => {
                // A copy (storm, Reiterate) was not cast: the weaker effect (R-main-phase-bonus-2).
                let copy = matches!(res.item.kind, StackKind::Spell(s)
                    if self.obj(s).is_some_and(|o| o.spell_copy));
                let main = !copy
                    && self.active == me
                    && matches!(self.step, Step::PrecombatMain | Step::PostcombatMain);
                Some(if main { then } else { otherwise })
            }
            Effect::IfKicked {
                which,
                then,
                otherwise,
            } => {
                if self.was_kicked(Self::source_of(&res.item), *which) {
                    Some(then)
                } else {
                    otherwise.as_ref()
                }
            }
            Effect::IfYouControlAtMost {
                at_most,
                filter,
                then,
            } => {
                let count = self
                    .battlefield_of(me)
                    .filter(|o| self.matches_filter(o.id, filter, me))
                    .count();
                (count <= *at_most as usize).then_some(then)
            }
            Effect::IfActivatedThisTurn { times, then } => {
                let done = matches!(res.item.kind, StackKind::Ability { source, index }
                    if self.activations_this_turn(source, index) >= *times as usize);
                done.then_some(then)
            }
            _ => None,
        };
        match guarded {
            Some(effect) => self.execute(res, effect),
            None => Progress::Done,
        }
    }

    /// Effects that need no choice.
    fn apply_simple_effect(&mut self, res: &Resolution, e: &Effect) {
        match e {
            Effect::Fight { .. }
            | Effect::ExchangeLife(..)
            | Effect::LoseAtNextDrawUnlessPays { .. }
            | Effect::RedirectNextFromThis { .. }
            | Effect::PreventNext { .. }
            | Effect::PreventDivided
            | Effect::PreventAll(..)
            | Effect::LifeFloorUntilEndOfTurn
            | Effect::PreventCombatDamageFrom(..)
            | Effect::PreventCombatDamageToAndFrom(..)
            | Effect::Regenerate(..)
            | Effect::RegenerateAll(..)
            | Effect::CantRegenerate(..) => self.apply_damage(res, e),
            Effect::Destroy { .. }
            | Effect::DestroyAll { .. }
            | Effect::LivingEnd
            | Effect::Exile(..)
            | Effect::PutIntoGraveyard(..)
            | Effect::ExileAll(..)
            | Effect::ExileLinked(..)
            | Effect::ExileRandomFromTop { .. }
            | Effect::PutOnTop(..)
            | Effect::SacrificeThis { .. }
            | Effect::ShuffleGraveyardIntoLibrary { .. }
            | Effect::ShuffleTargetCardsIntoLibrary { .. }
            | Effect::ExileGraveyard { .. }
            | Effect::ExileHandFaceDown { .. }
            | Effect::ExileIfDies(..)
            | Effect::ExileHaunting(..)
            | Effect::Counter(..)
            | Effect::CounterLockingSource(..) => self.apply_zones(res, e),
            Effect::ReturnLinkedToBattlefield
            | Effect::ReturnLinkedToHand
            | Effect::DiscardHandsReturnLinkedAtNextEndStep
            | Effect::ExileUntilNextEndStep(..)
            | Effect::ReturnIfDiesThisTurn(..)
            | Effect::ExileAndReturn(..)
            | Effect::ReturnToBattlefield(..)
            | Effect::ReturnToBattlefieldTapped(..)
            | Effect::ReturnToBattlefieldUnderYourControl(..)
            | Effect::ReturnUnderYourControlWithType { .. }
            | Effect::ReturnToHand(..)
            | Effect::SacrificeAtNextEndStep(..)
            | Effect::DestroyAtEndOfCombat(..)
            | Effect::DestroyWhenThisLeavesThisTurn { .. }
            | Effect::DestroyThisAndBlockedAtEndOfCombat
            | Effect::DestroySubjectAndBlocked
            | Effect::ReturnAtNextEndStep(..) => self.apply_returns(res, e),
            Effect::CreateToken { .. } | Effect::CreateChosenToken(_) => {
                self.apply_counters(res, e)
            }
            Effect::Attach { .. } | Effect::ReturnAttached { .. } => self.apply_attach(res, e),
            Effect::Pump { .. }
            | Effect::PumpCount { .. }
            | Effect::PumpAllCount { .. }
            | Effect::PumpAll { .. }
            | Effect::SetPt { .. }
            | Effect::SwitchPt(..)
            | Effect::Grant { .. }
            | Effect::LoseKeyword { .. }
            | Effect::GrantAll { .. }
            | Effect::GrantFlashback(..) => self.apply_pt(res, e),
            Effect::ChangeText { .. }
            | Effect::BecomeCreatureType { .. }
            | Effect::LoseAllAbilities { .. }
            | Effect::BecomeLandType { .. }
            | Effect::BecomeColor { .. }
            | Effect::BecomeCreature { .. }
            | Effect::BecomeCreatureAll { .. } => self.apply_continuous(res, e),
            Effect::GainControlUntilEndOfTurn(..)
            | Effect::GainControl(..)
            | Effect::GainControlWhileYouControlThis(..)
            | Effect::Tap(..)
            | Effect::TapAll(..)
            | Effect::ItsControllerSacrifices(..)
            | Effect::Untap(..)
            | Effect::UntapEachTarget
            | Effect::RemoveFromCombat(..)
            | Effect::DoesntUntapNext(..)
            | Effect::TurnFaceUp(..)
            | Effect::TurnFaceDown(..)
            | Effect::SkipNext { .. }
            | Effect::ExtraTurn { .. }
            | Effect::WinGame
            | Effect::AddMana(_)
            | Effect::CreaturesUnblockableThisTurn
            | Effect::CreaturesCantAttackYou
            | Effect::SuspendCostExiled(_)
            | Effect::CantLoseThisTurn
            | Effect::LinkWhileTapped(..)
            | Effect::Unlink
            | Effect::ExtraUpkeep
            | Effect::CoalitionVictory => self.apply_control(res, e),
            // The effects that may ask a player, and the families `execute` routes itself,
            // never reach here; `Effect::Nothing` does nothing. A new word that does nothing
            // because it was not routed fails its card's scenario.
            _ => {}
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
            indefinite: false,
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
            cost_exiled: Vec::new(),
            serial: None,
            chooser: None,
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
        let yes = answer.yes_or_no()?;
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        res.may = Some(yes);
        self.pending = None;
        self.resume_resolution();
        Ok(())
    }

    /// A choice among options asked while a spell or ability resolves (`ChooseMode`, e.g.
    /// Clockspinning's counter and whether to remove or add it): `Answer::Mode(i)`.
    pub(crate) fn answer_resolution_option(
        &mut self,
        options: usize,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let Answer::Mode(i) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!("one of the {options} options, not {}", answer.kind_name()),
            });
        };
        if i as usize >= options {
            return Err(RuleError::illegal(format!("choose option 1 to {options}")));
        }
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        res.option = Some(i);
        self.pending = None;
        self.resume_resolution();
        Ok(())
    }

    /// A number chosen as something resolves (`Decision::ChooseX` outside casting: Volcano
    /// Hellion's amount of damage): any number, 0 included.
    pub(crate) fn answer_resolution_number(&mut self, answer: Answer) -> Result<(), RuleError> {
        let Answer::X(n) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!("a number (x N), not {}", answer.kind_name()),
            });
        };
        let Some(res) = &mut self.resolution else {
            return Err(RuleError::illegal("there is no question to answer"));
        };
        res.number = Some(n);
        self.pending = None;
        self.resume_resolution();
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
        self.resume_resolution();
        Ok(())
    }

    // ----- choices asked during resolution (and cleanup) -----------------------------------

    fn choice_candidates(&self, player: PlayerId, d: &Decision) -> Vec<ObjectId> {
        match d {
            Decision::Discard { .. } => self.player(player).hand.clone(),
            Decision::Sacrifice { filter, .. } => {
                // "Other than ~": not the resolving ability's source (Liege of the Pit).
                let source = self
                    .resolution
                    .as_ref()
                    .filter(|_| filter.other)
                    .map(|r| Self::source_of(&r.item));
                self.battlefield_of(player)
                    .map(|o| o.id)
                    .filter(|id| Some(*id) != source)
                    .filter(|id| self.matches_filter(*id, filter, player))
                    .collect()
            }
            Decision::ReturnToHand { filter, .. } => self
                .battlefield_of(player)
                .map(|o| o.id)
                .filter(|id| self.matches_filter(*id, filter, player))
                .collect(),
            Decision::Search {
                filter,
                mana_value,
                library,
                ..
            } => self
                .player(library.unwrap_or(player))
                .library
                .iter()
                .copied()
                .filter(|id| self.card_matches(*id, filter))
                .filter(|id| {
                    // A split card matches if either half does (505.6 / 708.6).
                    mana_value.is_none_or(|v| {
                        self.def(*id)
                            .is_some_and(|d| d.mana_value_matches(|m| m == v))
                    })
                })
                .collect(),
            Decision::SeparatePiles { cards, .. } => cards.clone(),
            Decision::AuraSwap { cards, .. } | Decision::PutFromHand { cards, .. } => cards
                .iter()
                .copied()
                .filter(|c| self.player(player).hand.contains(c))
                .collect(),
            // By its characteristics in the hand (colours included).
            Decision::Reveal { filter } => self
                .player(player)
                .hand
                .iter()
                .copied()
                .filter(|id| self.matches_filter(*id, filter, player))
                .collect(),
            _ => Vec::new(),
        }
    }

    pub(crate) fn check_choice(
        &self,
        player: PlayerId,
        d: &Decision,
        objs: &[ObjectId],
    ) -> Result<(), RuleError> {
        let cands = self.choice_candidates(player, d);
        let (min, max) = match d {
            Decision::Discard { count } => (*count as usize, *count as usize),
            Decision::Sacrifice { count, .. } => (*count as usize, *count as usize),
            // "A card" must be found when there is one (`Decision::search_must_find`).
            Decision::Search { up_to, .. } => (
                usize::from(d.search_must_find() && !cands.is_empty()),
                *up_to as usize,
            ),
            Decision::ReturnToHand { count, .. } => (*count as usize, *count as usize),
            Decision::AuraSwap { .. } | Decision::PutFromHand { .. } => (0, 1),
            Decision::Reveal { .. } | Decision::SeparatePiles { .. } => (0, cands.len()),
            _ => (0, 0),
        };
        if objs.is_empty() && min > 0 && d.search_must_find() {
            return Err(RuleError::illegal(
                "the search is for a card with no stated quality, so you can't fail to find one: choose a card of that library",
            ));
        }
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
            // 314.1: discard to hand size (after madness's questions).
            self.madness_discards.cleanup = Some(objs);
            self.continue_cleanup_discard();
            return Ok(());
        }
        if let Some(res) = &mut self.resolution {
            res.choices.push((player, objs));
        }
        self.resume_resolution();
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
        self.resume_resolution();
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
            Decision::Discard { count }
            | Decision::Sacrifice { count, .. }
            | Decision::ReturnToHand { count, .. }
                if *count > 1 =>
            {
                // One answer per card for the first pick would not be a full answer; list the
                // first `count` cards and each single-card swap of the last slot.
                let n = *count as usize;
                let mut v = Vec::new();
                for extra in (n - 1..cands.len()).filter(|_| cands.len() >= n) {
                    let mut pick: Vec<ObjectId> = cands[..n - 1].to_vec();
                    pick.push(cands[extra]);
                    v.push(Answer::Objects(pick));
                }
                v
            }
            Decision::Search { up_to, .. } => {
                let mut v = vec![Answer::Objects(Vec::new())];
                v.extend(cands.iter().map(|c| Answer::Objects(vec![*c])));
                // "Up to N": for each k up to N, the first k - 1 cards and each one after
                // them (every size, without the 2^n subsets).
                for k in 2..=(*up_to as usize).min(cands.len()) {
                    for extra in k - 1..cands.len() {
                        let mut pick = cands[..k - 1].to_vec();
                        pick.push(cands[extra]);
                        v.push(Answer::Objects(pick));
                    }
                }
                v
            }
            Decision::AuraSwap { .. } | Decision::PutFromHand { .. } => {
                std::iter::once(Answer::Objects(Vec::new()))
                    .chain(cands.iter().map(|c| Answer::Objects(vec![*c])))
                    .collect()
            }
            // Any number: none, and the first k for each k (a full list would be 2^n).
            Decision::Reveal { .. } => (0..=cands.len())
                .map(|k| Answer::Objects(cands[..k].to_vec()))
                .collect(),
            // Any split: the first k for each k, and each card alone.
            Decision::SeparatePiles { .. } => (0..=cands.len())
                .map(|k| Answer::Objects(cands[..k].to_vec()))
                .chain(cands.iter().map(|c| Answer::Objects(vec![*c])))
                .collect(),
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
        (f.types_any.is_empty()
            || f.types_any.iter().any(|t| def.has_type(*t))
            || f.or_keyword.is_some_and(|k| def.keywords.contains(&k))
            || (f.or_subtypes
                && f.subtypes_any
                    .iter()
                    .any(|s| def.subtypes.iter().any(|x| x == s))))
            && !f.types_none.iter().any(|t| def.has_type(*t))
            && (!f.basic || def.supertypes.contains(&crate::types::Supertype::Basic))
            && f.subtype
                .as_ref()
                .is_none_or(|s| def.subtypes.iter().any(|x| x == s))
            && (f.subtypes_any.is_empty()
                || f.or_subtypes
                || f.subtypes_any
                    .iter()
                    .any(|s| def.subtypes.iter().any(|x| x == s)))
            && f.max_mana_value
                .is_none_or(|max| def.mana_value_matches(|v| v <= max))
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
