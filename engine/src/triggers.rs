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

use crate::cards::{CardType, Keyword};
use crate::casting::{CastKind, Casting};
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::effects::Effect;
use crate::events::Event;
use crate::game::Game;
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::object::CounterKind;
use crate::stack::{StackItem, StackKind};
use crate::targets::{ObjectFilter, TargetSpec};
use crate::turn::{Step, StepFlow};
use crate::zones::ZoneKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerEvent {
    /// "When ~ enters the battlefield."
    Enters,
    /// "When ~ dies" (put into a graveyard from the battlefield).
    Dies,
    /// "Whenever another creature enters the battlefield."
    AnotherCreatureEnters,
    /// "Whenever another creature enters the battlefield under your control."
    AnotherCreatureEntersYourControl,
    /// "At the beginning of your upkeep."
    YourUpkeep,
    /// "At the beginning of the end step" (every turn's).
    EachEndStep,
    /// "Whenever ~ attacks."
    Attacks,
    /// "Whenever a creature you control with [keyword] attacks" (the subject is that creature).
    YourCreatureWithKeywordAttacks(Keyword),
    /// "Whenever ~ blocks."
    Blocks,
    /// "Whenever ~ becomes blocked."
    BecomesBlocked,
    /// "Whenever ~ blocks or becomes blocked."
    BlocksOrBecomesBlocked,
    /// "Whenever ~ deals combat damage to a player."
    DealsCombatDamageToPlayer,
    /// "Whenever ~ deals damage to a player" (any damage; "that player" is the subject
    /// player).
    DealsDamageToPlayer,
    /// "Whenever ~ deals damage to an opponent."
    DealsDamageToOpponent,
    /// "When you cast a creature spell."
    YouCastCreatureSpell,
    /// "Whenever a creature is put into your graveyard from the battlefield" (Enduring
    /// Renewal): any creature its controller owns.
    CreatureToYourGraveyard,
    /// "When ~ leaves the battlefield" (looks back: the object is gone when it triggers).
    LeavesBattlefield,
    /// "When ~ leaves the battlefield or becomes untapped" (Merieke Ri Berit).
    LeavesOrBecomesUntapped,
    /// "When a player casts a spell".
    AnyPlayerCastsSpell,
    /// "When a creature attacks" (any creature, once for each).
    CreatureAttacks,
    /// "Whenever ~ attacks and isn't blocked" (when blockers have been declared).
    AttacksAndIsntBlocked,
    /// "At the beginning of each upkeep".
    EachUpkeep,
    /// A card in its owner's graveyard: "whenever another creature is put into your
    /// graveyard from the battlefield" (Nether Traitor).
    InGraveyardAnotherCreatureToYourGraveyard,
    /// "Whenever you cast an <type> spell".
    YouCastSpellOfType(CardType),
    /// "When ~ is turned face up" (morph, 502.26 / 702.36).
    TurnedFaceUp,
    /// "Whenever <scope> gains life" (once per life-gaining event; "that player" is them).
    LifeGained(PlayerScope),
    /// "Whenever <scope> loses life" (damage to a player included).
    LifeLost(PlayerScope),
    /// "Whenever <scope> draws a card" (once per card drawn).
    CardDrawn(PlayerScope),
    /// "Whenever <scope> discards a card" (once per card; the subject is the discarded card).
    CardDiscarded(PlayerScope),
    /// "Whenever one or more [kind] counters are put on <scope>" (once per event).
    CountersPut {
        on: ObjectScope,
        kind: Option<CounterKind>,
    },
    /// "Whenever one or more [kind] counters are removed from <scope>" (once per event).
    CountersRemoved {
        on: ObjectScope,
        kind: Option<CounterKind>,
    },
    /// "Whenever <scope> becomes tapped."
    BecomesTapped(ObjectScope),
    /// "Whenever <scope> becomes untapped."
    BecomesUntapped(ObjectScope),
    /// A state trigger (2006 410.11 / modern 603.8): "when <state>", checked whenever
    /// state-based actions are; it doesn't trigger again while it waits or is on the stack.
    State(StateCondition),
    /// "Whenever a creature dealt damage by ~ this turn is put into a graveyard" (Vampiric
    /// Sliver's granted ability; `Game::damage_record`, looking back for simultaneous deaths).
    CreatureDealtDamageByThisDies,
    /// "Whenever a creature enters the battlefield" (any creature, itself included).
    CreatureEnters,
    /// "Whenever another <subtype> you control becomes blocked" (Ib Halfheart).
    AnotherOfSubtypeYouControlBecomesBlocked(String),
    /// An Aura's "whenever enchanted creature deals damage" (Spirit Link): any damage, to a
    /// player or a creature; the subject is the creature and `that_much` the damage dealt.
    EnchantedDealsDamage,
}

/// Whose event a player trigger waits for, relative to the ability's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerScope {
    You,
    Opponent,
    AnyPlayer,
}

impl PlayerScope {
    fn holds(self, controller: PlayerId, player: PlayerId) -> bool {
        match self {
            PlayerScope::You => controller == player,
            PlayerScope::Opponent => controller != player,
            PlayerScope::AnyPlayer => true,
        }
    }
}

/// Which permanent a permanent trigger waits for, relative to the ability's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectScope {
    /// "~" itself.
    This,
    /// "a creature".
    AnyCreature,
    /// "a creature you control".
    CreatureYouControl,
}

impl ObjectScope {
    fn holds(self, g: &Game, source: ObjectId, controller: PlayerId, object: ObjectId) -> bool {
        match self {
            ObjectScope::This => source == object,
            ObjectScope::AnyCreature => g.is_creature(object),
            ObjectScope::CreatureYouControl => {
                g.is_creature(object) && g.obj(object).is_some_and(|o| o.controller == controller)
            }
        }
    }

    fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "this" => ObjectScope::This,
            "creature" => ObjectScope::AnyCreature,
            "your_creature" => ObjectScope::CreatureYouControl,
            other => {
                return Err(format!(
                    "unknown permanent `{other}` (this, creature, your_creature)"
                ));
            }
        })
    }
}

/// The game states state triggers wait for (410.11 / 603.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StateCondition {
    /// "When you control N or more <filter>" (Endrek Sahr: seven or more Thrulls).
    YouControlAtLeast(u32, ObjectFilter),
    /// "When you control no <filter>" (Pirate Ship: no Islands).
    YouControlNo(ObjectFilter),
    /// "When you have no cards in hand."
    YouHaveNoCardsInHand,
}

impl StateCondition {
    /// `you_control_at_least 7 type:Thrull`, `you_control_no land type:Island`,
    /// `you_have_no_cards_in_hand`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        Ok(match words.as_slice() {
            ["you_control_at_least", n, rest @ ..] if !rest.is_empty() => {
                StateCondition::YouControlAtLeast(
                    n.parse()
                        .map_err(|_| format!("you_control_at_least `{n}`: expected a number"))?,
                    ObjectFilter::parse(rest)?,
                )
            }
            ["you_control_no", rest @ ..] if !rest.is_empty() => {
                StateCondition::YouControlNo(ObjectFilter::parse(rest)?)
            }
            ["you_have_no_cards_in_hand"] => StateCondition::YouHaveNoCardsInHand,
            _ => {
                return Err(format!(
                    "unknown state `{s}` (you_control_at_least N FILTER, you_control_no FILTER, you_have_no_cards_in_hand)"
                ));
            }
        })
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

/// The built-in delayed ability "return it to the battlefield under its owner's control"
/// (`exile_until_next_end_step`).
pub const DELAYED_RETURN: u8 = u8::MAX - 1;
/// Built-in delayed abilities "that player loses N life" for N = 1..=4 (Glass Asp): indices
/// `DELAYED_LOSE_1 + N - 1`; "that player" is the trigger's player.
pub const DELAYED_LOSE_1: u8 = u8::MAX - 9;

fn delayed_lose(n: u8) -> &'static TriggerDef {
    static DEFS: std::sync::OnceLock<Vec<TriggerDef>> = std::sync::OnceLock::new();
    let defs = DEFS.get_or_init(|| {
        (1..=4)
            .map(|n| TriggerDef {
                divided: None,
                when: TriggerEvent::EachEndStep,
                condition: None,
                targets: Vec::new(),
                effects: vec![Effect::LoseLife {
                    amount: crate::effects::Amount::Fixed(n),
                    who: crate::effects::PlayerRef::SubjectPlayer,
                }],
                text: format!(
                    "At the beginning of that player's draw step, they lose {n} life (they didn't pay)."
                ),
            })
            .collect()
    });
    &defs[(n.clamp(1, 4) - 1) as usize]
}

fn delayed_return() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        when: TriggerEvent::EachEndStep,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::ReturnToBattlefield(crate::effects::ObjRef::Subject)],
        text: "At the beginning of the next end step, return it to the battlefield under its owner's control.".into(),
    })
}

impl TriggerEvent {
    /// Script words: `enters`, `dies`, `another_creature_enters`,
    /// `another_creature_enters_your_control`, `your_upkeep`, `each_end_step`, `attacks`,
    /// `your_creature_with:trample_attacks`, `blocks`, `becomes_blocked`,
    /// `deals_combat_damage_to_player`, `deals_damage_to_player`, `deals_damage_to_opponent`,
    /// `you_cast_creature_spell`.
    pub fn parse(s: &str) -> Result<Self, String> {
        Ok(match s.trim() {
            "enters" => TriggerEvent::Enters,
            "dies" => TriggerEvent::Dies,
            "another_creature_enters" => TriggerEvent::AnotherCreatureEnters,
            "another_creature_enters_your_control" => {
                TriggerEvent::AnotherCreatureEntersYourControl
            }
            "your_upkeep" => TriggerEvent::YourUpkeep,
            "each_end_step" => TriggerEvent::EachEndStep,
            "each_upkeep" => TriggerEvent::EachUpkeep,
            "in_graveyard_another_creature_to_your_graveyard" => {
                TriggerEvent::InGraveyardAnotherCreatureToYourGraveyard
            }
            "attacks" => TriggerEvent::Attacks,
            "blocks" => TriggerEvent::Blocks,
            "becomes_blocked" => TriggerEvent::BecomesBlocked,
            "blocks_or_becomes_blocked" => TriggerEvent::BlocksOrBecomesBlocked,
            "deals_combat_damage_to_player" => TriggerEvent::DealsCombatDamageToPlayer,
            "deals_damage_to_player" => TriggerEvent::DealsDamageToPlayer,
            "deals_damage_to_opponent" => TriggerEvent::DealsDamageToOpponent,
            "you_cast_creature_spell" => TriggerEvent::YouCastCreatureSpell,
            "creature_to_your_graveyard" => TriggerEvent::CreatureToYourGraveyard,
            "leaves" => TriggerEvent::LeavesBattlefield,
            "leaves_or_becomes_untapped" => TriggerEvent::LeavesOrBecomesUntapped,
            "any_player_casts_spell" => TriggerEvent::AnyPlayerCastsSpell,
            "creature_attacks" => TriggerEvent::CreatureAttacks,
            "attacks_and_isnt_blocked" => TriggerEvent::AttacksAndIsntBlocked,
            "turned_face_up" => TriggerEvent::TurnedFaceUp,
            "you_gain_life" => TriggerEvent::LifeGained(PlayerScope::You),
            "opponent_gains_life" => TriggerEvent::LifeGained(PlayerScope::Opponent),
            "any_player_gains_life" => TriggerEvent::LifeGained(PlayerScope::AnyPlayer),
            "you_lose_life" => TriggerEvent::LifeLost(PlayerScope::You),
            "opponent_loses_life" => TriggerEvent::LifeLost(PlayerScope::Opponent),
            "any_player_loses_life" => TriggerEvent::LifeLost(PlayerScope::AnyPlayer),
            "you_draw" => TriggerEvent::CardDrawn(PlayerScope::You),
            "opponent_draws" => TriggerEvent::CardDrawn(PlayerScope::Opponent),
            "any_player_draws" => TriggerEvent::CardDrawn(PlayerScope::AnyPlayer),
            "you_discard" => TriggerEvent::CardDiscarded(PlayerScope::You),
            "opponent_discards" => TriggerEvent::CardDiscarded(PlayerScope::Opponent),
            "any_player_discards" => TriggerEvent::CardDiscarded(PlayerScope::AnyPlayer),
            "creature_dealt_damage_by_this_dies" => TriggerEvent::CreatureDealtDamageByThisDies,
            "creature_enters" => TriggerEvent::CreatureEnters,
            "enchanted_deals_damage" => TriggerEvent::EnchantedDealsDamage,
            other if other.starts_with("state:") => {
                TriggerEvent::State(StateCondition::parse(&other["state:".len()..])?)
            }
            other
                if other.starts_with("another_your_creature_type:")
                    && other.ends_with("_becomes_blocked") =>
            {
                // `another_your_creature_type:Goblin_becomes_blocked`
                let t = &other
                    ["another_your_creature_type:".len()..other.len() - "_becomes_blocked".len()];
                if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                    return Err(format!(
                        "`{other}`: expected another_your_creature_type:SUBTYPE_becomes_blocked"
                    ));
                }
                TriggerEvent::AnotherOfSubtypeYouControlBecomesBlocked(t.to_string())
            }
            other
                if other.starts_with("counters_put_on:")
                    || other.starts_with("counters_removed_from:") =>
            {
                // `counters_put_on:this[:spore]`, `counters_removed_from:creature`
                let (verb, rest) = other.split_once(':').unwrap_or((other, ""));
                let (on, kind) = match rest.split_once(':') {
                    Some((on, k)) => (on, Some(k.parse::<CounterKind>()?)),
                    None => (rest, None),
                };
                let on = ObjectScope::parse(on)?;
                if verb == "counters_put_on" {
                    TriggerEvent::CountersPut { on, kind }
                } else {
                    TriggerEvent::CountersRemoved { on, kind }
                }
            }
            other if other.starts_with("becomes_tapped:") => {
                TriggerEvent::BecomesTapped(ObjectScope::parse(&other["becomes_tapped:".len()..])?)
            }
            other if other.starts_with("becomes_untapped:") => TriggerEvent::BecomesUntapped(
                ObjectScope::parse(&other["becomes_untapped:".len()..])?,
            ),
            other if other.starts_with("you_cast_spell:") => {
                TriggerEvent::YouCastSpellOfType(other["you_cast_spell:".len()..].parse()?)
            }
            other => match other
                .strip_prefix("your_creature_with:")
                .and_then(|r| r.strip_suffix("_attacks"))
            {
                Some(k) => TriggerEvent::YourCreatureWithKeywordAttacks(k.parse()?),
                None => return Err(format!("unknown trigger event `{other}`")),
            },
        })
    }
}

/// Echo [cost] (502.19 / 702.30): "At the beginning of your upkeep, if this came under your
/// control since the beginning of your last upkeep, sacrifice it unless you pay [cost]." The
/// cost goes with the ability: turning the permanent face down later doesn't change it
/// (R-vesuvan-shapeshifter-8).
pub fn echo_trigger(cost: crate::mana::ManaCost) -> TriggerDef {
    TriggerDef {
        when: TriggerEvent::YourUpkeep,
        condition: Some(TriggerCondition::CameUnderYourControlSinceLastUpkeep),
        targets: Vec::new(),
        text: format!(
            "Echo {cost} (at the beginning of your upkeep, if this came under your control since the beginning of your last upkeep, sacrifice it unless you pay {cost})"
        ),
        effects: vec![Effect::SacrificeUnlessPays { cost }],
        divided: None,
    }
}

/// The index that names flanking's built-in trigger (502.3) instead of a card's own.
pub const FLANKING_TRIGGER: u8 = u8::MAX;
/// Trigger indices from here on name a triggered ability granted by a static ability of the
/// card: `GRANTED_TRIGGER + 4 * static index + trigger index` (`WaitingTrigger::card` is then
/// the granting card).
pub const GRANTED_TRIGGER: u8 = 64;
/// Rampage 1 and rampage 2's built-in triggers (502.12).
pub const RAMPAGE1_TRIGGER: u8 = u8::MAX - 2;
pub const RAMPAGE2_TRIGGER: u8 = u8::MAX - 3;
/// Classic deathtouch's built-in trigger (2007 CR 502.32, Δ16).
pub const DEATHTOUCH_TRIGGER: u8 = u8::MAX - 4;
/// Vesuvan Shapeshifter's copy exception (706.9b): "At the beginning of your upkeep, you
/// may turn this creature face down."
pub const SHAPESHIFTER_TRIGGER: u8 = u8::MAX - 5;
/// Indices from here up name built-in abilities (keywords' triggers, delayed returns);
/// granted abilities stay below.
const FIRST_BUILTIN: u8 = DELAYED_LOSE_1;

/// 502.3: "Whenever a creature without flanking blocks this creature, the blocking creature
/// gets -1/-1 until end of turn." The subject is that blocker.
fn flanking_trigger() -> &'static TriggerDef {
    static DEF: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    DEF.get_or_init(|| TriggerDef {
        divided: None,
        when: TriggerEvent::Blocks,
        condition: None,
        targets: Vec::new(),
        effects: vec![Effect::Pump {
            what: crate::effects::ObjRef::Subject,
            power: -1,
            toughness: -1,
        }],
        text: "Flanking: the blocking creature gets -1/-1 until end of turn.".into(),
    })
}

/// 502.12a: "Whenever this creature becomes blocked, it gets +N/+N until end of turn for
/// each creature blocking it beyond the first." The subject is the blocked creature; the
/// count is made on resolution (502.12b).
fn rampage_trigger(n: i32) -> TriggerDef {
    TriggerDef {
        divided: None,
        when: TriggerEvent::BecomesBlocked,
        targets: Vec::new(),
        effects: vec![Effect::PumpCount {
            what: crate::effects::ObjRef::Subject,
            amount: crate::effects::Amount::BlockersBeyondFirst,
            power: n,
            toughness: n,
        }],
        text: format!(
            "Rampage {n}: it gets +{n}/+{n} until end of turn for each creature blocking it beyond the first."
        ),
        condition: None,
    }
}

fn builtin_trigger(index: u8) -> Option<&'static TriggerDef> {
    static R1: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static R2: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static DT: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
    static SH: std::sync::OnceLock<TriggerDef> = std::sync::OnceLock::new();
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
        })),
        FLANKING_TRIGGER => Some(flanking_trigger()),
        RAMPAGE1_TRIGGER => Some(R1.get_or_init(|| rampage_trigger(1))),
        RAMPAGE2_TRIGGER => Some(R2.get_or_init(|| rampage_trigger(2))),
        // `when` is not consulted for built-in abilities: `collect_triggers` matches them
        // (classic deathtouch on damage dealt to a creature).
        DEATHTOUCH_TRIGGER => Some(DT.get_or_init(|| TriggerDef {
            divided: None,
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

/// A triggered ability of a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriggerDef {
    pub when: TriggerEvent,
    /// An intervening "if" clause (410.10e / 603.4): checked when the event happens (else
    /// the ability doesn't trigger) and again as it resolves (else it does nothing).
    pub condition: Option<TriggerCondition>,
    pub targets: Vec<TargetSpec>,
    pub effects: Vec<Effect>,
    pub text: String,
    /// "It deals N damage divided as you choose among any number of targets" (Bogardan
    /// Hellkite): the division is chosen as it is put on the stack (410.4 / 603.3d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divided: Option<crate::cards::DividedDamage>,
}

/// The intervening "if" clauses the card scripts use (`if = "..."`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerCondition {
    /// "if no creatures are on the battlefield" (Pyrohemia).
    NoCreaturesOnBattlefield,
    /// "if you control no permanents other than ~ and have no cards in hand" (Barren Glory).
    NothingElseAndEmptyHand,
    /// Echo's "if this permanent came under your control since the beginning of your last
    /// upkeep" (502.19a / 702.30a).
    CameUnderYourControlSinceLastUpkeep,
}

impl TriggerCondition {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "no_creatures_on_battlefield" => Ok(TriggerCondition::NoCreaturesOnBattlefield),
            "nothing_else_and_empty_hand" => Ok(TriggerCondition::NothingElseAndEmptyHand),
            other => Err(format!(
                "unknown condition `{other}` (no_creatures_on_battlefield, nothing_else_and_empty_hand)"
            )),
        }
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
    fn matching(
        &self,
        pred: impl Fn(&Game, ObjectId, PlayerId, &TriggerEvent) -> bool,
    ) -> Vec<(ObjectId, CardId, PlayerId, usize)> {
        let mut out = Vec::new();
        for &id in &self.battlefield {
            let Some(o) = self.obj(id) else { continue };
            if self.layered() {
                for (card, st) in self.granted_now_or_before(id) {
                    let grants = &self.catalog().get(card).statics[st as usize].grant_triggers;
                    for (k, t) in grants.iter().enumerate() {
                        if pred(self, id, o.controller, &t.when) {
                            let index = GRANTED_TRIGGER as usize + 4 * st as usize + k;
                            out.push((id, card, o.controller, index));
                        }
                    }
                }
            }
            if !self.has_own_abilities(id) {
                continue;
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

    /// 410.2: an event happened; note every ability it triggers.
    pub(crate) fn collect_triggers(&mut self, e: &Event) {
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
        if let Event::StepBegan(Step::End) = e
            && !self.delayed.is_empty()
        {
            let due: Vec<DelayedTrigger> = self
                .delayed
                .iter()
                .copied()
                .filter(|d| d.when == DelayedWhen::NextEndStep)
                .collect();
            self.delayed.retain(|d| d.when != DelayedWhen::NextEndStep);
            for d in due {
                self.queue(
                    d.source,
                    d.card,
                    d.controller,
                    DELAYED_RETURN as usize,
                    d.subject,
                    None,
                );
            }
        }
        if let Event::Damage { source, amount, .. } = e
            && *amount > 0
        {
            // "Whenever enchanted creature deals damage": the Auras attached to the source.
            let (source, amount) = (*source, *amount);
            let found = self.matching(|g, id, _, w| {
                *w == TriggerEvent::EnchantedDealsDamage
                    && g.obj(id).is_some_and(|o| o.attached_to == Some(source))
            });
            for (s, c, p, i) in found {
                if self.trigger_condition_holds(c, i, p, s) {
                    self.queue(s, c, p, i, Some(source), None);
                    if let Some(t) = self.triggers.last_mut() {
                        t.amount = amount;
                    }
                }
            }
        }
        let found: Vec<(ObjectId, CardId, PlayerId, usize, Option<ObjectId>)> = match e {
            Event::EnteredBattlefield {
                object, controller, ..
            } => {
                let entering_creature = self.is_creature(*object);
                let found = self.matching(|_, id, ctrl, w| match w {
                    TriggerEvent::Enters => id == *object,
                    TriggerEvent::CreatureEnters => entering_creature,
                    TriggerEvent::AnotherCreatureEnters => id != *object && entering_creature,
                    TriggerEvent::AnotherCreatureEntersYourControl => {
                        id != *object && entering_creature && ctrl == *controller
                    }
                    _ => false,
                });
                // "That player" is the controller it entered under (Pandemonium's chooser).
                self.queue_about_player(found, Some(*object), *controller);
                Vec::new()
            }
            Event::ZoneChanged {
                card,
                old,
                new,
                from: ZoneKind::Battlefield,
                to: ZoneKind::Graveyard,
                controller,
                ..
            } => {
                // The dying object's own "when ~ dies" abilities, looked up as it last existed.
                let def = self.catalog().get(*card);
                if !def.has_type(CardType::Creature) {
                    Vec::new()
                } else {
                    let mut v: Vec<_> = def
                        .triggers
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| t.when == TriggerEvent::Dies)
                        .map(|(i, _)| (*old, *card, *controller, i, Some(*new)))
                        .collect();
                    let owner = self.objects[new.slot()].owner;
                    v.extend(
                        self.matching(|_, _, ctrl, w| {
                            *w == TriggerEvent::CreatureToYourGraveyard && ctrl == owner
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
            Event::StepBegan(step @ (Step::Upkeep | Step::End)) => {
                let active = self.active;
                let step = *step;
                self.matching(|_, _, ctrl, w| match w {
                    TriggerEvent::YourUpkeep => step == Step::Upkeep && ctrl == active,
                    TriggerEvent::EachEndStep => step == Step::End,
                    TriggerEvent::EachUpkeep => step == Step::Upkeep,
                    _ => false,
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, None))
                .collect()
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
            Event::BlockersDeclared { blocks } => {
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
                // 502.3: each instance of flanking triggers for each blocker without flanking
                // (502.3b).
                for (blocker, attacker) in blocks {
                    if !self.has_keyword(*blocker, Keyword::Flanking)
                        && let Some(a) = self.obj(*attacker)
                    {
                        for _ in 0..self.keyword_instances(*attacker, Keyword::Flanking) {
                            v.push((
                                a.id,
                                a.card,
                                a.controller,
                                FLANKING_TRIGGER as usize,
                                Some(*blocker),
                            ));
                        }
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
                    v.extend(self.own_triggers(
                        a,
                        &[
                            TriggerEvent::BecomesBlocked,
                            TriggerEvent::BlocksOrBecomesBlocked,
                        ],
                    ));
                    // 502.12: each instance of rampage triggers separately (502.12c).
                    if let Some(o) = self.obj(a) {
                        for (k, index) in [
                            (Keyword::Rampage1, RAMPAGE1_TRIGGER),
                            (Keyword::Rampage2, RAMPAGE2_TRIGGER),
                        ] {
                            for _ in 0..self.keyword_instances(a, k) {
                                v.push((o.id, o.card, o.controller, index as usize, Some(a)));
                            }
                        }
                    }
                }
                v
            }
            Event::Damage {
                source,
                target: crate::targets::Target::Player(damaged),
                combat,
                ..
            } => {
                let damaged = *damaged;
                let v: Vec<_> = self
                    .matching(|_, id, ctrl, w| {
                        id == *source
                            && match w {
                                TriggerEvent::DealsCombatDamageToPlayer => *combat,
                                TriggerEvent::DealsDamageToPlayer => true,
                                TriggerEvent::DealsDamageToOpponent => ctrl != damaged,
                                _ => false,
                            }
                    })
                    .into_iter()
                    .map(|(s, c, p, i)| (s, c, p, i, Some(*source)))
                    .collect();
                for (s, c, p, i, subject) in v {
                    self.queue(s, c, p, i, subject, Some(damaged));
                }
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
                self.own_triggers(*object, &[TriggerEvent::TurnedFaceUp])
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
                self.matching(|g, id, ctrl, w| {
                    let (on, k) = match w {
                        TriggerEvent::CountersPut { on, kind } if put => (on, kind),
                        TriggerEvent::CountersRemoved { on, kind } if !put => (on, kind),
                        _ => return false,
                    };
                    k.as_ref().is_none_or(|k| k == kind) && on.holds(g, id, ctrl, object)
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(object)))
                .collect()
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
                ..
            } => {
                let def = self.catalog().get(*card);
                let player = *player;
                self.matching(|_, _, ctrl, w| match w {
                    TriggerEvent::YouCastCreatureSpell => {
                        ctrl == player && def.has_type(CardType::Creature)
                    }
                    TriggerEvent::YouCastSpellOfType(t) => ctrl == player && def.has_type(*t),
                    TriggerEvent::AnyPlayerCastsSpell => true,
                    _ => false,
                })
                .into_iter()
                .map(|(s, c, p, i)| (s, c, p, i, Some(*spell)))
                .collect()
            }
            _ => Vec::new(),
        };
        for (s, c, p, i, subject) in found {
            // An intervening "if" must be true for the ability to trigger at all.
            if self.trigger_condition_holds(c, i, p, s) {
                self.queue(s, c, p, i, subject, None);
            }
        }
    }

    /// Queues abilities triggered by an event about `player` ("that player"), each only if
    /// its intervening "if" holds.
    fn queue_about_player(
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
            // "Your last upkeep" is the one before the upkeep now under way (it began first:
            // `begin_step`), also when the ability resolves.
            TriggerCondition::CameUnderYourControlSinceLastUpkeep => {
                self.obj(source).is_some_and(|o| {
                    o.controller == controller
                        && o.control_clock > self.player(controller).upkeeps_began[1]
                })
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
                if def.targets.is_empty() && def.divided.is_none() {
                    self.push_trigger(t, Vec::new());
                    continue;
                }
                let c = Casting::new(p, CastKind::Trigger(t));
                if self.trigger_has_targets(&c) {
                    self.begin_trigger_targets(c);
                    return StepFlow::Stopped;
                }
                // 410.4: no legal target: the ability is removed.
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
        });
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
