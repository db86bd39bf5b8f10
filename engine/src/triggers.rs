//! Triggered abilities (rules 404, 410): trigger events matched on the event pipeline,
//! waiting until a player would receive priority, then put on the stack in APNAP order with
//! each controller ordering their own (an answer) and choosing targets; an ability with no
//! legal target is removed (410.4).
//!
//! Supported trigger events are the [`TriggerEvent`] variants. Leaves-the-battlefield
//! abilities look back in time: the object's own ("when ~ dies / leaves") through the event,
//! and other permanents that left in the same event through `Game::lookback` batches.
//! Abilities granted by static abilities (Plague Sliver) trigger like printed ones.
//! Intervening "if" clauses are checked when the event happens and again on resolution.
//! Delayed triggered abilities (`DelayedTrigger`) are created by resolving effects and
//! trigger once. Events about players (life gained or lost, cards drawn or discarded) and
//! permanents (counters put or removed, tapping, untapping) trigger abilities whose scope
//! (`PlayerScope`, `ObjectScope`) matches relative to the ability's controller or source.
//! State triggers (2006 410.11 / modern 603.8, `TriggerEvent::State`) are checked whenever
//! state-based actions are, and don't trigger again while the same ability of the same
//! source waits, is on the stack or is resolving. "A creature dealt damage by ~ this turn"
//! reads `Game::damage_record`; abilities granted by static abilities look back during a
//! batch of permanents leaving together (`Game::lookback_grants`).

pub use crate::abilities::{
    ObjectScope, PlayerScope, StateCondition, TriggerCondition, TriggerDef, TriggerEvent,
};
use crate::casting::{CastKind, Casting};
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::keywords::Keyword;
pub use crate::keywords::flanking::FLANKING_TRIGGER;
pub use crate::keywords::rampage::{RAMPAGE1_TRIGGER, RAMPAGE2_TRIGGER};
pub use crate::keywords::suspend::{SUSPEND_CAST_TRIGGER, SUSPEND_UPKEEP_TRIGGER};
use crate::object::CounterKind;
use crate::stack::{StackItem, StackKind};
use crate::steps::Step;
use crate::targets::ObjectFilter;
use crate::turn::StepFlow;
use crate::types::CardType;
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

impl ObjectScope {
    pub(crate) fn holds(
        self,
        g: &Game,
        source: ObjectId,
        controller: PlayerId,
        object: ObjectId,
    ) -> bool {
        match self {
            ObjectScope::This => source == object,
            ObjectScope::AnyCreature => g.is_creature(object),
            ObjectScope::CreatureYouControl => {
                g.is_creature(object) && g.obj(object).is_some_and(|o| o.controller == controller)
            }
            ObjectScope::Attached => g.obj(source).is_some_and(|o| o.attached_to == Some(object)),
        }
    }
}

/// When a delayed triggered ability triggers (410.8 / 603.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DelayedWhen {
    /// "At the beginning of the next end step" (once).
    NextEndStep,
    /// "At the beginning of that player's next draw step ... unless they pay {N} before
    /// that draw step" (Glass Asp): the player may pay `pay` as a special action until then,
    /// and the ability then never triggers; it makes them lose `lose` life.
    NextDrawStepUnlessPaid {
        player: PlayerId,
        pay: u32,
        lose: u32,
    },
    /// "When target creature is put into your graveyard this turn" (Saffi Eriksdotter):
    /// the object, watched until the turn ends; "your" is the delayed ability's controller.
    PutIntoYourGraveyardThisTurn(ObjectId),
    /// "At the beginning of your next upkeep" (pacts): that player's next upkeep.
    YourNextUpkeep(PlayerId),
    /// "At the beginning of your next upkeep, if you haven't played it, put it into its
    /// owner's graveyard" (Grinning Totem, `play_permission.rs`): the subject is the exiled
    /// card; playing it removes this ability.
    YourNextUpkeepUnplayed(PlayerId),
    /// "Sacrifice ~ at the beginning of the next end step" (Dragon Whelp): the subject.
    NextEndStepSacrifice,
    /// "Destroy that creature at end of combat" (Cockatrice): the subject, as the next end
    /// of combat step begins.
    EndOfCombatDestroy,
    /// "When ~ leaves the battlefield this turn, destroy that creature" (War Barge): the
    /// subject is destroyed when `source` leaves the battlefield (to anywhere) before the
    /// turn ends; `regen: false`: it can't be regenerated.
    SourceLeavesThisTurn { source: ObjectId, regen: bool },
    /// "At end of combat, destroy it and all creatures it blocked this turn" (Defiant
    /// Vanguard): the subject and the creatures it was declared blocking, as the next end of
    /// combat step begins.
    EndOfCombatDestroyWithBlocked,
    /// "At the beginning of the next end step, each player discards their hand and returns
    /// to their hand each card they exiled this way" (Magus of the Jar): the cards linked
    /// to `source` (`Game::links`).
    NextEndStepDiscardReturnLinked,
}

/// A delayed triggered ability created by a resolving spell or ability; it triggers once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedTrigger {
    pub when: DelayedWhen,
    pub source: ObjectId,
    pub card: CardId,
    pub controller: PlayerId,
    pub subject: Option<ObjectId>,
}

/// A built-in delayed ability's definition: its effects and its text (when it triggers is
/// each `DelayedTrigger`'s `DelayedWhen`).
fn delayed_def(effects: Vec<Effect>, text: &str) -> TriggerDef {
    TriggerDef {
        divided: None,
        modes: Vec::new(),
        when: TriggerEvent::EachEndStep,
        condition: None,
        targets: Vec::new(),
        effects,
        text: text.into(),
    }
}

/// The built-in delayed ability "return it to the battlefield under its owner's control"
/// (`exile_until_next_end_step`).
pub const DELAYED_RETURN: u8 = u8::MAX - 1;
/// The built-in delayed ability "sacrifice it" (`sacrifice_at_next_end_step`: Dragon Whelp).
pub const DELAYED_SACRIFICE: u8 = u8::MAX - 12;

fn delayed_sacrifice() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        delayed_def(
            vec![Effect::SacrificeThen {
                what: crate::effects::ObjRef::Subject,
                then: Vec::new(),
            }],
            "At the beginning of the next end step, sacrifice it.",
        )
    })
}

/// The built-in delayed ability "destroy it" (`destroy_at_end_of_combat`: Cockatrice).
pub const DELAYED_DESTROY: u8 = u8::MAX - 13;

fn delayed_destroy() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        delayed_def(
            vec![Effect::Destroy {
                what: crate::effects::ObjRef::Subject,
                regen: true,
            }],
            "At end of combat, destroy that creature.",
        )
    })
}

/// The built-in delayed ability "destroy that creature. It can't be regenerated" (War Barge).
pub const DELAYED_DESTROY_NO_REGEN: u8 = u8::MAX - 14;

fn delayed_destroy_no_regen() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| delayed_def(vec![Effect::Destroy {
            what: crate::effects::ObjRef::Subject,
            regen: false,
        }], "When it leaves the battlefield this turn, destroy that creature. It can't be regenerated."))
}

/// The built-in delayed ability "destroy it and all creatures it blocked this turn"
/// (Defiant Vanguard).
pub const DELAYED_DESTROY_WITH_BLOCKED: u8 = u8::MAX - 15;

fn delayed_destroy_with_blocked() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        delayed_def(
            vec![Effect::DestroySubjectAndBlocked],
            "At end of combat, destroy it and all creatures it blocked this turn.",
        )
    })
}

/// The built-in delayed ability "put it into its owner's graveyard" (Grinning Totem's card
/// not played by the beginning of its player's next upkeep).
pub const DELAYED_TO_GRAVEYARD: u8 = u8::MAX - 16;

fn delayed_to_graveyard() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        delayed_def(
            vec![Effect::PutIntoGraveyard(crate::effects::ObjRef::Subject)],
            "At the beginning of your next upkeep, if you haven't played it, put it into its owner's graveyard.",
        )
    })
}

/// The built-in delayed ability "each player discards their hand and returns to their hand
/// each card they exiled this way" (Magus of the Jar).
pub const DELAYED_DISCARD_RETURN_LINKED: u8 = u8::MAX - 17;

fn delayed_discard_return_linked() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| {
        delayed_def(
            vec![
                Effect::DiscardHand {
                    who: crate::effects::PlayerRef::EachPlayer,
                },
                Effect::ReturnLinkedToHand,
            ],
            "At the beginning of the next end step, each player discards their hand and returns to their hand each card they exiled this way.",
        )
    })
}

/// Built-in delayed abilities "that player loses N life" for N = 1..=4 (Glass Asp): indices
/// `DELAYED_LOSE_1 + N - 1`; "that player" is the trigger's player.
pub const DELAYED_LOSE_1: u8 = u8::MAX - 9;

fn delayed_lose(n: u8) -> &'static TriggerDef {
    static DEFS: std::sync::OnceLock<Vec<TriggerDef>> = std::sync::OnceLock::new();
    let defs = DEFS.get_or_init(|| {
        (1..=4)
            .map(|n| {
                delayed_def(
                    vec![Effect::LoseLife {
                        amount: crate::effects::Amount::Fixed(n),
                        who: crate::effects::PlayerRef::SubjectPlayer,
                    }],
                    &format!(
                        "At the beginning of that player's draw step, they lose {n} life (they didn't pay)."
                    ),
                )
            })
            .collect()
    });
    &defs[(n.clamp(1, 4) - 1) as usize]
}

fn delayed_return() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| delayed_def(vec![Effect::ReturnToBattlefield(crate::effects::ObjRef::Subject)], "At the beginning of the next end step, return it to the battlefield under its owner's control."))
}

/// Trigger indices from here on name a triggered ability granted by a static ability of the
/// card: `GRANTED_TRIGGER + 4 * static index + trigger index` (`WaitingTrigger::card` is then
/// the granting card).
pub const GRANTED_TRIGGER: u8 = 64;
/// Classic deathtouch's built-in trigger (2007 CR 502.32, Δ16).
pub const DEATHTOUCH_TRIGGER: u8 = u8::MAX - 4;
/// Vesuvan Shapeshifter's copy exception (706.9b): "At the beginning of your upkeep, you
/// may turn this creature face down."
pub const SHAPESHIFTER_TRIGGER: u8 = u8::MAX - 5;
/// Indices from here up name built-in abilities (keywords' triggers, delayed returns);
/// granted abilities stay below.
const FIRST_BUILTIN: u8 = crate::keywords::vanishing::VANISHING_SACRIFICE_TRIGGER;

fn builtin_trigger(index: u8) -> Option<&'static TriggerDef> {
    static R1: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static R2: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static DT: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static SH: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static PO1: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static PO3: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    use crate::keywords::poisonous::{POISONOUS1_TRIGGER as P1, POISONOUS3_TRIGGER as P3};
    match index {
        SHAPESHIFTER_TRIGGER => Some(SH.get_or_init(|| TriggerDef {
            when: TriggerEvent::YourUpkeep,
            condition: None,
            targets: Vec::new(),
            effects: vec![Effect::May {
                effects: vec![Effect::TurnFaceDown(crate::effects::ObjRef::This)],
                text: "turn this creature face down".into(),
            }],
            text: "At the beginning of your upkeep, you may turn this creature face down.".into(),
            divided: None,
            modes: Vec::new(),
        })),
        FLANKING_TRIGGER => Some(crate::keywords::flanking::definition()),
        P1 => Some(PO1.get_or_init(|| crate::keywords::poisonous::definition(1))),
        P3 => Some(PO3.get_or_init(|| crate::keywords::poisonous::definition(3))),
        crate::keywords::lifelink::LIFELINK_TRIGGER => {
            Some(crate::keywords::lifelink::definition())
        }
        crate::keywords::frenzy::FRENZY1_TRIGGER => Some(crate::keywords::frenzy::definition()),
        crate::keywords::vanishing::VANISHING_UPKEEP_TRIGGER
        | crate::keywords::vanishing::VANISHING_SACRIFICE_TRIGGER => {
            crate::keywords::vanishing::builtin(index)
        }
        SUSPEND_UPKEEP_TRIGGER => Some(crate::keywords::suspend::upkeep_definition()),
        SUSPEND_CAST_TRIGGER => Some(crate::keywords::suspend::cast_definition()),
        crate::keywords::storm::STORM_TRIGGER => Some(crate::keywords::storm::definition()),
        crate::keywords::gravestorm::GRAVESTORM_TRIGGER => {
            Some(crate::keywords::gravestorm::definition())
        }
        crate::keywords::madness::MADNESS_TRIGGER => Some(crate::keywords::madness::definition()),
        crate::keywords::pact::PACT_TRIGGER => Some(crate::keywords::pact::definition()),
        RAMPAGE1_TRIGGER => Some(R1.get_or_init(|| crate::keywords::rampage::definition(1))),
        RAMPAGE2_TRIGGER => Some(R2.get_or_init(|| crate::keywords::rampage::definition(2))),
        // `when` is not consulted for built-in abilities: `collect_triggers` matches them
        // (classic deathtouch on damage dealt to a creature).
        DEATHTOUCH_TRIGGER => Some(DT.get_or_init(|| TriggerDef {
            divided: None,
            modes: Vec::new(),
            when: TriggerEvent::DealsDamageToPlayer,
            targets: Vec::new(),
            effects: vec![Effect::Destroy {
                what: crate::effects::ObjRef::Subject,
                regen: true,
            }],
            text: "Deathtouch: destroy the creature it dealt damage to.".into(),
            condition: None,
        })),
        _ => None,
    }
}

/// A triggered ability that has triggered and waits to be put on the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingTrigger {
    /// The source as it was when the ability triggered (it may have left since).
    pub source: ObjectId,
    pub card: CardId,
    pub controller: PlayerId,
    pub index: u8,
    /// The object the event was about (the creature that entered, attacked...).
    pub subject: Option<ObjectId>,
    /// The player the event was about (the player dealt damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    /// Its controller has put their triggers in order (410.3).
    pub ordered: bool,
    /// For an ability granted by a static ability: the granting card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granter: Option<CardId>,
    /// The event's amount ("you gain that much life": the damage dealt); it becomes the
    /// stack item's `x`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub amount: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl WaitingTrigger {
    /// The card whose script holds this ability.
    pub fn def_card(&self) -> CardId {
        self.granter.unwrap_or(self.card)
    }
}

impl Game {
    /// A card's triggered ability by index, or a keyword's built-in one (flanking).
    pub(crate) fn trigger_def(&self, card: CardId, index: u8) -> Option<&'static TriggerDef> {
        if let Some(def) = builtin_trigger(index) {
            return Some(def);
        }
        if index == DELAYED_RETURN {
            return Some(delayed_return());
        }
        if index == DELAYED_SACRIFICE {
            return Some(delayed_sacrifice());
        }
        if index == DELAYED_DESTROY {
            return Some(delayed_destroy());
        }
        if index == DELAYED_DESTROY_NO_REGEN {
            return Some(delayed_destroy_no_regen());
        }
        if index == DELAYED_DESTROY_WITH_BLOCKED {
            return Some(delayed_destroy_with_blocked());
        }
        if index == DELAYED_TO_GRAVEYARD {
            return Some(delayed_to_graveyard());
        }
        if index == DELAYED_DISCARD_RETURN_LINKED {
            return Some(delayed_discard_return_linked());
        }
        if (DELAYED_LOSE_1..DELAYED_LOSE_1 + 4).contains(&index) {
            return Some(delayed_lose(index - DELAYED_LOSE_1 + 1));
        }
        if index >= GRANTED_TRIGGER {
            // Granted by a static ability of `card`: static (index - 64) / 4, trigger % 4.
            let k = (index - GRANTED_TRIGGER) as usize;
            return self
                .catalog()
                .get(card)
                .statics
                .get(k / 4)?
                .grant_triggers
                .get(k % 4);
        }
        self.catalog().get(card).triggers.get(index as usize)
    }

    /// Queues a built-in triggered ability that a rule triggers directly (madness's "when
    /// this card is exiled this way").
    pub(crate) fn queue_builtin_trigger(
        &mut self,
        source: ObjectId,
        card: CardId,
        controller: PlayerId,
        index: u8,
    ) {
        self.queue(source, card, controller, index as usize, None, None);
    }

    fn queue(
        &mut self,
        source: ObjectId,
        card: CardId,
        controller: PlayerId,
        index: usize,
        subject: Option<ObjectId>,
        player: Option<PlayerId>,
    ) {
        // A granted ability comes with the granting card; the trigger keeps its source's.
        let (card, granter) = if index >= GRANTED_TRIGGER as usize && index < FIRST_BUILTIN as usize
        {
            (self.objects[source.slot()].card, Some(card))
        } else {
            (card, None)
        };
        self.triggers.push(WaitingTrigger {
            source,
            card,
            controller,
            index: index as u8,
            subject,
            player,
            ordered: false,
            granter,
            amount: 0,
        });
    }

    /// Queues built-in trigger `index` of `source` with `amount` as its "that much"
    /// (classic lifelink).
    pub(crate) fn queue_builtin(
        &mut self,
        source: ObjectId,
        card: CardId,
        controller: PlayerId,
        index: u8,
        amount: u32,
    ) {
        self.queue(source, card, controller, index as usize, Some(source), None);
        if let Some(t) = self.triggers.last_mut() {
            t.amount = amount;
        }
    }

    /// The triggered abilities of permanent `id` itself that trigger on one of `kinds`, with
    /// `id` as their subject.
    fn own_triggers(
        &self,
        id: ObjectId,
        kinds: &[TriggerEvent],
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        self.matching(|_, src, _, w| src == id && kinds.contains(w))
            .into_iter()
            .map(|(s, c, p, i)| (s, c, p, i, Some(id)))
            .collect()
    }

    /// The triggered abilities granted to `id` (granting card, static index): during a batch
    /// of permanents leaving together, as they were before it (look-back), else now.
    fn granted_now_or_before(&self, id: ObjectId) -> Vec<(CardId, u8)> {
        match &self.lookback_grants {
            Some(g) => g
                .iter()
                .filter(|(h, _, _)| *h == id)
                .map(|(_, c, s)| (*c, *s))
                .collect(),
            None if self.obj(id).is_some() => self.granted_triggers(id),
            None => Vec::new(),
        }
    }

    /// Permanents on the battlefield with triggered abilities matching `pred`.
    pub(crate) fn matching(
        &self,
        pred: impl Fn(&Game, ObjectId, PlayerId, &TriggerEvent) -> bool,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize)> {
        let mut out = Vec::new();
        // Layered games: the battlefield's characteristics from one lookup, not one per
        // permanent and question.
        let table = self.battlefield_chars();
        for &id in &self.battlefield {
            let Some(o) = self.obj(id) else { continue };
            if let Some(table) = &table {
                let chars = table.get(id);
                let mut grant = |card: CardId, st: u8| {
                    let grants = &self.catalog().get(card).statics[st as usize].grant_triggers;
                    for (k, t) in grants.iter().enumerate() {
                        if pred(self, id, o.controller, &t.when) {
                            let index = GRANTED_TRIGGER as usize + 4 * st as usize + k;
                            out.push((id, card, o.controller, index));
                        }
                    }
                };
                match &self.lookback_grants {
                    Some(_) => {
                        for (card, st) in self.granted_now_or_before(id) {
                            grant(card, st);
                        }
                    }
                    None => {
                        for &(card, st) in chars.map_or(&[][..], |c| &c.granted_triggers[..]) {
                            grant(card, st);
                        }
                    }
                }
                if !chars.is_some_and(|c| c.own_abilities) {
                    continue;
                }
            }
            let face = o.face();
            for (i, t) in self.catalog().get(face).triggers.iter().enumerate() {
                if pred(self, id, o.controller, &t.when) {
                    out.push((id, face, o.controller, i));
                }
            }
            // Part of a Vesuvan Shapeshifter copy's values (706.9b); none while face down.
            if o.copy_trigger
                && !o.face_down
                && let Some(t) = builtin_trigger(SHAPESHIFTER_TRIGGER)
                && pred(self, id, o.controller, &t.when)
            {
                out.push((id, face, o.controller, SHAPESHIFTER_TRIGGER as usize));
            }
        }
        if self.has_exile_triggers {
            self.matching_in_exile(&pred, &mut out);
        }
        // Leaves-the-battlefield abilities look back in time (410.10d / 603.10a): permanents
        // that left together with the event's object still see it.
        for &(id, card, controller) in &self.lookback {
            if self.obj(id).is_some() {
                continue;
            }
            for (granter, st) in self.granted_now_or_before(id) {
                let grants = &self.catalog().get(granter).statics[st as usize].grant_triggers;
                for (k, t) in grants.iter().enumerate() {
                    if pred(self, id, controller, &t.when) {
                        let index = GRANTED_TRIGGER as usize + 4 * st as usize + k;
                        out.push((id, granter, controller, index));
                    }
                }
            }
            for (i, t) in self.catalog().get(card).triggers.iter().enumerate() {
                if pred(self, id, controller, &t.when) {
                    out.push((id, card, controller, i));
                }
            }
        }
        out
    }

    /// The triggered abilities of cards in exile that function there (2006 402.8 / 2014
    /// 112.6k): "if ~ is suspended" and "... while it's exiled" (the abilities of suspended
    /// cards: Deep-Sea Kraken, Benalish Commander). An exiled card's controller is its owner.
    fn matching_in_exile(
        &self,
        pred: &impl Fn(&Game, ObjectId, PlayerId, &TriggerEvent) -> bool,
        out: &mut Vec<(ObjectId, CardId, PlayerId, usize)>,
    ) {
        for &id in &self.exile {
            let Some(o) = self.obj(id) else { continue };
            for (i, t) in self.catalog().get(o.card).triggers.iter().enumerate() {
                if t.functions_in_exile() && pred(self, id, o.owner, &t.when) {
                    out.push((id, o.card, o.owner, i));
                }
            }
        }
    }

    /// The active player's upkeep began: "until the beginning of your next upkeep, you may
    /// play that card" ends (`play_permission.rs`), and their "at the beginning of your next
    /// upkeep" delayed abilities trigger (pacts; Grinning Totem's card not played).
    fn upkeep_delayed_triggers(&mut self) {
        let active = self.active;
        self.end_exile_plays(active);
        if self.delayed.is_empty() {
            return;
        }
        let due = |w: DelayedWhen| {
            w == DelayedWhen::YourNextUpkeep(active)
                || w == DelayedWhen::YourNextUpkeepUnplayed(active)
        };
        let upkeeps: Vec<DelayedTrigger> = self
            .delayed
            .iter()
            .copied()
            .filter(|d| due(d.when))
            .collect();
        self.delayed.retain(|d| !due(d.when));
        for d in upkeeps {
            let index = match d.when {
                DelayedWhen::YourNextUpkeepUnplayed(_) => DELAYED_TO_GRAVEYARD,
                _ => crate::keywords::pact::PACT_TRIGGER,
            } as usize;
            self.queue(d.source, d.card, d.controller, index, d.subject, None);
        }
    }

    /// 410.2: an event happened; note every ability it triggers.
    pub(crate) fn collect_triggers(&mut self, e: &Event) {
        self.collect_leaves_triggers(e);
        self.collect_delayed_triggers(e);
        self.collect_enchanted_damage_triggers(e);
        if let Event::SpellCast { spell, .. } = e {
            // Storm and gravestorm: the spell's own cast triggers, with their counts.
            self.storm_triggers(*spell);
        }
        if let Event::ZoneChanged {
            card,
            new,
            from,
            to: ZoneKind::Graveyard,
            owner,
            ..
        } = e
        {
            self.card_to_graveyard_triggers(*card, *new, *owner);
            if *from == ZoneKind::Library {
                self.milled_self_triggers(*card, *new, *owner);
            }
        }
        if let Event::Discarded { player, card } = e {
            self.discarded_self_triggers(*player, *card);
        }
        if let Event::SpellCast { player, spell, .. } = e {
            self.cast_self_triggers(*player, *spell);
        }
        // "When ~'s echo cost is paid" (Shah of Naar Isle).
        if let Event::EchoPaid { object, .. } = e {
            for (s, c, p, i, subject) in self.own_triggers(*object, &[TriggerEvent::EchoPaid]) {
                self.queue(s, c, p, i, subject, None);
            }
        }
        let found = match e {
            Event::EnteredBattlefield { .. }
            | Event::ZoneChanged { .. }
            | Event::StepBegan(_)
            | Event::AttackersDeclared { .. }
            | Event::BlockersDeclared { .. } => self.zone_and_combat_triggers(e),
            _ => self.player_and_status_triggers(e),
        };
        // "At the beginning of each player's upkeep, that player ...": the active player.
        let upkeep_of = matches!(e, Event::StepBegan(Step::Upkeep)).then_some(self.active);
        for (s, c, p, i, subject) in found {
            // An intervening "if" must be true for the ability to trigger at all.
            if self.trigger_condition_holds(c, i, p, s) {
                let when = u8::try_from(i)
                    .ok()
                    .and_then(|i| self.trigger_def(c, i))
                    .map(|d| d.when.clone());
                let about = match when {
                    Some(TriggerEvent::EachUpkeep | TriggerEvent::ChosenPlayersUpkeep) => upkeep_of,
                    // "Whenever ~ attacks and isn't blocked, defending player ...": the
                    // player it attacks is "that player" (Swamp Mosquito).
                    Some(TriggerEvent::AttacksAndIsntBlocked)
                        if u8::try_from(i).is_ok_and(|i| builtin_trigger(i).is_none()) =>
                    {
                        subject.and_then(|a| self.defender_of(a))
                    }
                    _ => None,
                };
                self.queue(s, c, p, i, subject, about);
            }
        }
    }

    /// "Whenever a card is put into an opponent's graveyard from anywhere" (Nihilith): a
    /// card, not a token, whose owner is an opponent of the ability's controller.
    fn card_to_graveyard_triggers(&mut self, card: CardId, new: ObjectId, owner: PlayerId) {
        if self.catalog().get(card).support == crate::cards::Support::Token {
            return;
        }
        let found = self
            .matching(|_, _, ctrl, w| *w == TriggerEvent::CardToOpponentGraveyard && ctrl != owner);
        self.queue_about_player(found, Some(new), owner);
    }

    /// "When ~ is put into your graveyard from your library" (Gaea's Blessing): the card's
    /// own ability, from the graveyard, controlled by its owner.
    fn milled_self_triggers(&mut self, card: CardId, new: ObjectId, owner: PlayerId) {
        self.queue_self_triggers(
            new,
            card,
            owner,
            TriggerEvent::PutIntoYourGraveyardFromLibrary,
        );
    }

    /// "When you cast this spell" (Brain Gorgers): the spell's own ability, controlled by
    /// its caster, its source the spell on the stack.
    fn cast_self_triggers(&mut self, p: PlayerId, spell: ObjectId) {
        if let Some(card) = self.obj(spell).map(|o| o.face()) {
            self.queue_self_triggers(spell, card, p, TriggerEvent::CastThis);
        }
    }

    /// "When a spell or ability an opponent controls causes you to discard ~" (Quagnoth): the
    /// discarded card's own ability, from wherever the discard put it, controlled by `p`.
    fn discarded_self_triggers(&mut self, p: PlayerId, new: ObjectId) {
        let Some(card) = self.obj(new).map(|o| o.card) else {
            return;
        };
        let event = TriggerEvent::DiscardedByOpponent;
        if self
            .catalog()
            .get(card)
            .triggers_on(event.clone())
            .next()
            .is_some()
            && self.discard_caused_by_opponent(p)
        {
            self.queue_self_triggers(new, card, p, event);
        }
    }

    /// The abilities of `card` (the card of `object`, off the battlefield) that trigger on
    /// `event`: `object` is their source and subject, `controller` controls them.
    fn queue_self_triggers(
        &mut self,
        object: ObjectId,
        card: CardId,
        controller: PlayerId,
        event: TriggerEvent,
    ) {
        for i in self.catalog().get(card).triggers_on(event) {
            self.queue(object, card, controller, i, Some(object), None);
        }
    }

    /// Auras' "at the beginning of the upkeep of enchanted creature's controller": the
    /// enchanted creature is the subject.
    fn enchanted_controllers_upkeep_triggers(
        &self,
        active: PlayerId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let host_of = |g: &Game, id: ObjectId| {
            g.obj(id)
                .and_then(|o| o.attached_to)
                .filter(|h| g.obj(*h).is_some_and(|h| h.controller == active))
        };
        self.matching(|g, id, _, w| {
            *w == TriggerEvent::EnchantedControllersUpkeep && host_of(g, id).is_some()
        })
        .into_iter()
        .map(|(s, c, p, i)| (s, c, p, i, host_of(self, s)))
        .collect()
    }

    /// The player an attacking creature attacks.
    fn defender_of(&self, attacker: ObjectId) -> Option<PlayerId> {
        self.combat
            .as_ref()
            .and_then(|c| c.attackers.iter().find(|a| a.id == attacker))
            .map(|a| a.defender)
    }

    /// Leaves-the-battlefield (and "or becomes untapped") abilities, looked back on (410.10d).
    fn collect_leaves_triggers(&mut self, e: &Event) {
        // Leaves-the-battlefield abilities of the object itself, as it last existed (410.10d).
        if let Event::ZoneChanged {
            card,
            old,
            new,
            from: ZoneKind::Battlefield,
            controller,
            ..
        } = e
        {
            let def = self.catalog().get(*card);
            for (i, t) in def.triggers.iter().enumerate() {
                if matches!(
                    t.when,
                    TriggerEvent::LeavesBattlefield | TriggerEvent::LeavesOrBecomesUntapped
                ) {
                    self.queue(*old, *card, *controller, i, Some(*new), None);
                }
            }
        }
        if let Event::Untapped(id) = e {
            let id = *id;
            for (s, c, p, i) in self
                .matching(|_, src, _, w| *w == TriggerEvent::LeavesOrBecomesUntapped && src == id)
            {
                self.queue(s, c, p, i, Some(id), None);
            }
        }
    }

    /// Delayed triggered abilities that are due: "when it is put into your graveyard this turn", the next draw step, the next end step.
    fn collect_delayed_triggers(&mut self, e: &Event) {
        if let Event::ZoneChanged {
            old,
            from: ZoneKind::Battlefield,
            ..
        } = e
            && !self.delayed.is_empty()
        {
            self.source_left_triggers(*old);
        }
        if let Event::ZoneChanged {
            old,
            new,
            from: ZoneKind::Battlefield,
            to: ZoneKind::Graveyard,
            owner,
            ..
        } = e
            && !self.delayed.is_empty()
        {
            let (old, new, owner) = (*old, *new, *owner);
            let due: Vec<DelayedTrigger> = self
                .delayed
                .iter()
                .copied()
                .filter(|d| {
                    d.when == DelayedWhen::PutIntoYourGraveyardThisTurn(old)
                        && d.controller == owner
                })
                .collect();
            self.delayed
                .retain(|d| d.when != DelayedWhen::PutIntoYourGraveyardThisTurn(old));
            for d in due {
                self.queue(
                    d.source,
                    d.card,
                    d.controller,
                    DELAYED_RETURN as usize,
                    Some(new),
                    None,
                );
            }
        }
        if let Event::StepBegan(Step::Upkeep) = e {
            self.upkeep_delayed_triggers();
        }
        if let Event::StepBegan(Step::Draw) = e
            && !self.delayed.is_empty()
        {
            let active = self.active;
            let due: Vec<DelayedTrigger> = self
                .delayed
                .iter()
                .copied()
                .filter(|d| {
                    matches!(d.when, DelayedWhen::NextDrawStepUnlessPaid { player, .. } if player == active)
                })
                .collect();
            self.delayed.retain(|d| {
                !matches!(d.when, DelayedWhen::NextDrawStepUnlessPaid { player, .. } if player == active)
            });
            for d in due {
                if let DelayedWhen::NextDrawStepUnlessPaid { lose, .. } = d.when {
                    // The ability's only instruction: that player loses `lose` life.
                    let index = DELAYED_LOSE_1 as usize + (lose.clamp(1, 4) - 1) as usize;
                    self.queue(d.source, d.card, d.controller, index, None, Some(active));
                }
            }
        }
        if let Event::StepBegan(Step::EndCombat) = e
            && !self.delayed.is_empty()
        {
            let due: Vec<DelayedTrigger> = self
                .delayed
                .iter()
                .copied()
                .filter(|d| {
                    matches!(
                        d.when,
                        DelayedWhen::EndOfCombatDestroy
                            | DelayedWhen::EndOfCombatDestroyWithBlocked
                    )
                })
                .collect();
            self.delayed.retain(|d| {
                !matches!(
                    d.when,
                    DelayedWhen::EndOfCombatDestroy | DelayedWhen::EndOfCombatDestroyWithBlocked
                )
            });
            for d in due {
                let index = match d.when {
                    DelayedWhen::EndOfCombatDestroyWithBlocked => DELAYED_DESTROY_WITH_BLOCKED,
                    _ => DELAYED_DESTROY,
                } as usize;
                self.queue(d.source, d.card, d.controller, index, d.subject, None);
            }
        }
        if let Event::StepBegan(Step::End) = e
            && !self.delayed.is_empty()
        {
            let at_end = |w: DelayedWhen| {
                matches!(
                    w,
                    DelayedWhen::NextEndStep
                        | DelayedWhen::NextEndStepSacrifice
                        | DelayedWhen::NextEndStepDiscardReturnLinked
                )
            };
            let due: Vec<DelayedTrigger> = self
                .delayed
                .iter()
                .copied()
                .filter(|d| at_end(d.when))
                .collect();
            self.delayed.retain(|d| !at_end(d.when));
            for d in due {
                let index = match d.when {
                    DelayedWhen::NextEndStepSacrifice => DELAYED_SACRIFICE,
                    DelayedWhen::NextEndStepDiscardReturnLinked => DELAYED_DISCARD_RETURN_LINKED,
                    _ => DELAYED_RETURN,
                };
                self.queue(
                    d.source,
                    d.card,
                    d.controller,
                    index as usize,
                    d.subject,
                    None,
                );
            }
        }
    }

    /// "When ~ leaves the battlefield this turn, destroy that creature" (War Barge): the
    /// delayed abilities watching `left`.
    fn source_left_triggers(&mut self, left: ObjectId) {
        let watching = |d: &DelayedTrigger| matches!(d.when, DelayedWhen::SourceLeavesThisTurn { source, .. } if source == left);
        let due: Vec<DelayedTrigger> = self.delayed.iter().copied().filter(watching).collect();
        self.delayed.retain(|d| !watching(d));
        for d in due {
            let index = match d.when {
                DelayedWhen::SourceLeavesThisTurn { regen: false, .. } => DELAYED_DESTROY_NO_REGEN,
                _ => DELAYED_DESTROY,
            };
            self.queue(
                d.source,
                d.card,
                d.controller,
                index as usize,
                d.subject,
                None,
            );
        }
    }

    /// "Whenever enchanted creature deals damage" (Spirit Link), "... to an opponent"
    /// (Ophidian Eye), "whenever ~ is dealt damage" (Phyrexian Totem, Fungus Sliver).
    fn collect_enchanted_damage_triggers(&mut self, e: &Event) {
        if let Event::Damage {
            source,
            amount,
            target,
            combat,
        } = e
            && *amount > 0
        {
            self.dealt_damage_triggers(*target, *amount, *combat);
            // "Whenever enchanted creature deals damage": the Auras attached to the source.
            let (source, amount) = (*source, *amount);
            let damaged = match target {
                crate::targets::Target::Player(p) => Some(*p),
                _ => None,
            };
            let found = self.matching(|g, id, _, w| {
                *w == TriggerEvent::EnchantedDealsDamage
                    && g.obj(id).is_some_and(|o| o.attached_to == Some(source))
            });
            // "... deals damage to an opponent": "that player" is the damaged opponent.
            let to_opponent = self.matching(|g, id, ctrl, w| {
                *w == TriggerEvent::EnchantedDealsDamageToOpponent
                    && damaged.is_some_and(|p| p != ctrl)
                    && g.obj(id).is_some_and(|o| o.attached_to == Some(source))
            });
            let found = found
                .into_iter()
                .map(|f| (f, None))
                .chain(to_opponent.into_iter().map(|f| (f, damaged)));
            for ((s, c, p, i), about) in found.collect::<Vec<_>>() {
                if self.trigger_condition_holds(c, i, p, s) {
                    self.queue(s, c, p, i, Some(source), about);
                    if let Some(t) = self.triggers.last_mut() {
                        t.amount = amount;
                    }
                }
            }
            // "Whenever a Sliver deals damage, its controller ...": "that player" is the
            // source's controller (as it last existed if it left).
            let Some(source_controller) = self.obj(source).map(|o| o.controller) else {
                return;
            };
            let found = self.matching(|g, _, _, w| match w {
                TriggerEvent::SubtypeDealsDamage(t) => g.has_subtype(source, t),
                _ => false,
            });
            for (s, c, p, i) in found {
                if self.trigger_condition_holds(c, i, p, s) {
                    self.queue(s, c, p, i, Some(source), Some(source_controller));
                    if let Some(t) = self.triggers.last_mut() {
                        t.amount = amount;
                    }
                }
            }
        }
    }

    /// "Whenever ~ is dealt damage": the damaged permanent's own abilities (granted ones
    /// too), with the damage as "that much". Combat damage is dealt all at once (510.2), so
    /// a second source's combat damage to it adds to the ability already waiting instead of
    /// triggering it again (Fungus Sliver: one counter for any number of sources).
    fn dealt_damage_triggers(&mut self, target: crate::targets::Target, amount: u32, combat: bool) {
        let crate::targets::Target::Object(victim) = target else {
            return;
        };
        let found = self.matching(|_, id, _, w| id == victim && *w == TriggerEvent::DealtDamage);
        for (s, c, p, i) in found {
            if combat
                && let Some(t) = self.triggers.iter_mut().find(|t| {
                    t.source == s
                        && t.def_card() == c
                        && t.index as usize == i
                        && t.subject == Some(victim)
                })
            {
                t.amount += amount;
                continue;
            }
            if self.trigger_condition_holds(c, i, p, s) {
                self.queue(s, c, p, i, Some(victim), None);
                if let Some(t) = self.triggers.last_mut() {
                    t.amount = amount;
                }
            }
        }
    }

    /// Abilities triggered by entering, dying, a step beginning, attacks and blocks.
    fn zone_and_combat_triggers(
        &mut self,
        e: &Event,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        match e {
            Event::EnteredBattlefield {
                object, controller, ..
            } => {
                let entering_creature = self.is_creature(*object);
                let found = self.matching(|_, id, ctrl, w| match w {
                    TriggerEvent::Enters => id == *object,
                    TriggerEvent::CreatureEnters => entering_creature,
                    TriggerEvent::SubtypeEnters(t) => self.has_subtype(*object, t),
                    TriggerEvent::AnotherCreatureEnters => id != *object && entering_creature,
                    TriggerEvent::AnotherCreatureEntersYourControl => {
                        id != *object && entering_creature && ctrl == *controller
                    }
                    _ => false,
                });
                // "That player" is the controller it entered under (Pandemonium's chooser).
                let before = self.triggers.len();
                self.queue_about_player(found, Some(*object), *controller);
                // 2014 107.3m: its own enters abilities' X is the X of the spell it was
                // (kicker {X}: Verdeloth the Ancient).
                let x = self.obj(*object).map_or(0, |o| o.cast_x);
                if x > 0 {
                    for t in self.triggers.iter_mut().skip(before) {
                        if t.source == *object && t.amount == 0 {
                            t.amount = x;
                        }
                    }
                }
                if entering_creature {
                    self.in_graveyard_enters_triggers(*object, *controller)
                } else {
                    Vec::new()
                }
            }
            Event::ZoneChanged {
                card,
                old,
                new,
                from: ZoneKind::Battlefield,
                to: ZoneKind::Graveyard,
                controller,
                ..
            } => self.dies_triggers(card, old, new, controller),
            Event::StepBegan(step @ (Step::Upkeep | Step::Draw | Step::End)) => {
                let active = self.active;
                let step = *step;
                let first_upkeep = self.upkeeps_this_turn == 1;
                let mut v: Vec<_> = self
                    .matching(|g, id, ctrl, w| match w {
                        TriggerEvent::YourUpkeep => step == Step::Upkeep && ctrl == active,
                        TriggerEvent::YourDrawStep => step == Step::Draw && ctrl == active,
                        TriggerEvent::EachEndStep => step == Step::End,
                        TriggerEvent::EachUpkeep => step == Step::Upkeep,
                        TriggerEvent::ChosenPlayersUpkeep => {
                            step == Step::Upkeep
                                && g.obj(id).and_then(|o| o.chosen)
                                    == Some(crate::object::Chosen::Player(active))
                        }
                        TriggerEvent::EnchantedPlayerFirstUpkeep => {
                            step == Step::Upkeep
                                && first_upkeep
                                && g.obj(id).is_some_and(|o| o.attached_player == Some(active))
                        }
                        _ => false,
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, None))
                    .collect();
                if step == Step::Upkeep {
                    v.extend(self.suspend_upkeep_triggers(active));
                    v.extend(self.gained_vanishing_upkeep_triggers(active));
                    v.extend(self.enchanted_controllers_upkeep_triggers(active));
                }
                v
            }
            Event::AttackersDeclared { attackers } => {
                let mut v = Vec::new();
                for (attacker, _) in attackers {
                    let a = *attacker;
                    let a_ctrl = self.obj(a).map(|o| o.controller);
                    for (s, c, p, i) in self.matching(|g, id, ctrl, w| match w {
                        TriggerEvent::Attacks => id == a,
                        TriggerEvent::CreatureAttacks => true,
                        TriggerEvent::YourCreatureWithKeywordAttacks(k) => {
                            Some(ctrl) == a_ctrl && g.has_keyword(a, *k)
                        }
                        _ => false,
                    }) {
                        v.push((s, c, p, i, Some(a)));
                    }
                }
                v
            }
            Event::BlockersDeclared { blocks } => self.blockers_declared_triggers(blocks),
            _ => Vec::new(),
        }
    }

    /// Abilities triggered as blockers are declared: "attacks and isn't blocked", "blocks",
    /// flanking, "becomes blocked (by a creature)", "another ... becomes blocked", rampage.
    fn blockers_declared_triggers(
        &mut self,
        blocks: &[(ObjectId, ObjectId)],
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let mut v = Vec::new();
        // "Whenever ~ attacks and isn't blocked": every attacker no one blocked.
        let unblocked: Vec<ObjectId> = self
            .combat
            .as_ref()
            .map(|c| {
                c.attackers
                    .iter()
                    .map(|a| a.id)
                    .filter(|a| !blocks.iter().any(|(_, x)| x == a))
                    .collect()
            })
            .unwrap_or_default();
        for a in unblocked {
            v.extend(self.own_triggers(a, &[TriggerEvent::AttacksAndIsntBlocked]));
            v.extend(self.frenzy_triggers(a));
        }
        // "Whenever ~ blocks" triggers once, however many attackers it blocks
        // (CR 509.3c, seed silent).
        let mut blockers: Vec<ObjectId> = Vec::new();
        for (blocker, _) in blocks {
            if !blockers.contains(blocker) {
                blockers.push(*blocker);
            }
        }
        for b in blockers {
            v.extend(self.own_triggers(
                b,
                &[TriggerEvent::Blocks, TriggerEvent::BlocksOrBecomesBlocked],
            ));
        }
        v.extend(self.flanking_triggers(blocks));
        // "Whenever ~ becomes blocked by a creature": once for each blocker.
        for (blocker, attacker) in blocks {
            v.extend(
                self.matching(|_, src, _, w| {
                    src == *attacker && *w == TriggerEvent::BecomesBlockedByCreature
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(*blocker))),
            );
        }
        // "Whenever ~ blocks or becomes blocked by a non-Wall creature": once for each such
        // creature on the other side of one of its blocks.
        for (blocker, attacker) in blocks {
            for (me, other) in [(*blocker, *attacker), (*attacker, *blocker)] {
                v.extend(
                    self.matching(|g, src, _, w| {
                        src == me
                            && match w {
                                TriggerEvent::BlocksOrBecomesBlockedByNonSubtype(t) => {
                                    !g.has_subtype(other, t)
                                }
                                TriggerEvent::BlocksOrBecomesBlockedByNonColor(c) => {
                                    !g.colors(other).contains(*c)
                                }
                                _ => false,
                            }
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(other))),
                );
            }
        }
        let mut blocked: Vec<ObjectId> = blocks.iter().map(|x| x.1).collect();
        blocked.sort();
        blocked.dedup();
        for a in blocked {
            let a_ctrl = self.obj(a).map(|o| o.controller);
            for (s, c, p, i) in self.matching(|g, id, ctrl, w| match w {
                TriggerEvent::AnotherOfSubtypeYouControlBecomesBlocked(t) => {
                    id != a && Some(ctrl) == a_ctrl && g.has_subtype(a, t)
                }
                _ => false,
            }) {
                v.push((s, c, p, i, Some(a)));
            }
            for (s, c, p, i) in self.matching(|g, _, _, w| match w {
                TriggerEvent::SubtypeBecomesBlocked(t) => g.has_subtype(a, t),
                _ => false,
            }) {
                v.push((s, c, p, i, Some(a)));
            }
            v.extend(self.own_triggers(
                a,
                &[
                    TriggerEvent::BecomesBlocked,
                    TriggerEvent::BlocksOrBecomesBlocked,
                ],
            ));
            v.extend(self.rampage_triggers(a));
        }
        v
    }

    /// A creature put into a graveyard from the battlefield: its own "when ~ dies", "a
    /// creature is put into your graveyard", "a creature dealt damage by ~ this turn dies" and
    /// the abilities of cards already in that graveyard.
    fn dies_triggers(
        &mut self,
        card: &CardId,
        old: &ObjectId,
        new: &ObjectId,
        controller: &PlayerId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        // The dying object's own "when ~ dies" abilities, looked up as it last existed.
        let def = self.catalog().get(*card);
        let own_graveyard: Vec<_> = def
            .triggers_on(TriggerEvent::PutIntoGraveyardFromBattlefield)
            .map(|i| (*old, *card, *controller, i, Some(*new)))
            .collect();
        // "Dies" looks back (2006 410.10 / 2014 603.10): whether it was a creature on the
        // battlefield (an animated land or artifact too; `lki_power` holds the creatures
        // that left), not whether its card is one (R-lim-dul-the-necromancer-2).
        let was_creature = self.lki_power.iter().any(|(o, _)| o == old);
        if !was_creature {
            own_graveyard
        } else {
            let mut v = own_graveyard;
            v.extend(self.enchanted_dies_triggers(*old, *new));
            if !self.haunting.is_empty() {
                // Haunt: the exiled cards haunting it (`keywords/haunt.rs`).
                v.extend(
                    self.matching(|g, id, _, w| {
                        *w == TriggerEvent::HauntedDies && g.haunting.contains(&(id, *old))
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(*new))),
                );
            }
            v.extend(
                def.triggers_on(TriggerEvent::Dies)
                    .map(|i| (*old, *card, *controller, i, Some(*new))),
            );
            let owner = self.objects[new.slot()].owner;
            v.extend(
                self.matching(|_, _, ctrl, w| {
                    (*w == TriggerEvent::CreatureToYourGraveyard && ctrl == owner)
                        || (*w == TriggerEvent::OpponentCreatureDies && ctrl != *controller)
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(*new))),
            );
            // "A creature dealt damage by ~ this turn is put into a graveyard": each
            // source that damaged it, looking back if it left too (R-vampiric-sliver-3).
            let sources: Vec<ObjectId> = self
                .damage_record
                .iter()
                .filter(|(victim, _)| victim == old)
                .map(|(_, s)| *s)
                .collect();
            for src in sources {
                v.extend(
                    self.matching(|_, id, _, w| {
                        id == src && *w == TriggerEvent::CreatureDealtDamageByThisDies
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(*new))),
                );
            }
            // Cards already in that graveyard (not ones that left the battlefield in
            // the same event: R-nether-traitor-1).
            for &g in &self.player(owner).graveyard {
                if g == *new || self.lookback.iter().any(|(o, _, _)| o.slot() == g.slot()) {
                    continue;
                }
                let Some(o) = self.obj(g) else { continue };
                for (i, t) in self.catalog().get(o.card).triggers.iter().enumerate() {
                    if t.when == TriggerEvent::InGraveyardAnotherCreatureToYourGraveyard {
                        v.push((g, o.card, owner, i, Some(*new)));
                    }
                }
            }
            v
        }
    }

    /// Cards in `controller`'s graveyard whose ability waits for a creature of a given P/T
    /// entering under their owner's control (Sword of the Meek), about `object`.
    fn in_graveyard_enters_triggers(
        &self,
        object: ObjectId,
        controller: PlayerId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        let mut v = Vec::new();
        let pt = self.power_toughness(object);
        for &g in &self.player(controller).graveyard {
            let Some(o) = self.obj(g) else { continue };
            for (i, t) in self.catalog().get(o.card).triggers.iter().enumerate() {
                if let TriggerEvent::InGraveyardCreatureEntersYourControl(p, tough) = t.when
                    && pt == Some((p, tough))
                {
                    v.push((g, o.card, controller, i, Some(object)));
                }
            }
        }
        v
    }

    /// "When enchanted creature dies": the Auras attached to the creature `old`, still on the
    /// battlefield or (looking back) put into a graveyard in the same event.
    fn enchanted_dies_triggers(
        &self,
        old: ObjectId,
        new: ObjectId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        self.matching(|g, id, _, w| {
            *w == TriggerEvent::EnchantedDies
                && match g.obj(id) {
                    Some(o) => o.attached_to == Some(old),
                    None => g.lookback_attached.contains(&(id, old)),
                }
        })
        .into_iter()
        .map(|(s, c, p, i)| (s, c, p, i, Some(new)))
        .collect()
    }

    /// "Whenever ~ deals (combat) damage to a player / an opponent" and poisonous: queued
    /// with the damaged player as "that player".
    fn damage_to_player_triggers(&mut self, source: ObjectId, damaged: PlayerId, combat: bool) {
        // "A creature you control": the damage's source, as it is now.
        let yours_creature = self
            .obj(source)
            .filter(|_| combat && self.is_creature(source))
            .map(|o| o.controller);
        let mut v: Vec<_> = self
            .matching(|_, id, ctrl, w| match w {
                TriggerEvent::YourCreatureDealsCombatDamageToPlayer => yours_creature == Some(ctrl),
                TriggerEvent::DealsCombatDamageToPlayer => id == source && combat,
                TriggerEvent::DealsDamageToPlayer => id == source,
                TriggerEvent::DealsDamageToOpponent => id == source && ctrl != damaged,
                _ => false,
            })
            .into_iter()
            .map(|(s, c, p, i)| (s, c, p, i, Some(source)))
            .collect();
        if combat {
            v.extend(self.poisonous_triggers(source));
        }
        for (s, c, p, i, subject) in v {
            self.queue(s, c, p, i, subject, Some(damaged));
        }
    }

    /// Abilities triggered by damage, life, draws, discards, counters, tapping, casting, turning face up.
    fn player_and_status_triggers(
        &mut self,
        e: &Event,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        match e {
            Event::Damage {
                source,
                target: crate::targets::Target::Player(damaged),
                combat,
                ..
            } => {
                self.damage_to_player_triggers(*source, *damaged, *combat);
                Vec::new()
            }
            Event::Damage {
                source,
                target: crate::targets::Target::Object(victim),
                ..
            } if self.ruleset.deathtouch_static()
                || !self.has_keyword(*source, Keyword::Deathtouch) =>
            {
                Vec::new()
            }
            Event::Damage {
                source,
                target: crate::targets::Target::Object(victim),
                ..
            } => {
                // Classic deathtouch (2007 502.32): a trigger destroys the creature.
                match self.obj(*source) {
                    Some(o) => vec![(
                        o.id,
                        o.card,
                        o.controller,
                        DEATHTOUCH_TRIGGER as usize,
                        Some(*victim),
                    )],
                    None => Vec::new(),
                }
            }
            Event::TurnedFaceUp { object, .. } => {
                let mut found = self.own_triggers(*object, &[TriggerEvent::TurnedFaceUp]);
                found.extend(
                    self.matching(|_, _, _, w| *w == TriggerEvent::PermanentTurnedFaceUp)
                        .into_iter()
                        .map(|(s, c, p, i)| (s, c, p, i, Some(*object))),
                );
                found
            }
            Event::LifeChanged { player, from, to } if from != to => {
                let (player, gained) = (*player, to > from);
                let found = self.matching(|_, _, ctrl, w| match w {
                    TriggerEvent::LifeGained(scope) => gained && scope.holds(ctrl, player),
                    TriggerEvent::LifeLost(scope) => !gained && scope.holds(ctrl, player),
                    _ => false,
                });
                self.queue_about_player(found, None, player);
                Vec::new()
            }
            Event::Drew {
                player,
                card: Some(_),
            } => {
                let player = *player;
                let found = self.matching(|_, _, ctrl, w| {
                    matches!(w, TriggerEvent::CardDrawn(scope) if scope.holds(ctrl, player))
                });
                self.queue_about_player(found, None, player);
                Vec::new()
            }
            Event::Discarded { player, card } => {
                let player = *player;
                let found = self.matching(|_, _, ctrl, w| {
                    matches!(w, TriggerEvent::CardDiscarded(scope) if scope.holds(ctrl, player))
                });
                self.queue_about_player(found, Some(*card), player);
                Vec::new()
            }
            Event::CountersChanged {
                object,
                kind,
                delta,
            } if *delta != 0 => {
                let (object, put) = (*object, *delta > 0);
                let mut v: Vec<_> = self
                    .matching(|g, id, ctrl, w| {
                        let (on, k) = match w {
                            TriggerEvent::LastTimeCounterRemoved => {
                                return !put
                                    && id == object
                                    && *kind == CounterKind::Time
                                    && g.obj(id).is_some_and(|o| o.counters.get(kind) == 0);
                            }
                            TriggerEvent::CountersPut { on, kind } if put => (on, kind),
                            TriggerEvent::CountersRemoved { on, kind } if !put => (on, kind),
                            _ => return false,
                        };
                        k.as_ref().is_none_or(|k| k == kind) && on.holds(g, id, ctrl, object)
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(object)))
                    .collect();
                if !put && *kind == CounterKind::Time {
                    v.extend(self.suspend_cast_trigger(object));
                    v.extend(self.gained_vanishing_sacrifice_triggers(object));
                }
                v
            }
            Event::Tapped(object) | Event::Untapped(object) => {
                let (object, tapped) = (*object, matches!(e, Event::Tapped(_)));
                self.matching(|g, id, ctrl, w| match w {
                    TriggerEvent::BecomesTapped(on) => tapped && on.holds(g, id, ctrl, object),
                    TriggerEvent::BecomesUntapped(on) => !tapped && on.holds(g, id, ctrl, object),
                    _ => false,
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(object)))
                .collect()
            }
            Event::SpellCast {
                player,
                card,
                spell,
                targets,
            } => {
                let (player, spell) = (*player, *spell);
                let found = self.spell_cast_triggers(player, *card, spell);
                // "That player" is the caster (Pardic Dragon).
                self.queue_about_player(found, Some(spell), player);
                self.becomes_target_triggers(targets, Some(player))
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(s)))
                    .collect()
            }
            // Willbender: the new target "becomes the target" of that spell or ability.
            Event::TargetChanged {
                spell,
                controller,
                target,
                ..
            } => self.target_changed_triggers(*target, spell.map(|_| *controller)),
            Event::AbilityActivated { targets, .. } | Event::TriggerPut { targets, .. } => self
                .becomes_target_triggers(targets, None)
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(s)))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Abilities triggered by `player` casting `spell` (a `card`): "whenever you cast ...",
    /// "whenever a player / an opponent casts a spell" ("becomes the target" of it is
    /// `becomes_target_triggers`).
    fn spell_cast_triggers(
        &self,
        player: PlayerId,
        card: CardId,
        spell: ObjectId,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize)> {
        let def = self.catalog().get(card);
        // As it is on the stack: a face-down spell is a 2/2 creature spell.
        let creature_spell = self.is_creature(spell);
        let spell_colors = self.colors(spell);
        self.matching(|g, id, ctrl, w| match w {
            TriggerEvent::AnyPlayerCastsSpellOfChosenColor => {
                g.chosen_color(id).is_some_and(|c| spell_colors.contains(c))
            }
            TriggerEvent::YouCastCreatureSpell => {
                ctrl == player && def.has_type(CardType::Creature)
            }
            TriggerEvent::YouCastSpell => ctrl == player,
            TriggerEvent::YouCastSpellOfType(t) => ctrl == player && def.has_type(*t),
            TriggerEvent::YouCastSpellOfTypes(ts) => {
                ctrl == player && ts.iter().any(|t| def.has_type(*t))
            }
            TriggerEvent::AnyPlayerCastsSpellOfColor(c) => spell_colors.contains(*c),
            TriggerEvent::AnyPlayerCastsSpell => true,
            TriggerEvent::OpponentCastsSpell => ctrl != player,
            TriggerEvent::OpponentCastsCreatureSpell => ctrl != player && creature_spell,
            _ => false,
        })
    }

    /// Willbender changed a target: "becomes the target" abilities of the new one
    /// (`spell_of`: the spell's controller, else an ability).
    fn target_changed_triggers(
        &self,
        target: crate::targets::Target,
        spell_of: Option<PlayerId>,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> {
        self.becomes_target_triggers(&[target], spell_of)
            .into_iter()
            .map(|(s, c, p, i)| (s, c, p, i, Some(s)))
            .collect()
    }

    /// "When ~ becomes the target of a spell or ability": the permanents among `targets`
    /// (`spell_of`: a spell cast by that player, else an ability) with such a trigger.
    fn becomes_target_triggers(
        &self,
        targets: &[crate::targets::Target],
        spell_of: Option<PlayerId>,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize)> {
        if targets.is_empty() {
            return Vec::new();
        }
        self.matching(|_, id, ctrl, w| match w {
            TriggerEvent::BecomesTarget { opponent_spell } => {
                targets.contains(&crate::targets::Target::Object(id))
                    && (!opponent_spell || spell_of.is_some_and(|p| p != ctrl))
            }
            _ => false,
        })
    }

    /// Queues abilities triggered by an event about `player` ("that player"), each only if
    /// its intervening "if" holds.
    pub(crate) fn queue_about_player(
        &mut self,
        found: Vec<(ObjectId, CardId, PlayerId, usize)>,
        subject: Option<ObjectId>,
        player: PlayerId,
    ) {
        for (s, c, p, i) in found {
            if self.trigger_condition_holds(c, i, p, s) {
                self.queue(s, c, p, i, subject, Some(player));
            }
        }
    }

    /// 410.11 / 603.8: state triggers whose state is true trigger, unless the same ability
    /// of the same object already waits to be put on the stack, is on the stack or is
    /// resolving. Called where state-based actions are checked.
    pub(crate) fn check_state_triggers(&mut self) {
        if !self.has_state_triggers {
            return;
        }
        let found = self.matching(|g, _, ctrl, w| match w {
            TriggerEvent::State(cond) => g.state_holds(cond, ctrl),
            _ => false,
        });
        for (s, c, p, i) in found {
            let same = |src: ObjectId, index: u8| src == s && index as usize == i;
            let waiting = self.triggers.iter().any(|t| same(t.source, t.index));
            let on_stack = self
                .stack
                .iter()
                .chain(self.resolution.as_ref().map(|r| &r.item))
                .any(|item| {
                    matches!(item.kind, StackKind::Trigger { source, index, .. } if same(source, index))
                });
            if !waiting && !on_stack && self.trigger_condition_holds(c, i, p, s) {
                self.queue(s, c, p, i, None, None);
            }
        }
    }

    fn state_holds(&self, cond: &StateCondition, controller: PlayerId) -> bool {
        let count = |f: &ObjectFilter| {
            self.battlefield_of(controller)
                .filter(|o| self.matches_filter(o.id, f, controller))
                .count() as u32
        };
        match cond {
            StateCondition::YouControlAtLeast(n, f) => count(f) >= *n,
            StateCondition::YouControlNo(f) => count(f) == 0,
            StateCondition::YouHaveNoCardsInHand => self.player(controller).hand.is_empty(),
        }
    }

    /// Whether the intervening "if" of trigger `index` of `card` (granted ones included)
    /// holds now for its controller and source; true without a clause.
    pub(crate) fn trigger_condition_holds(
        &self,
        card: CardId,
        index: usize,
        controller: PlayerId,
        source: ObjectId,
    ) -> bool {
        let Some(cond) = u8::try_from(index)
            .ok()
            .and_then(|i| self.trigger_def(card, i))
            .and_then(|d| d.condition)
        else {
            return true;
        };
        match cond {
            TriggerCondition::NoCreaturesOnBattlefield => {
                !self.battlefield.iter().any(|id| self.is_creature(*id))
            }
            TriggerCondition::NothingElseAndEmptyHand => {
                self.player(controller).hand.is_empty()
                    && self.battlefield_of(controller).all(|o| o.id == source)
            }
            TriggerCondition::CameUnderYourControlSinceLastUpkeep => {
                self.came_under_control_since_last_upkeep(source, controller)
            }
            TriggerCondition::Suspended => self.is_suspended(source),
            TriggerCondition::InExile | TriggerCondition::WhileExiled => {
                self.obj(source).is_some_and(|o| o.zone == ZoneKind::Exile)
            }
            TriggerCondition::Kicked(which) => self.was_kicked(source, which),
            TriggerCondition::IsEnchantment => self.has_type(source, CardType::Enchantment),
            TriggerCondition::YouControlNoTappedLands => !self
                .battlefield_of(controller)
                .any(|o| o.tapped && self.has_type(o.id, CardType::Land)),
            TriggerCondition::HasTimeCounter => self
                .obj(source)
                .is_some_and(|o| o.counters.get(&CounterKind::Time) > 0),
            TriggerCondition::HasPlusOneCounter => self
                .obj(source)
                .is_some_and(|o| o.counters.get(&CounterKind::PlusOnePlusOne) > 0),
            // Last known information: the permanent left with no time counter on it.
            TriggerCondition::HadNoTimeCounters => self.lki_without_time_counters.contains(&source),
            TriggerCondition::DealtDamageToOpponentThisTurn => self
                .player_damage_record
                .iter()
                .any(|(s, p)| *s == source && *p != controller),
            TriggerCondition::NoArrowheadCounters => self
                .obj(source)
                .is_some_and(|o| o.counters.get(&CounterKind::Named("arrowhead".to_string())) == 0),
            TriggerCondition::TappedAndLinked => {
                self.obj(source)
                    .is_some_and(|o| o.tapped && o.zone == ZoneKind::Battlefield)
                    && self.links.iter().any(|(s, _)| *s == source)
            }
            TriggerCondition::Linked => self.links.iter().any(|(s, _)| *s == source),
            TriggerCondition::DefenderControlsNoBlack => {
                let defender = self
                    .combat
                    .as_ref()
                    .and_then(|c| c.attackers.iter().find(|a| a.id == source))
                    .map(|a| a.defender);
                defender.is_some_and(|d| {
                    !self
                        .battlefield_of(d)
                        .any(|o| self.colors(o.id).contains(crate::mana::Color::B))
                })
            }
            // As it is now or, gone, as it last existed (creatures leaving the battlefield
            // are in `lki_power`).
            TriggerCondition::IsCreature => match self.obj(source) {
                Some(o) if o.zone == ZoneKind::Battlefield => self.is_creature(source),
                _ => self.lki_power.iter().any(|(o, _)| *o == source),
            },
            TriggerCondition::WasCreature => self.lki_power.iter().any(|(o, _)| *o == source),
            TriggerCondition::CastFromHand => match self.obj(source) {
                Some(o) => o.cast_from_hand,
                None => self.lki_cast_from_hand.contains(&source),
            },
            TriggerCondition::MadnessPaid => match self.obj(source) {
                Some(o) => o.madness_cast,
                None => self.lki_madness_cast.contains(&source),
            },
            TriggerCondition::CreatureCardsInGraveyardAtLeast(n) => {
                self.player(controller)
                    .graveyard
                    .iter()
                    .filter(|c| {
                        self.def(**c)
                            .is_some_and(|d| d.has_type(CardType::Creature))
                    })
                    .count()
                    >= n as usize
            }
        }
    }

    /// 410.3: puts waiting triggers on the stack, active player's first. Stops when a
    /// player must order their triggers or choose a target.
    pub(crate) fn put_triggers_on_stack(&mut self) -> StepFlow {
        for p in self.apnap() {
            let mine: Vec<usize> = (0..self.triggers.len())
                .filter(|i| self.triggers[*i].controller == p)
                .collect();
            if mine.is_empty() {
                continue;
            }
            if mine.len() >= 2 && mine.iter().any(|i| !self.triggers[*i].ordered) {
                self.pending = Some(Pending {
                    player: p,
                    decision: Decision::OrderTriggers {
                        descriptions: self.trigger_descriptions(p),
                    },
                });
                return StepFlow::Stopped;
            }
            for _ in 0..mine.len() {
                let Some(i) = self.triggers.iter().position(|t| t.controller == p) else {
                    break;
                };
                let t = self.triggers.remove(i);
                let Some(def) = self.trigger_def(t.def_card(), t.index) else {
                    continue;
                };
                if def.targets.is_empty() && def.divided.is_none() && def.modes.is_empty() {
                    self.push_trigger(t, Vec::new());
                    continue;
                }
                let c = Casting::new(p, CastKind::Trigger(t));
                if self.trigger_has_targets(&c) {
                    self.begin_trigger_targets(c);
                    return StepFlow::Stopped;
                }
                // 410.4 / 603.3c-d: no legal target (no mode that can be chosen): the
                // ability is removed.
            }
        }
        StepFlow::Continue
    }

    pub(crate) fn push_trigger(&mut self, t: WaitingTrigger, targets: Vec<crate::targets::Target>) {
        self.stack.push(StackItem {
            kind: StackKind::Trigger {
                source: t.source,
                index: t.index,
                subject: t.subject,
                player: t.player,
                granter: t.granter,
            },
            controller: t.controller,
            card: t.card,
            targets: targets.clone(),
            x: t.amount,
            mode: None,
            spent: crate::mana::ColorSet::NONE,
            division: Vec::new(),
            cost_exiled: Vec::new(),
            serial: None,
            chooser: None,
        });
        self.number_top_ability();
        self.emit(Event::TriggerPut {
            source: t.source,
            card: t.card,
            controller: t.controller,
            targets,
        });
    }

    fn trigger_descriptions(&self, p: PlayerId) -> Vec<String> {
        self.triggers
            .iter()
            .filter(|t| t.controller == p)
            .map(|t| {
                let text = self
                    .trigger_def(t.def_card(), t.index)
                    .map_or("", |d| d.text.as_str());
                format!("{}: {}", self.catalog().get(t.card).name, text)
            })
            .collect()
    }

    pub(crate) fn answer_order_triggers(
        &mut self,
        player: PlayerId,
        answer: Answer,
    ) -> Result<(), RuleError> {
        let n = self
            .triggers
            .iter()
            .filter(|t| t.controller == player)
            .count();
        let Answer::Order(order) = answer else {
            return Err(RuleError::WrongKind {
                expected: format!(
                    "an order for your {n} triggered abilities, not {}",
                    answer.kind_name()
                ),
            });
        };
        let mut sorted = order.clone();
        sorted.sort();
        if sorted != (0..n as u8).collect::<Vec<_>>() {
            return Err(RuleError::illegal(format!(
                "give each of your {n} triggered abilities once, as numbers 1 to {n} (first goes on the stack first)"
            )));
        }
        let mine: Vec<WaitingTrigger> = self
            .triggers
            .iter()
            .copied()
            .filter(|t| t.controller == player)
            .collect();
        self.triggers.retain(|t| t.controller != player);
        for i in order {
            let mut t = mine[i as usize];
            t.ordered = true;
            self.triggers.push(t);
        }
        let next = self.priority_after_sba.take().unwrap_or(self.active);
        self.give_priority(next);
        Ok(())
    }

    pub(crate) fn order_trigger_answers(&self, player: PlayerId) -> Vec<Answer> {
        let n = self
            .triggers
            .iter()
            .filter(|t| t.controller == player)
            .count() as u8;
        let mut out = vec![Answer::Order((0..n).collect())];
        if n > 1 {
            out.push(Answer::Order((0..n).rev().collect()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::CounterKind;

    #[test]
    fn parses_event_and_state_trigger_words() {
        assert_eq!(
            TriggerEvent::parse("opponent_gains_life"),
            Ok(TriggerEvent::LifeGained(PlayerScope::Opponent))
        );
        assert_eq!(
            TriggerEvent::parse("you_discard"),
            Ok(TriggerEvent::CardDiscarded(PlayerScope::You))
        );
        assert_eq!(
            TriggerEvent::parse("counters_put_on:this:spore"),
            Ok(TriggerEvent::CountersPut {
                on: ObjectScope::This,
                kind: Some(CounterKind::Named("spore".into()))
            })
        );
        assert_eq!(
            TriggerEvent::parse("counters_removed_from:your_creature"),
            Ok(TriggerEvent::CountersRemoved {
                on: ObjectScope::CreatureYouControl,
                kind: None
            })
        );
        assert_eq!(
            TriggerEvent::parse("becomes_tapped:creature"),
            Ok(TriggerEvent::BecomesTapped(ObjectScope::AnyCreature))
        );
        assert_eq!(
            TriggerEvent::parse("another_your_creature_type:Goblin_becomes_blocked"),
            Ok(TriggerEvent::AnotherOfSubtypeYouControlBecomesBlocked(
                "Goblin".into()
            ))
        );
        assert!(matches!(
            TriggerEvent::parse("state:you_control_at_least 7 type:Thrull"),
            Ok(TriggerEvent::State(StateCondition::YouControlAtLeast(7, _)))
        ));
        assert!(TriggerEvent::parse("becomes_tapped:everything").is_err());
        assert!(TriggerEvent::parse("state:you_control_at_least many type:Thrull").is_err());
        assert!(TriggerEvent::parse("state:the_moon_is_full").is_err());
    }
}
