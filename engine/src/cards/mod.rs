//! Card definitions: facts (generated from MTGJSON into `engine/cards/facts.toml`) merged
//! with hand-written behaviour scripts (`engine/cards/scripts/*.toml`). See
//! `engine/cards/README.md` for the script format.
//!
//! The catalog is immutable data compiled into the binary; [`Catalog::builtin`] loads and
//! validates it once. A card without a script, or whose script uses something the engine
//! cannot play yet, is *unsupported*: it can be looked at but is refused in decks.

mod script;

use crate::costs::Cost;
use crate::effects::Effect;
use crate::ids::CardId;
use crate::mana::{Color, ColorSet, ManaCost, ManaType};
use crate::object::CounterKind;
use crate::targets::TargetSpec;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub use script::ScriptError;

pub use crate::keywords::Keyword;
pub use crate::types::{BASIC_LAND_TYPES, CardType, Supertype};

/// Printed power or toughness: a number or `*` (a characteristic-defining ability).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PtValue {
    Fixed(i32),
    Star,
    /// "1+*" (Tarmogoyf).
    StarPlus(i32),
}

impl fmt::Display for PtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PtValue::Fixed(n) => write!(f, "{n}"),
            PtValue::Star => f.write_str("*"),
            PtValue::StarPlus(n) => write!(f, "{n}+*"),
        }
    }
}

/// When an activated ability may be activated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum AbilityTiming {
    /// Any time its controller has priority (403 default).
    #[default]
    Instant,
    /// Only when a sorcery could be cast.
    Sorcery,
    /// "Activate only during your upkeep."
    YourUpkeep,
    /// "Activate only during the end of combat step" (Desert): any player's.
    EndOfCombat,
    /// "Activate only during your turn" (Dementia Sliver's grant): any step of it.
    YourTurn,
}

/// An extra condition on activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActivationCondition {
    /// "Activate only if you have exactly N cards in hand."
    HandSizeExactly(u32),
    /// "Activate only if ~ is a creature" (Chronatog Totem).
    SourceIsCreature,
}

/// What a mana ability adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ManaProduce {
    /// Exactly these mana.
    Fixed(Vec<ManaType>),
    /// One mana of any colour (chosen as it resolves).
    AnyColor,
    /// One mana of one of these types.
    OneOf(Vec<ManaType>),
    /// "Add X mana in any combination of {W} and/or {U}" (the storage lands, A21): X is the
    /// number of counters its cost removes; the colours are chosen as it is activated
    /// (`Answer::ActivateManaX`, `keywords/storage.rs`).
    XCombination(Vec<Color>),
    /// "Add {C}. If ~ has a <kind> counter on it, instead add one mana of any color"
    /// (Gemstone Caverns: `add = "{C}, any with luck counter"`; `Game::mana_options`).
    ColorlessOrAnyWithCounter(crate::object::CounterKind),
    /// "Add N mana of any one color" (Lotus Bloom: `add = "3 of any one color"`): the colour
    /// is chosen as it is activated (`Answer::ActivateMana`'s `color`), all N of it.
    AnyOneColor(u32),
    /// "Add one mana of the chosen color" (Paradise Plume: `add = "chosen color"`): the
    /// color its source chose as it entered (`as_enters.rs`; `Game::mana_options`).
    ChosenColor,
    /// "Add {C}. If you control an Urza's Power-Plant and an Urza's Tower, add {C}{C}
    /// instead" (the Urza lands, test fixtures: `add = "{C}, 2 if you control Power-Plant
    /// and Tower"`): `n` colorless mana while the source's controller controls a permanent
    /// of each of these subtypes (`Game::mana_amount`).
    ColorlessMoreIfYouControl { n: u32, subtypes: Vec<String> },
}

impl ManaProduce {
    /// The colours this ability can make (for the payment solver).
    pub fn options(&self) -> Vec<ManaType> {
        match self {
            ManaProduce::Fixed(v) => v.clone(),
            // Which one of them depends on the choice (`Game::mana_options`).
            ManaProduce::AnyColor | ManaProduce::AnyOneColor(_) | ManaProduce::ChosenColor => {
                Color::ALL.into_iter().map(ManaType::Colored).collect()
            }
            ManaProduce::OneOf(v) => v.clone(),
            ManaProduce::XCombination(v) => v.iter().map(|c| ManaType::Colored(*c)).collect(),
            // Which of the two depends on its counters (`Game::mana_options`).
            ManaProduce::ColorlessOrAnyWithCounter(_) => std::iter::once(ManaType::Colorless)
                .chain(Color::ALL.into_iter().map(ManaType::Colored))
                .collect(),
            ManaProduce::ColorlessMoreIfYouControl { .. } => vec![ManaType::Colorless],
        }
    }
    /// How much mana one activation makes (0: X, chosen as it is activated).
    pub fn amount(&self) -> u32 {
        match self {
            ManaProduce::Fixed(v) => v.len() as u32,
            ManaProduce::XCombination(_) => 0,
            ManaProduce::AnyOneColor(n) => *n,
            _ => 1,
        }
    }
}

/// An activated ability (rule 403); mana abilities (406) have `mana: Some(..)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivatedAbility {
    pub cost: Cost,
    pub targets: Vec<TargetSpec>,
    pub effects: Vec<Effect>,
    pub mana: Option<ManaProduce>,
    pub timing: AbilityTiming,
    pub condition: Option<ActivationCondition>,
    /// Rules text shown to players.
    pub text: String,
    /// A cycling or typecycling ability (502.18 / 702.28, `keywords/cycling.rs`): it can be
    /// activated only while the card is in its owner's hand.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cycling: bool,
    /// Activated only while the card is in its owner's hand: cycling, transmute, forecast
    /// (`keywords/cycling.rs`, `keywords/transmute.rs`, `keywords/forecast.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_hand: bool,
    /// Forecast (702.56): revealed from the hand as its cost, only during its owner's
    /// upkeep and only once each turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forecast: bool,
    /// Activated only while the card is in its owner's graveyard (Chronosavant: "Return ~
    /// from your graveyard to the battlefield tapped").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_graveyard: bool,
    /// "Activate only if ~ is suspended" (Greater Gargadon): only while the card is
    /// suspended in exile, by its owner (2014 112.6k: the ability functions there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub while_suspended: bool,
    /// "Activate only once each turn" (Wall of Roots): its activations this turn are
    /// recorded (`Game::activations`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once_each_turn: bool,
    /// "Only your opponents may activate this ability" (Knight of the Holy Nimbus): an
    /// opponent of the permanent's controller activates it, pays its costs and controls it
    /// on the stack; its controller can't.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opponents_only: bool,
    /// "X target <things>" (Magus of the Candelabra): its one target slot is repeated X
    /// times, X chosen as it is activated; the same object can't be chosen twice (2006
    /// 409.1c / 2014 115.3, the word "target" used once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub x_targets: bool,
}

impl ActivatedAbility {
    /// A non-mana ability usable from the battlefield with no restriction beyond `timing`:
    /// what a keyword's own ability is (equip, fortify, aura swap).
    pub fn plain(
        text: String,
        cost: Cost,
        targets: Vec<TargetSpec>,
        effects: Vec<Effect>,
        timing: AbilityTiming,
    ) -> ActivatedAbility {
        ActivatedAbility {
            cost,
            targets,
            effects,
            mana: None,
            timing,
            condition: None,
            text,
            cycling: false,
            from_hand: false,
            forecast: false,
            from_graveyard: false,
            while_suspended: false,
            once_each_turn: false,
            opponents_only: false,
            x_targets: false,
        }
    }

    /// Whether its activations this turn are recorded (`Game::activations`): "activate
    /// only once each turn", "if this ability has been activated N or more times this turn".
    pub fn counts_activations(&self) -> bool {
        self.once_each_turn
            || self
                .effects
                .iter()
                .any(|e| matches!(e, Effect::IfActivatedThisTurn { .. }))
    }
    pub fn is_mana_ability(&self) -> bool {
        // Δ22: an ability with a target is never a mana ability.
        self.mana.is_some() && self.targets.is_empty()
    }
}

/// The spell ability of an instant or sorcery (or a permanent spell's additional costs).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SpellAbility {
    /// Each entry is one additional cost; several alternatives mean "A or B" (409.1b).
    pub additional_costs: Vec<Vec<Cost>>,
    pub targets: Vec<TargetSpec>,
    pub effects: Vec<Effect>,
    /// "Choose one —": each mode has its own targets and effects (409.1b); when present,
    /// `targets` and `effects` are empty.
    pub modes: Vec<SpellMode>,
    /// "Deals N damage divided as you choose among any number of targets": the targets
    /// and the division are chosen as the spell is cast (409.1d / 601.2d), separately from
    /// the numbered target slots; `damage_divided` deals it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divided: Option<DividedDamage>,
    /// The last target slot is "up to one other target ..." (Return to Dust): it may be
    /// left unchosen, and it must differ from the earlier targets.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_target_optional: bool,
    /// "Up to three target cards ..." (Gaea's Blessing): the last N target slots may be left
    /// unchosen (leaving one leaves the rest), each differing from the earlier targets.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub optional_targets: u8,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// "N damage divided as you choose among any number of <targets>" (2006 409.1d; 601.2d):
/// one to N targets, each assigned at least 1, the shares adding up to N.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DividedDamage {
    /// `Fixed(n)` or `X` (known once X is chosen).
    pub amount: crate::effects::Amount,
    /// What each of the targets may be.
    pub spec: TargetSpec,
}

/// One mode of a modal spell.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SpellMode {
    pub text: String,
    pub targets: Vec<TargetSpec>,
    pub effects: Vec<Effect>,
}

/// Whether the engine can play the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Support {
    Supported,
    /// Only for tests and benchmarks; never allowed in a player's deck.
    TestOnly,
    /// A token's definition (created by effects; never a card in a deck).
    Token,
    Unsupported(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    pub id: CardId,
    pub name: String,
    pub name_zh: Option<String>,
    /// `None`: the card has no mana cost at all (Δ24), unlike `{0}`.
    pub mana_cost: Option<ManaCost>,
    pub colors: ColorSet,
    pub supertypes: Vec<Supertype>,
    pub types: Vec<CardType>,
    pub subtypes: Vec<String>,
    pub power: Option<PtValue>,
    pub toughness: Option<PtValue>,
    pub text: String,
    pub rarity: String,
    pub sets: Vec<String>,
    pub support: Support,
    pub keywords: Vec<Keyword>,
    pub spell: SpellAbility,
    pub abilities: Vec<ActivatedAbility>,
    pub enters_with_counters: Vec<(CounterKind, u32)>,
    /// Counters it enters with "if you didn't cast it from your hand" (Epochrasite).
    #[serde(default)]
    pub enters_with_unless_cast_from_hand: Vec<(CounterKind, u32)>,
    /// Counters it enters with only if it was kicked, or as many as a count says
    /// (`enters_with = "3 time if_kicked"`, `"other_spells_this_turn +1/+1"`: 614.1c).
    pub enters_with_more: Vec<EntersWith>,
    pub enters_tapped: bool,
    pub triggers: Vec<crate::abilities::TriggerDef>,
    pub statics: Vec<StaticAbility>,
    /// Static prevention abilities (`replacement.rs`).
    pub preventions: Vec<crate::abilities::StaticPrevention>,
    /// Enduring Renewal's draw replacement.
    pub draw_reveal_instead: bool,
    /// Fist of Suns (a test fixture): "You may pay COST rather than pay the mana cost for
    /// spells that you cast" (`keywords/alternative_cost.rs`).
    pub your_spells_alternative_cost: Option<Cost>,
    /// Leyline of the Void (a test fixture): "If a card would be put into an opponent's
    /// graveyard from anywhere, exile it instead" (`replacement.rs`).
    pub opponents_cards_exiled_instead: bool,
    /// "Play with your hand revealed."
    pub hand_revealed: bool,
    /// "As ~ enters the battlefield, choose a creature type" (Conspiracy).
    pub choose_creature_type: bool,
    /// "As ~ enters the battlefield, choose a color / an opponent / one of ..." (614.12,
    /// `as_enters.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enters_choice: Option<EntersChoice>,
    /// "You may have ~ enter the battlefield tapped as a copy of any land" (Vesuva).
    pub copy_land_as_enters: bool,
    /// "As ~ enters the battlefield (or is turned face up), you may choose another creature
    /// on the battlefield; it becomes a copy of it" (Clone, Vesuvan Shapeshifter; `copy.rs`).
    pub copy_creature: Option<crate::abilities::CopyCreature>,
    /// An Aura's "Enchant ..." (303.4): what it may be attached to; its spell targets that.
    pub enchant: Option<crate::targets::ObjectFilter>,
    /// "Enchant player" (Paradox Haze): its spell targets a player and it enters attached
    /// to that player (`Object::attached_player`).
    pub enchant_player: bool,
    /// A rule for spending its controller's mana (Celestial Dawn).
    pub spend_rule: Option<SpendRule>,
    /// "Skip your draw step."
    pub skip_draw_step: bool,
    /// An Aura's "Enchanted creature's activated abilities can't be activated" (Detainment
    /// Spell): mana abilities too, not special actions such as turning face up.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enchanted_cant_activate: bool,
    /// An Aura's "enchanted land ... can't be enchanted by other Auras" (Consecrate Land):
    /// while it is attached (with its abilities), no other Aura can target or be attached
    /// to that permanent; one already attached is put into the graveyard (`Game::aura_shut_out`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enchanted_cant_be_enchanted_by_other_auras: bool,
    /// "Hellbent — Skip your upkeep step if you have no cards in hand" (`keywords/hellbent.rs`).
    pub skip_upkeep_if_hellbent: bool,
    /// "Damage that would reduce your life total to less than 1 reduces it to 1 instead."
    pub damage_life_floor: bool,
    /// "Whenever a basic land is tapped for mana of the chosen color, its controller adds an
    /// additional one mana of that color" (Gauntlet of Power; needs `choose = "color"`): a
    /// triggered mana ability (2006 406.1b / 2014 605.1b), resolved at once as the land's
    /// mana ability is activated (`casting.rs` `Game::triggered_mana`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub basic_land_mana_of_chosen_color_adds_one: bool,
    /// "As long as ~ is untapped, all combat damage that would be dealt to you by unblocked
    /// creatures is dealt to ~ instead" (Weathered Bodyguards; `replacement.rs`).
    pub redirect_unblocked_combat_damage: bool,
    /// Morph (502.26 / 702.36): it may be cast face down for {3} and turned face up for
    /// this cost.
    pub morph: Option<Cost>,
    /// "As ~ enters the battlefield, turn all other nontoken creatures face down"
    /// (Ixidron, 502.26e / 702.36, 707.2).
    pub turn_others_face_down: bool,
    /// Flashback (2006 502.22 / 702.34): it may be cast from its owner's graveyard for this
    /// cost instead of its mana cost (mana plus any other parts, e.g. "discard X cards"),
    /// and is exiled whenever it would leave the stack.
    pub flashback: Option<Cost>,
    /// Dralnu, Lich Lord: "If damage would be dealt to ~, sacrifice that many permanents
    /// instead" (a replacement effect, `replacement.rs`).
    pub damage_to_sacrifice: bool,
    /// "If ~ would be destroyed, regenerate it" (Knight of the Holy Nimbus): a replacement
    /// of its own, used every time it would be destroyed unless it can't be regenerated
    /// (`replacement.rs` `Game::try_regenerate`).
    pub regenerates_if_destroyed: bool,
    /// "If a spell or ability an opponent controls causes you to discard ~, put it onto the
    /// battlefield with N +1/+1 counters on it instead of putting it into your graveyard"
    /// (Dodecapod: 2; `Game::discard`). 0: none.
    #[serde(default)]
    pub opponent_discard_to_battlefield: u32,
    /// Locket of Yesterdays: "Spells you cast cost {N} less to cast for each card with the
    /// same name as that spell in your graveyard" (generic mana only).
    pub reduce_per_same_name_in_graveyard: u32,
    /// "<Filter> spells you cast cost {N} less to cast" (Stormscape Familiar's white and
    /// black spells, Undead Warchief's Zombie spells): generic mana only, the filter matched
    /// against the spell as it is cast (`casting.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells_cost_less: Option<(u32, crate::targets::ObjectFilter)>,
    /// "If there are N or more creature cards total in all graveyards, this spell costs
    /// {M} less to cast" (Avatar of Woe): `(N, M)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs_less_with_creature_cards_in_graveyards: Option<(u32, u32)>,
    /// Suspend N—[cost] (502.59 / 702.61, `keywords/suspend.rs`).
    pub suspend: Option<SuspendDef>,
    /// A test fixture's "your opponents can't cast spells with this name" (Meddling Mage).
    pub opponents_cant_cast: Option<String>,
    /// "Creature cards you own that aren't on the battlefield have flash" (Teferi, Mage of
    /// Zhalfir; `keywords/flash.rs`).
    pub own_creature_cards_have_flash: bool,
    /// "Each opponent can cast spells only any time they could cast a sorcery" (Teferi;
    /// `priority.rs`: `Game::check_cast_permission`).
    pub opponents_sorcery_timing: bool,
    /// "You can't cast this spell during your first, second, or third turns of the game"
    /// (Serra Avenger; `priority.rs`: `Game::check_cast_permission`, counting
    /// `Player::turns_begun`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cant_cast_during_first_three_turns: bool,
    /// "You may choose not to untap ~ during your untap step" (Giant Oyster; `turn.rs`).
    pub may_choose_not_to_untap: bool,
    /// "~ can't attack unless you sacrifice two Islands" (Leviathan): a cost to attack, paid
    /// as attackers are declared (2014 508.1g-h, 2006 308.2; `combat.rs`); only sacrifices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_cost: Option<(crate::targets::ObjectFilter, u32)>,
    /// "If ~ is in your opening hand and you're not the starting player, you may begin the
    /// game with ~ on the battlefield with a luck counter on it. If you do, exile a card
    /// from your hand" (Gemstone Caverns; `turn.rs`).
    pub begin_game_on_battlefield: bool,
    /// Giant Oyster: "for as long as ~ remains tapped, <the linked creature> doesn't untap
    /// during its controller's untap step" (`Game::links`, `turn.rs`).
    pub linked_doesnt_untap_while_tapped: bool,
    /// A test fixture's "Spells cost {N} more to cast" (every player's).
    pub spells_cost_more: u32,
    /// Madness [cost] (502.24 / 702.34, `keywords/madness.rs`): discarded, it may be exiled
    /// and cast for this cost.
    pub madness: Option<ManaCost>,
    /// Homing Sliver: "Each [subtype] card in each player's hand has [subtype]cycling
    /// [cost]" (the subtype and the granted ability, `Catalog::ability` from
    /// [`GRANTED_CYCLING_ABILITY`]).
    pub grants_typecycling_in_hands: Option<String>,
    /// A test fixture's "Players can't cycle cards".
    pub players_cant_cycle: bool,
    /// Bloodthirst N (702.53, `keywords/bloodthirst.rs`); 0 without.
    #[serde(default)]
    pub bloodthirst: u32,
    /// Thick-Skinned Goblin: "You may pay {0} rather than pay the echo cost for permanents
    /// you control" (`keywords/echo.rs`).
    #[serde(default)]
    pub echo_costs_zero: bool,
    /// Dredge N (702.51, `keywords/dredge.rs`); 0 without.
    #[serde(default)]
    pub dredge: u32,
    /// The casting-side keywords: kicker, buyback, storm, gravestorm (`keywords/kicker.rs`,
    /// `buyback.rs`, `storm.rs`, `gravestorm.rs`).
    #[serde(default)]
    pub cast_keys: CastKeys,
    /// A split card (2006 505 / 2014 708, `keywords/split.rs`): its two halves, each a
    /// definition of its own (`Catalog::get(id.split_half(h))`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitCard>,
}

/// The two halves of a split card. Outside the stack the card has both sets of
/// characteristics (2006 505.2 / 2014 708.2, the rules of July 2013: only the 2017 rules
/// combined them into one): two names and two mana costs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitCard {
    /// The halves' names, left first.
    pub names: [String; 2],
    /// The halves' mana values (converted mana costs), left first.
    pub mana_values: [u32; 2],
}

/// Optional additional costs and cast triggers of a card (script keys `kicker`,
/// `kicker_targets`, `buyback`, `storm`, `gravestorm`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CastKeys {
    /// Kicker (2006 502.21 / 702.32): each kicker cost in printed order ("Kicker A and/or
    /// B" is two), each payable once as the spell is cast.
    pub kicker: Vec<Cost>,
    /// Target slots the spell has only if a kicker cost was announced (409.1d / 601.2c,
    /// 502.21c), after its other targets.
    pub kicker_targets: Vec<TargetSpec>,
    /// The spell's targets when kicked: `spell.targets` then `kicker_targets`.
    pub kicked_targets: Vec<TargetSpec>,
    /// Buyback (2006 502.16 / 702.26): the optional additional cost.
    pub buyback: Option<Cost>,
    /// "You may [cost] rather than pay this spell's mana cost" (Snapback;
    /// `keywords/alternative_cost.rs`).
    pub alternative_cost: Option<Cost>,
    /// Storm (502.30 / 702.39): "When you cast this spell, copy it for each spell cast
    /// before it this turn."
    pub storm: bool,
    /// Gravestorm (702.68): "... copy it for each permanent put into a graveyard this turn."
    pub gravestorm: bool,
    /// A test fixture's "Buyback costs cost {N} less" for its controller's spells.
    pub buyback_costs_less: u32,
    /// Delve (702.65; `keywords/delve.rs`).
    pub delve: bool,
    /// Convoke (702.50; `keywords/convoke.rs`).
    pub convoke: bool,
    /// "If this spell was kicked, it has split second" (Molten Disaster;
    /// `keywords/split_second.rs`).
    pub kicked_split_second: bool,
}

/// "Suspend N—[cost]": the number of time counters (`None`: suspend X, as many as the X
/// paid) and the cost of the special action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuspendDef {
    pub time: Option<u32>,
    pub cost: Cost,
    /// "X can't be 0."
    pub x_not_zero: bool,
}

/// A static ability of a permanent that changes other objects' P/T or grants keywords
/// (418.4), applied to whatever matches `affects` (relative to its controller) now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticAbility {
    pub affects: crate::targets::ObjectFilter,
    /// "Other ...": the source itself is not affected.
    pub other: bool,
    pub power: i32,
    pub toughness: i32,
    pub grants: Vec<Keyword>,
    /// Triggered abilities it grants ("All Slivers have 'At the beginning of ...'").
    pub grant_triggers: Vec<crate::abilities::TriggerDef>,
    /// Activated abilities it grants ("All Slivers have '{T}: Tap target permanent.'"),
    /// each also listed in the catalog's granted-ability table (index `GRANTED_ABILITY + k`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grant_abilities: Vec<ActivatedAbility>,
    /// Subtypes added "in addition to their other types" (Hivestone), layer 4.
    pub add_subtypes: Vec<String>,
    /// "Creatures you control are the chosen type" (Conspiracy), layer 4: the creature
    /// types become the type chosen as the source entered.
    pub set_chosen_creature_type: bool,
    /// Applies also to spells its controller controls and to cards its controller owns that
    /// aren't on the battlefield (Conspiracy's second sentence).
    pub also_outside_battlefield: bool,
    /// A characteristic-defining ability that the object has every creature type (Mistform
    /// Ultimus); it works in every zone and affects only the object itself.
    pub cda_all_creature_types: bool,
    /// It affects only its own source ("as long as ~ is a creature, it ...").
    pub itself: bool,
    /// It affects only the permanent its source (an Aura) is attached to ("enchanted
    /// creature gets ...").
    pub enchanted: bool,
    /// "Lands you control are Plains" (layer 4, 212.6e): the land types become these, the
    /// land loses its rules text and gains the basic types' mana abilities.
    pub set_land_types: Vec<String>,
    /// "... are white" (layer 5).
    pub set_colors: Option<crate::mana::ColorSet>,
    /// A characteristic-defining ability setting its own power and toughness (layer 7a /
    /// classic 6a), in every zone.
    pub cda_pt: Option<CdaPt>,
    pub text: String,
    /// "+P/+T for each [kind] counter on it" (Thelon of Havenwood): the pump is multiplied
    /// by the number of such counters on each affected object (a modification: 7c / 6d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_counter: Option<crate::object::CounterKind>,
    /// "As long as ..." (an ability word's condition: threshold, hellbent): the ability
    /// applies only while it holds, checked all the time (`keywords/threshold.rs`,
    /// `keywords/hellbent.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<StaticCondition>,
    /// "... can't attack you" (Teferi's Moat): the creatures it affects can't attack its
    /// controller (`combat.rs`, checked per defending player).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cant_attack_controller: bool,
    /// "... has protection from the chosen color" (Pentarch Ward): the protection keyword of
    /// the colour its source chose as it entered (`as_enters.rs`), added to `grants`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub protection_from_chosen_color: bool,
    /// "This effect doesn't remove ~": the protection this static grants doesn't make its
    /// source (an Aura) fall off what it enchants (`sba.rs` `aura_illegal`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub doesnt_remove_source: bool,
    /// A P/T static ability it grants (Sedge Sliver: "All Sliver creatures have 'This
    /// creature gets +1/+1 as long as you control a Swamp'"): the affected objects have it in
    /// the ability layer, and its "you" is each one's controller (`layers.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant_pump: Option<GrantedPump>,
}

/// A granted "This creature gets +P/+T as long as you control a <land type>".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrantedPump {
    pub power: i32,
    pub toughness: i32,
    /// The basic land type its controller must control.
    pub if_you_control: String,
    pub text: String,
}

/// "~ enters the battlefield with N [kind] counters on it" where N or whether it applies
/// depends on its casting or the turn (614.1c; `keywords/kicker.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntersWith {
    pub kind: CounterKind,
    pub count: EntersCount,
    /// "If ~ was kicked, it enters with ...": only a permanent that was a kicked spell.
    pub if_kicked: bool,
}

/// How many counters an [`EntersWith`] puts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntersCount {
    Fixed(u32),
    /// "For each other spell cast this turn" (Storm Entity): the spells cast this turn, less
    /// itself if it was one of them (it entered from the stack).
    OtherSpellsThisTurn,
    /// "For each <subtype> you control" (`lands_you_control:Island`, Tidewalker): the
    /// permanents with that subtype its controller controls as it enters.
    YouControl(String),
}

/// The condition of a static ability that applies only "as long as" something holds for
/// its controller. Threshold and hellbent are ability words (2014 207.2c; threshold's
/// keyword rules were deleted by Time Spiral, A17): the condition is the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StaticCondition {
    /// Threshold: "as long as seven or more cards are in your graveyard".
    Threshold,
    /// Hellbent: "as long as you have no cards in hand".
    Hellbent,
    /// "If ~ was kicked, it enters ... with haste": its source is a permanent that was a
    /// kicked spell (Pouncing Wurm; `keywords/kicker.rs`).
    Kicked,
    /// "As long as ~ is in your graveyard and you control a <basic land type>" (Valor; the
    /// land type named by its colour, as in `TextWord::LandType`): the ability functions
    /// only while its source is in its owner's graveyard (2014 112.6 / 2006 402.8), for
    /// that owner (`layers.rs`: `Game::static_sources`).
    InYourGraveyardAndYouControl(crate::mana::Color),
}

/// What a characteristic-defining P/T ability counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CdaPt {
    /// "Each equal to the number of <land type>s you control; while it is attacking, the
    /// number the defending player controls" (Gaea's Liege).
    LandsOfTypeOrDefenders(String),
    /// "... equal to the number of face-down creatures on the battlefield" (Ixidron).
    FaceDownCreatures,
    /// "... each equal to the number of [kind] counters on it" (Tidewalker).
    CountersOnIt(CounterKind),
    /// "... the number of <filter> you control" (Benalish Commander: Soldiers).
    YouControl(crate::targets::ObjectFilter),
    /// "... the number of cards in your hand" (Aeon Chronicler).
    CardsInYourHand,
    /// "... the number of +1/+1 counters on creatures you control" (Fungal Behemoth).
    PlusOneCountersOnYourCreatures,
    /// "... your life total minus the life total of an opponent with the most life"
    /// (Roiling Horror).
    LifeMinusMostOpponent,
    /// "... the number of nonbasic land cards in your opponents' graveyards" (Detritivore).
    NonbasicLandsInOpponentsGraveyards,
}

/// A rule about spending mana that a permanent gives its controller (Celestial Dawn:
/// "spend <colour> mana as though it were mana of any color; other mana only as though it
/// were colorless").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpendRule {
    OnlyColorAsAny(crate::mana::Color),
}

/// The first ability index of the intrinsic mana abilities a land has from basic land
/// types an effect gave it (212.6e): `INTRINSIC_ABILITY + colour`.
pub const INTRINSIC_ABILITY: u8 = 250;
/// Ability indices from here (below [`INTRINSIC_ABILITY`]) name a typecycling ability a
/// permanent grants to cards in hands (Homing Sliver): `GRANTED_CYCLING_ABILITY + k`, the
/// catalog's k-th such grant.
pub const GRANTED_CYCLING_ABILITY: u8 = 240;
/// Ability indices from here (below [`GRANTED_CYCLING_ABILITY`]) name an activated ability
/// a static ability grants to permanents (Telekinetic Sliver's "All Slivers have '{T}: Tap
/// target permanent.'"): `GRANTED_ABILITY + k`, the catalog's k-th such grant.
pub const GRANTED_ABILITY: u8 = 200;

impl StaticAbility {
    /// The P/T modification it gives `counters`' object.
    pub fn pt_for(&self, counters: &crate::object::Counters) -> (i32, i32) {
        match &self.per_counter {
            None => (self.power, self.toughness),
            Some(k) => {
                let n = counters.get(k) as i32;
                (self.power * n, self.toughness * n)
            }
        }
    }

    /// Whether it changes types or abilities (needs the full layer computation).
    /// Whether it functions from its owner's graveyard instead of the battlefield (Valor).
    pub fn from_graveyard(&self) -> bool {
        matches!(
            self.condition,
            Some(StaticCondition::InYourGraveyardAndYouControl(_))
        )
    }

    pub fn is_layered(&self) -> bool {
        self.grant_pump.is_some()
            || !self.grant_triggers.is_empty()
            || !self.grant_abilities.is_empty()
            || !self.add_subtypes.is_empty()
            || !self.set_land_types.is_empty()
            || self.set_colors.is_some()
            || self.set_chosen_creature_type
            || self.cda_all_creature_types
    }
}

impl CardDef {
    /// Whether one of its triggers asks "if you cast it from your hand" (Coal Stoker): its
    /// spell then keeps `Object::cast_from_hand`.
    pub fn asks_cast_from_hand_trigger(&self) -> bool {
        self.triggers
            .iter()
            .any(|t| t.condition == Some(crate::abilities::TriggerCondition::CastFromHand))
    }

    /// Whether its spell or one of its triggered abilities targets an activated or
    /// triggered ability (Trickbind, Voidmage Husher): the game then numbers abilities on
    /// the stack (`StackItem::serial`).
    pub fn targets_abilities(&self) -> bool {
        self.spell
            .targets
            .iter()
            .chain(self.triggers.iter().flat_map(|t| t.targets.iter()))
            .any(|t| t.kind.is_ability())
    }

    pub fn has_type(&self, t: CardType) -> bool {
        self.types.contains(&t)
    }
    pub fn is_permanent(&self) -> bool {
        self.types.iter().any(|t| t.is_permanent_type())
    }
    pub fn is_supported(&self) -> bool {
        self.support == Support::Supported
    }
    pub fn type_line(&self) -> String {
        let mut s: Vec<String> = self.supertypes.iter().map(|t| format!("{t:?}")).collect();
        s.extend(self.types.iter().map(|t| t.name().to_string()));
        let mut line = s.join(" ");
        if !self.subtypes.is_empty() {
            line.push_str(" — ");
            line.push_str(&self.subtypes.join(" "));
        }
        line
    }
    /// Its converted mana cost as a number. A split card's two answers are counted
    /// together (2006 505.5 / 2014 708.5: Assault // Battery counts "1, and 4", so 5).
    pub fn mana_value(&self) -> u32 {
        self.mana_cost.as_ref().map_or(0, |c| c.converted())
    }
    /// The indices of its own triggered abilities that trigger on `event`.
    pub fn triggers_on(
        &self,
        event: crate::abilities::TriggerEvent,
    ) -> impl Iterator<Item = usize> + '_ {
        self.triggers
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.when == event)
            .map(|(i, _)| i)
    }
    /// Its converted mana cost with each X as `x` (a spell on the stack or being cast:
    /// R-conflagrate-2).
    pub fn mana_value_with_x(&self, x: u32) -> u32 {
        let xs = self.mana_cost.as_ref().map_or(0, |m| {
            m.symbols
                .iter()
                .filter(|s| **s == crate::mana::ManaSymbol::X)
                .count() as u32
        });
        self.mana_value() + x * xs
    }
    /// A comparison with its converted mana cost ("with mana value 3", "3 or less"): a
    /// split card outside the stack matches if either half does (2006 505.6 / 2014 708.6).
    pub fn mana_value_matches(&self, test: impl Fn(u32) -> bool) -> bool {
        match &self.split {
            Some(s) => s.mana_values.iter().any(|v| test(*v)),
            None => test(self.mana_value()),
        }
    }
    /// Whether it has this name: a split card has both halves' names (505.2 / 708.2).
    pub fn has_name(&self, name: &str) -> bool {
        self.name == name
            || self
                .split
                .as_ref()
                .is_some_and(|s| s.names.iter().any(|n| n == name))
    }
    /// Whether two definitions share a name ("with the same name": a positive comparison,
    /// true for a split card if either name matches, 505.6 / 708.6).
    pub fn shares_name_with(&self, other: &CardDef) -> bool {
        let names = |d: &CardDef| -> Vec<String> {
            match &d.split {
                Some(s) => s.names.to_vec(),
                None => vec![d.name.clone()],
            }
        };
        let mine = names(self);
        names(other).iter().any(|n| mine.contains(n))
    }
    /// The mana cost as printed: a split card's two costs joined by "//".
    pub fn cost_text(&self) -> String {
        match &self.split {
            Some(_) => {
                let c = Catalog::builtin();
                let half = |h| {
                    c.get(self.id.split_half(h))
                        .mana_cost
                        .as_ref()
                        .map_or(String::new(), |m| m.to_string())
                };
                format!("{} // {}", half(0), half(1))
            }
            None => self
                .mana_cost
                .as_ref()
                .map_or(String::new(), |m| m.to_string()),
        }
    }
}

/// All card definitions, by id and by name.
#[derive(Debug)]
pub struct Catalog {
    cards: Vec<CardDef>,
    /// The characteristics of a face-down spell or permanent (502.26b / 707.2): a 2/2
    /// creature with no name, text, subtypes, colour or mana cost. It is not a card: no
    /// deck may hold it and no name finds it.
    face_down: CardId,
    by_name: HashMap<String, CardId>,
    /// The tokens by name (a token may share a real card's name: `by_name` finds the card).
    tokens_by_name: HashMap<String, CardId>,
    /// Every creature type a card of the catalog has (for "every creature type" and for
    /// choosing a creature type), sorted.
    creature_types: Vec<String>,
    /// The intrinsic mana abilities of the basic land types, W U B R G (212.6d).
    intrinsic: Vec<ActivatedAbility>,
    /// Every land type (212.6c): the basic ones and those of noncreature lands, sorted.
    land_types: Vec<String>,
    /// Typecycling granted to cards in hands (Homing Sliver): the granting card, the
    /// subtype a card needs, and the ability.
    granted_cycling: Vec<(CardId, String, ActivatedAbility)>,
    /// Activated abilities granted by static abilities: (granting card, static index,
    /// position in its `grant_abilities`), by k (index `GRANTED_ABILITY + k`).
    granted_abilities: Vec<(CardId, u8, u8)>,
    /// The halves of the split cards (ids `CardId::split_half`), in no deck and found by no
    /// name lookup: only a split card cast as that half has one's characteristics.
    halves: Vec<CardDef>,
}

/// A problem found while loading card data: names the card and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("card data: {card}: {problem}")]
pub struct CatalogError {
    pub card: String,
    pub problem: String,
}

const FACTS: &str = include_str!("../../cards/facts.toml");
const SCRIPTS: &[(&str, &str)] = &[
    ("basic.toml", include_str!("../../cards/scripts/basic.toml")),
    ("tsp.toml", include_str!("../../cards/scripts/tsp.toml")),
    ("plc.toml", include_str!("../../cards/scripts/plc.toml")),
    ("fut.toml", include_str!("../../cards/scripts/fut.toml")),
    ("tsb.toml", include_str!("../../cards/scripts/tsb.toml")),
    ("test.toml", include_str!("../../cards/scripts/test.toml")),
    (
        "tokens.toml",
        include_str!("../../cards/scripts/tokens.toml"),
    ),
];

impl Catalog {
    /// The catalog compiled into this binary, loaded and validated on first use.
    /// Start-up code calls [`Catalog::load`] first so that a bad card is reported clearly.
    pub fn builtin() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| match Catalog::load() {
            Ok(c) => c,
            // The embedded data is validated by `cargo test`; reaching this is a build defect.
            Err(e) => panic!("embedded card data is invalid: {e}"),
        })
    }

    /// Loads and validates the embedded facts and scripts.
    pub fn load() -> Result<Catalog, CatalogError> {
        script::build(FACTS, SCRIPTS)
    }

    /// Loads and validates the embedded facts with other script files (`(file name,
    /// text)`, as the embedded ones): for tools that check scripts being edited.
    pub fn load_scripts(scripts: &[(&str, &str)]) -> Result<Catalog, CatalogError> {
        script::build(FACTS, scripts)
    }

    pub fn get(&self, id: CardId) -> &CardDef {
        if id.is_split_half() {
            return self.half(id);
        }
        &self.cards[id.0 as usize]
    }
    /// One half of a split card (`CardId::split_half`).
    fn half(&self, id: CardId) -> &CardDef {
        match self.halves.iter().find(|d| d.id == id) {
            Some(d) => d,
            // No such half: an id no catalog made. The face-down characteristics (no name,
            // no text) rather than a panic.
            None => &self.cards[self.face_down.0 as usize],
        }
    }
    /// The split card with a half of this name, and which half ("cast Boom").
    pub fn split_half_by_name(&self, name: &str) -> Option<(CardId, u8)> {
        let n = normalize_name(name);
        self.halves
            .iter()
            .find(|d| normalize_name(&d.name) == n)
            .and_then(|d| d.id.half_of())
    }
    /// The face-down characteristics (502.26b / 707.2), as a definition.
    pub fn face_down(&self) -> CardId {
        self.face_down
    }
    pub fn by_name(&self, name: &str) -> Option<&CardDef> {
        self.by_name
            .get(&normalize_name(name))
            .map(|id| self.get(*id))
    }
    /// The token of that name (`create_token`), also where a real card has the name.
    pub fn token_by_name(&self, name: &str) -> Option<&CardDef> {
        self.tokens_by_name
            .get(&normalize_name(name))
            .map(|id| self.get(*id))
    }
    /// The creature types known to the catalog, sorted.
    pub fn creature_types(&self) -> &[String] {
        &self.creature_types
    }
    /// Whether a subtype is a land type.
    pub fn is_land_type(&self, name: &str) -> bool {
        self.land_types.iter().any(|t| t.eq_ignore_ascii_case(name))
    }
    /// The catalog's spelling of a creature type, matched without regard to case.
    pub fn creature_type(&self, name: &str) -> Option<&str> {
        let n = name.trim();
        self.creature_types
            .iter()
            .find(|t| t.eq_ignore_ascii_case(n))
            .map(String::as_str)
    }
    pub fn cards(&self) -> &[CardDef] {
        &self.cards
    }
    /// The card names a player may choose ("choose a card name", `Decision::NameCard`):
    /// every card's but the tokens' and the test fixtures', a split card's two halves'
    /// names in place of its own (505.2 / 708.2), in catalog order.
    pub fn card_names(&self) -> impl Iterator<Item = &str> {
        self.cards
            .iter()
            .filter(|c| matches!(c.support, Support::Supported | Support::Unsupported(_)))
            .flat_map(|c| match &c.split {
                Some(s) => s.names.iter().map(String::as_str).collect::<Vec<_>>(),
                None => vec![c.name.as_str()],
            })
    }
    /// The catalog's spelling of a card name a player may choose ([`Catalog::card_names`]),
    /// matched as names are looked up (case, curly apostrophes).
    pub fn card_name(&self, name: &str) -> Option<&str> {
        let n = normalize_name(name);
        self.card_names().find(|c| normalize_name(c) == n)
    }
    /// Ability `index` of a card: its own, or (from [`INTRINSIC_ABILITY`]) the intrinsic
    /// mana ability of a basic land type an effect gave it.
    pub fn ability(&self, card: CardId, index: u8) -> Option<&ActivatedAbility> {
        match index.checked_sub(INTRINSIC_ABILITY) {
            Some(c) => self.intrinsic.get(c as usize),
            None => match index.checked_sub(GRANTED_CYCLING_ABILITY) {
                Some(k) => self.granted_cycling.get(k as usize).map(|g| &g.2),
                None => match index.checked_sub(GRANTED_ABILITY) {
                    Some(k) => self.granted_ability(k),
                    None => self.get(card).abilities.get(index as usize),
                },
            },
        }
    }
    /// The k-th activated ability granted by a static ability.
    fn granted_ability(&self, k: u8) -> Option<&ActivatedAbility> {
        let (card, st, pos) = *self.granted_abilities.get(k as usize)?;
        self.get(card)
            .statics
            .get(st as usize)?
            .grant_abilities
            .get(pos as usize)
    }
    /// The ability indices of the activated abilities static ability `st` of `card` grants.
    pub fn granted_ability_indices(&self, card: CardId, st: u8) -> impl Iterator<Item = u8> + '_ {
        self.granted_abilities
            .iter()
            .enumerate()
            .filter(move |(_, (c, s, _))| *c == card && *s == st)
            .map(|(k, _)| GRANTED_ABILITY + k as u8)
    }
    /// The typecycling abilities permanents grant to cards in hands (Homing Sliver): the
    /// granting card and the subtype a card needs, by `k` (index `GRANTED_CYCLING_ABILITY + k`).
    pub fn granted_cycling(&self) -> impl Iterator<Item = (u8, CardId, &str)> {
        self.granted_cycling
            .iter()
            .enumerate()
            .map(|(k, (c, s, _))| (GRANTED_CYCLING_ABILITY + k as u8, *c, s.as_str()))
    }
    pub fn supported(&self) -> impl Iterator<Item = &CardDef> {
        self.cards.iter().filter(|c| c.is_supported())
    }
    /// Names closest to `query` (for "did you mean" and autocomplete): exact, then prefix,
    /// then substring, then small edit distance.
    pub fn suggest(&self, query: &str, limit: usize) -> Vec<&CardDef> {
        let q = normalize_name(query);
        let mut scored: Vec<(u32, &CardDef)> = self
            .cards
            .iter()
            .filter(|c| c.support != Support::TestOnly && c.support != Support::Token)
            .filter_map(|c| {
                let n = normalize_name(&c.name);
                let score = if n == q {
                    0
                } else if n.starts_with(&q) {
                    1
                } else if n.contains(&q) {
                    2
                } else {
                    let d = edit_distance(&n, &q);
                    if d <= 2 + q.len() as u32 / 5 {
                        3 + d
                    } else {
                        return None;
                    }
                };
                Some((score, c))
            })
            .collect();
        scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        scored.into_iter().take(limit).map(|(_, c)| c).collect()
    }
}

/// Card-name normal form: lower case, "Æ" as "ae", curly apostrophes straightened.
pub fn normalize_name(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .replace(['’', '‘'], "'")
        .replace('æ', "ae")
}

fn edit_distance(a: &str, b: &str) -> u32 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<u32> = (0..=b.len() as u32).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i as u32; b.len() + 1];
        for j in 1..=b.len() {
            let cost = u32::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalog_loads_and_validates() {
        let c = Catalog::load().expect("catalog must load");
        assert!(c.cards().len() >= 752);
        let axe = c.by_name("lightning axe").unwrap();
        assert!(axe.is_supported());
        assert_eq!(axe.spell.additional_costs.len(), 1);
        assert_eq!(axe.spell.additional_costs[0].len(), 2);
        let forest = c.by_name("Forest").unwrap();
        assert!(forest.abilities.iter().any(|a| a.is_mana_ability()));
        assert!(c.supported().count() >= 30, "at least 30 supported cards");
    }

    #[test]
    fn a_state_trigger_with_targets_is_refused() {
        let script = r#"
[[card]]
name = "Fixture: Bad State Trigger"
test_only = true
cost = "{1}"
type = "Artifact"
text = "When you have no cards in hand, destroy target creature."
[[card.trigger]]
when = "state:you_have_no_cards_in_hand"
targets = ["creature"]
effects = ["destroy target"]
"#;
        let e = script::build(FACTS, &[("bad.toml", script)]).expect_err("refused");
        assert!(e.to_string().contains("state trigger"), "{e}");
    }

    #[test]
    fn a_card_in_another_sets_file_is_refused() {
        // Lightning Axe is a Time Spiral card: plc.toml may not hold it.
        let script = "[[card]]\nname = \"Lightning Axe\"\n";
        let e = script::build(FACTS, &[("plc.toml", script)]).expect_err("refused");
        assert!(e.to_string().contains("belongs in its set's file"), "{e}");
        script::build(FACTS, &[("tsp.toml", script)])
            .expect_err("incomplete, but not misplaced")
            .to_string()
            .contains("belongs")
            .then(|| panic!("tsp.toml is Lightning Axe's file"));
    }

    #[test]
    fn saved_card_ids_do_not_move_when_test_cards_are_added() {
        // Games are saved with card ids: real cards, the face-down characteristics and
        // tokens come before every test-only card, so a new test card moves none of them.
        let c = Catalog::builtin();
        let first_test = c
            .cards()
            .iter()
            .position(|d| d.support == Support::TestOnly)
            .expect("test cards");
        assert!(
            c.cards()[first_test..]
                .iter()
                .all(|d| d.support == Support::TestOnly),
            "only test cards after the first one"
        );
        assert_eq!(c.cards()[752].name, "face-down creature");
        assert!(
            c.cards()[753..first_test]
                .iter()
                .all(|d| d.support == Support::Token)
        );
        // Test cards start at a fixed id, so a new token moves none of them.
        assert_eq!(first_test, script::TEST_CARD_BASE);
    }

    #[test]
    fn suggestions_find_near_names() {
        let c = Catalog::builtin();
        let s = c.suggest("lightning ax", 3);
        assert_eq!(s[0].name, "Lightning Axe");
        let s = c.suggest("Assembly Worker", 3);
        assert_eq!(s[0].name, "Assembly-Worker");
    }
}

/// What a permanent's "as ~ enters the battlefield, choose ..." chooses (614.12;
/// `as_enters.rs` asks it, [`crate::object::Chosen`] keeps the answer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntersChoice {
    /// "Choose a color."
    Color,
    /// "Choose an opponent."
    Opponent,
    /// "Choose a player" (Stuffy Doll): any player, its controller included.
    Player,
    /// "Choose white Citizen, blue Camarid, ...": one of these options (player words).
    OneOf(Vec<String>),
    /// "As ~ enters the battlefield or is turned face up, it becomes your choice of 5/1 or
    /// 1/5" (Aquamorph Entity): a power and toughness, also chosen as it is turned face up
    /// (`keywords/morph.rs`); kept as `Object::token_pt`, a copiable value.
    Pt(Vec<(i32, i32)>),
}
