//! The vocabulary of ability definitions (rules 402-405; 2014: 112, 603-605) that card
//! scripts compile to and that the low floor of the engine names: triggered abilities
//! ([`TriggerDef`], their events and intervening "if" clauses), static prevention, and the
//! copy abilities of creature cards. A leaf module: matching, resolving and applying these
//! are the rules procedures' work ([`crate::triggers`], [`crate::replacement`],
//! [`crate::copy`]).

use crate::effects::Effect;
use crate::ids::PlayerId;
use crate::keywords::Keyword;
use crate::object::CounterKind;
use crate::targets::{ObjectFilter, TargetSpec};
use crate::types::CardType;
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
    /// "At the beginning of each of your draw steps" (Giant Oyster).
    YourDrawStep,
    /// "At the beginning of enchanted player's first upkeep each turn" (an Aura attached
    /// to a player: Paradox Haze); "that player" is the enchanted player.
    EnchantedPlayerFirstUpkeep,
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
    /// "Whenever a creature you control deals combat damage to a player" (Lavacore
    /// Elemental): the subject is that creature, "that player" the one dealt damage.
    YourCreatureDealsCombatDamageToPlayer,
    /// "Whenever ~ deals damage to a player" (any damage; "that player" is the subject
    /// player).
    DealsDamageToPlayer,
    /// "Whenever ~ deals damage to an opponent."
    DealsDamageToOpponent,
    /// "When you cast a creature spell."
    YouCastCreatureSpell,
    /// "Whenever you cast a spell" (Voidmage Husher): any spell its controller casts.
    YouCastSpell,
    /// "Whenever a creature is put into your graveyard from the battlefield" (Enduring
    /// Renewal): any creature its controller owns.
    CreatureToYourGraveyard,
    /// "Whenever a creature an opponent controls dies" (Lim-Dûl the Necromancer); the
    /// subject is the card in the graveyard.
    OpponentCreatureDies,
    /// "When ~ leaves the battlefield" (looks back: the object is gone when it triggers).
    LeavesBattlefield,
    /// "When ~ is put into your graveyard from your library" (Gaea's Blessing): the card
    /// itself, milled or otherwise moved there; its source is the card in the graveyard.
    PutIntoYourGraveyardFromLibrary,
    /// "When ~ leaves the battlefield or becomes untapped" (Merieke Ri Berit).
    LeavesOrBecomesUntapped,
    /// "When a player casts a spell".
    AnyPlayerCastsSpell,
    /// "Whenever an opponent casts a spell" (Deep-Sea Kraken, Pardic Dragon, Kaervek the
    /// Merciless: the subject is the spell, "that player" its caster).
    OpponentCastsSpell,
    /// "When an opponent casts a creature spell" (Opal Guardian): a face-down spell is a
    /// creature spell (R-opal-guardian-3).
    OpponentCastsCreatureSpell,
    /// "Whenever a card is put into an opponent's graveyard from anywhere" (Nihilith): any
    /// card (not a token) an opponent owns; the subject is the card in the graveyard.
    CardToOpponentGraveyard,
    /// "When ~ becomes the target of a spell or ability" (Skulking Knight: as a spell is
    /// cast, an ability activated or a triggered ability put on the stack targeting it), or
    /// with `opponent_spell` only "of a spell an opponent controls" (Opaline Sliver's grant).
    BecomesTarget { opponent_spell: bool },
    /// "Whenever ~ becomes blocked by a creature" (Evil Eye of Urborg): once for each
    /// blocker; the subject is that blocker.
    BecomesBlockedByCreature,
    /// "Whenever ~ blocks or becomes blocked by a non-<subtype> creature" (Cockatrice: Wall):
    /// once for each such creature it blocks or is blocked by; the subject is that creature.
    BlocksOrBecomesBlockedByNonSubtype(String),
    /// "Whenever ~ blocks or becomes blocked by a non<colour> creature" (Gorgon Recluse:
    /// nonblack), as the blocks are declared; the subject is that creature.
    BlocksOrBecomesBlockedByNonColor(crate::mana::Color),
    /// "Whenever <scope> cycles a card" (502.18 / 702.28: cycling and typecycling alike;
    /// `keywords/cycling.rs`).
    PlayerCycles(PlayerScope),
    /// "When a creature attacks" (any creature, once for each).
    CreatureAttacks,
    /// "Whenever ~ attacks and isn't blocked" (when blockers have been declared).
    AttacksAndIsntBlocked,
    /// "At the beginning of each upkeep".
    EachUpkeep,
    /// A card in its owner's graveyard: "whenever another creature is put into your
    /// graveyard from the battlefield" (Nether Traitor).
    InGraveyardAnotherCreatureToYourGraveyard,
    /// A card in its owner's graveyard: "whenever a P/T creature enters the battlefield
    /// under your control" (Sword of the Meek: 1/1), its P/T as it entered.
    InGraveyardCreatureEntersYourControl(i32, i32),
    /// "Whenever you cast an <type> spell".
    YouCastSpellOfType(CardType),
    /// "Whenever you cast an instant or sorcery spell" (Mirari): a spell with any of these
    /// types; the subject is the spell.
    YouCastSpellOfTypes(Vec<CardType>),
    /// "Whenever a player casts a <colour> spell" (Sol'kanar the Swamp King): the spell's
    /// colour as it is cast.
    AnyPlayerCastsSpellOfColor(crate::mana::Color),
    /// "Whenever a player casts a spell of the chosen color" (Paradise Plume): the color
    /// its source chose as it entered (`as_enters.rs`).
    AnyPlayerCastsSpellOfChosenColor,
    /// "Whenever a <subtype> deals damage" (Essence Sliver): any permanent of the subtype,
    /// whoever controls it, once per damage event; the subject is the source, "that player"
    /// its controller and `that_much` the damage dealt.
    SubtypeDealsDamage(String),
    /// "Whenever a <subtype> enters the battlefield" (Baru, Fist of Krosa: a Forest): any
    /// permanent with that subtype, under any player's control; the subject is it.
    SubtypeEnters(String),
    /// An Aura's "at the beginning of the upkeep of enchanted creature's controller"
    /// (Unstable Mutation): the subject is the enchanted creature.
    EnchantedControllersUpkeep,
    /// "At the beginning of the chosen player's upkeep" (The Rack): the player its source
    /// chose as it entered (`as_enters.rs`) is the active player; that player is "that
    /// player".
    ChosenPlayersUpkeep,
    /// "Whenever a <subtype> becomes blocked" (Spined Sliver): any creature of the
    /// subtype, whoever controls it; the subject is the blocked creature.
    SubtypeBecomesBlocked(String),
    /// "When ~ is turned face up" (morph, 502.26 / 702.36).
    TurnedFaceUp,
    /// "When you cast this spell" (Brain Gorgers): the spell's own ability, triggered as it
    /// is cast (by its controller), with the spell on the stack as its source.
    CastThis,
    /// "When a spell or ability an opponent controls causes you to discard ~" (Quagnoth): the
    /// card's own ability, from the zone the discard put it in; `it` is the card there.
    DiscardedByOpponent,
    /// "When ~'s echo cost is paid" (Shah of Naar Isle; `keywords/echo.rs`): also when
    /// Thick-Skinned Goblin's {0} was paid instead.
    EchoPaid,
    /// "Whenever ~ or another permanent is turned face up" (Unblinking Bleb): any
    /// permanent, itself included.
    PermanentTurnedFaceUp,
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
    /// An Aura's "whenever enchanted creature deals damage to an opponent" (Ophidian Eye):
    /// an opponent of the Aura's controller; "that player" is the damaged player.
    EnchantedDealsDamageToOpponent,
    /// "Whenever ~ is dealt damage" (Phyrexian Totem; Fungus Sliver's grant): once per
    /// damage event, and once for all the combat damage dealt to it at the same time (a
    /// Fungus Sliver ruling); the subject is itself and `that_much` the damage dealt.
    DealtDamage,
    /// "When ~ is put into a graveyard from the battlefield" (any card type: the Auras that
    /// return to hand, A20); the subject is the card in the graveyard.
    PutIntoGraveyardFromBattlefield,
    /// "When the last time counter is removed from this permanent" (vanishing, 702.62a): it
    /// had time counters and a removal left none.
    LastTimeCounterRemoved,
    /// An Aura's "when enchanted creature dies" (Fool's Demise, Griffin Guide): the subject
    /// is the creature card in the graveyard; the Aura looks back if it left at the same
    /// time (`Game::lookback_attached`).
    EnchantedDies,
    /// Haunt's "when the creature it haunts dies" (`keywords/haunt.rs`): an ability of the
    /// exiled card haunting the creature; the subject is the creature card in the graveyard.
    HauntedDies,
}

/// Whose event a player trigger waits for, relative to the ability's controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerScope {
    You,
    Opponent,
    AnyPlayer,
}

impl PlayerScope {
    pub(crate) fn holds(self, controller: PlayerId, player: PlayerId) -> bool {
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
    /// "enchanted / equipped creature", "fortified land": the permanent the source is
    /// attached to (`keywords/equip.rs`).
    Attached,
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
    /// `you_have_no_cards_in_hand` (the grammar: [`crate::grammar::events`]).
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::events::state, s)
    }
}

impl TriggerEvent {
    /// Script words: `enters`, `dies`, `another_creature_enters`,
    /// `another_creature_enters_your_control`, `your_upkeep`, `each_end_step`, `attacks`,
    /// `your_creature_with:trample_attacks`, `blocks`, `becomes_blocked`,
    /// `deals_combat_damage_to_player`, `deals_damage_to_player`, `deals_damage_to_opponent`,
    /// `you_cast_creature_spell` (the grammar: [`crate::grammar::events`]).
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::events::event, s)
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
    /// A modal triggered ability ("choose one —", 2006 410.4 / 2014 603.3c): the mode is
    /// chosen as it is put on the stack, a mode with no legal target can't be chosen, and
    /// with no mode that can be, the ability is removed. When present, `targets` and
    /// `effects` are empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<crate::cards::SpellMode>,
}

impl TriggerDef {
    /// An ability of a card in exile (2006 402.8 / 2014 112.6k): "if ~ is suspended", "...
    /// while it's exiled"; it triggers only there.
    pub fn functions_in_exile(&self) -> bool {
        matches!(
            self.condition,
            Some(TriggerCondition::Suspended | TriggerCondition::WhileExiled)
        ) || self.when == TriggerEvent::HauntedDies
    }
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
    /// Suspend's "if this card is suspended" (502.59b / 702.61b).
    Suspended,
    /// Suspend's "if it's exiled" (its last-counter trigger).
    InExile,
    /// "... while it's exiled" (Benalish Commander, Riftmarked Knight): the ability
    /// functions only while the card is in exile (2006 402.8 / 2014 112.6k), so it triggers
    /// only there; unlike an intervening "if" it is not checked again as it resolves (the
    /// card may have been cast meanwhile).
    WhileExiled,
    /// "If ~ is an enchantment" (Opal Guardian), as it is now.
    IsEnchantment,
    /// "If you control no tapped lands" (Nantuko Shaman).
    YouControlNoTappedLands,
    /// "If it was kicked" (502.21b / 702.32), with its first (`Some(0)`, "[A]") or second
    /// (`Some(1)`) printed kicker cost, or any (`None`).
    Kicked(Option<u8>),
    /// Vanishing's "if there is a time counter on this permanent" (702.62a).
    HasTimeCounter,
    /// Graft's "if this permanent has a +1/+1 counter on it" (702.57a).
    HasPlusOneCounter,
    /// "When ~ dies, if it had no time counters on it" (vanishing creatures of Planar Chaos
    /// and Future Sight): as it last existed on the battlefield
    /// (`Game::lki_without_time_counters`).
    HadNoTimeCounters,
    /// "If there are no arrowhead counters on ~" (Serrated Arrows).
    NoArrowheadCounters,
    /// "If ~ dealt damage to an opponent this turn" (Whirling Dervish;
    /// `Game::player_damage_record`).
    DealtDamageToOpponentThisTurn,
    /// Giant Oyster's "for as long as ~ remains tapped": the source is tapped on the
    /// battlefield and its ability linked an object (`Game::links`).
    TappedAndLinked,
    /// Its ability linked an object that is still linked (`Game::links`).
    Linked,
    /// "If you have N or more creature cards in your graveyard" (Pit Keeper).
    CreatureCardsInGraveyardAtLeast(u32),
    /// "If defending player controls no black permanents" (Spectral Force's attack trigger):
    /// the player the source attacks.
    DefenderControlsNoBlack,
    /// "If it's a creature" (Phyrexian Totem): the source is a creature now or, if it has
    /// left the battlefield, was one as it left (last known information, `Game::lki_power`).
    IsCreature,
    /// "If it was a creature" (Weatherseed Totem's "when ~ is put into a graveyard from the
    /// battlefield"): it was a creature as it left the battlefield (`Game::lki_power`).
    WasCreature,
    /// "If you cast it from your hand" (Coal Stoker's enters trigger): the permanent was a
    /// spell its controller cast from their hand (`Object::cast_from_hand`), or was as it
    /// left the battlefield (`Game::lki_cast_from_hand`). A copy entering as a copy of it
    /// (Clone) asks about its own spell.
    CastFromHand,
    /// "If its madness cost was paid" (Grave Scrabbler's enters trigger): the permanent was a
    /// spell cast for its madness cost (`Object::madness_cast`), or was as it left the
    /// battlefield (`Game::lki_madness_cast`; `keywords/madness.rs`).
    MadnessPaid,
}

impl TriggerCondition {
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::events::condition, s)
    }
}

/// A static prevention ability of a permanent (script key `prevent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StaticPrevention {
    /// Plated Pegasus: prevent N of the damage each spell would deal to each permanent or
    /// player.
    SpellDamage(u32),
    /// Uncle Istvan: prevent all damage creatures would deal to this permanent.
    FromCreaturesToThis,
    /// An Aura's "prevent all damage that would be dealt by enchanted creature" (Temporal
    /// Isolation).
    ByEnchanted,
    /// Phantom Wurm: "If damage would be dealt to ~, prevent that damage. Remove a +1/+1
    /// counter from ~." (one counter per prevented damage event, none needed).
    AllToThisRemovingPlusOneCounter,
}

impl StaticPrevention {
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::events::static_prevention, s)
    }
}

/// The copy ability a creature card has as it enters the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CopyCreature {
    /// "As ~ enters the battlefield, you may choose a creature on the battlefield. If you
    /// do, ~ enters as a copy of that creature." (Clone)
    Clone,
    /// Vesuvan Shapeshifter: as it enters or is turned face up, it may copy another
    /// creature until it is turned face down, with "At the beginning of your upkeep, you
    /// may turn this creature face down."
    Shapeshifter,
}

impl CopyCreature {
    pub fn parse(s: &str) -> Result<Self, String> {
        crate::grammar::parse_all(crate::grammar::events::copy_creature, s)
    }
}

/// How long a copy effect lasts (besides the object leaving the battlefield).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum CopyUntil {
    /// It entered as a copy: for as long as it stays.
    #[default]
    AsEntered,
    /// Vesuvan Shapeshifter: until it is turned face down.
    TurnedFaceDown,
    /// Scion of the Ur-Dragon: until end of turn (the cleanup step).
    EndOfTurn,
}

impl CopyUntil {
    pub fn is_as_entered(&self) -> bool {
        *self == CopyUntil::AsEntered
    }
}

/// What the chooser may copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum CopyKind {
    #[default]
    Land,
    Creature,
}
