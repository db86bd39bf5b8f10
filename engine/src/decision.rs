//! Decisions and answers: where the engine stops and what a player may say.
//!
//! The engine runs until a player must decide something; [`Decision`] says what, and
//! [`Answer`] is what comes back. `Game::legal_answers` enumerates answers with the same
//! checks `Game::submit` applies, so a listed answer is always accepted.

use crate::costs::CostPart;
use crate::ids::{ObjectId, PlayerId};
use crate::mana::{Color, PayableCost};
use crate::targets::{ObjectFilter, Target, TargetSpec};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who must decide, and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub player: PlayerId,
    pub decision: Decision,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// Keep this opening hand or mulligan (101.4).
    Mulligan { hand_size: u32 },
    /// The player has priority (408.1).
    Priority,
    /// Casting a modal spell: choose its mode (409.1b).
    ChooseMode { options: Vec<String> },
    /// Casting or activating: choose X (409.1b).
    ChooseX,
    /// Casting: choose one of the alternatives of an additional cost (409.1b).
    ChooseCostOption { index: u8, options: Vec<String> },
    /// Casting or activating: choose the target for slot `slot` (409.1c).
    ChooseTarget { slot: u8, spec: TargetSpec },
    /// Casting a spell that deals `amount` damage "divided as you choose among any number
    /// of targets" (409.1d / 601.2d): name one to `amount` targets matching `spec` and each
    /// one's share (at least 1 each, adding up to `amount`), answered `AssignDamage`.
    DivideDamage { amount: u32, spec: TargetSpec },
    /// Casting or activating: choose the cards or permanents a cost part needs.
    ChooseCostObjects { part: CostPart },
    /// Casting or activating: pay the mana (409.1g-h).
    PayMana { cost: PayableCost },
    /// Declare attackers (308): the whole attack is one answer.
    DeclareAttackers,
    /// Declare blockers (309): the whole block is one answer.
    DeclareBlockers,
    /// Discard `count` cards (cleanup 314.1, or an effect).
    Discard { count: u32 },
    /// Sacrifice `count` permanents matching the filter (an effect; an echo cost such as
    /// "sacrifice two lands"), answered `Objects` with that many.
    Sacrifice {
        filter: ObjectFilter,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
    },
    /// "Return a <filter> you control to its owner's hand" as an effect resolves (Dream
    /// Stalker): answered `Objects` with exactly `count` of them (one unless a cost says
    /// more: Ovinomancer's "unless you return three basic lands you control").
    ReturnToHand {
        filter: ObjectFilter,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        count: u32,
    },
    /// Search the library for up to `up_to` cards (one unless an effect says "up to N")
    /// matching the filter (and, for transmute and transfigure, with this mana value),
    /// answered `Objects` with none to `up_to` of them. A search for "a card" with no stated
    /// quality must find one when the library isn't empty ([`Decision::search_must_find`]).
    Search {
        filter: ObjectFilter,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mana_value: Option<u32>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        up_to: u32,
        /// Another player's library ("search target opponent's library": Grinning Totem);
        /// `None`: the searcher's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        library: Option<PlayerId>,
    },
    /// "You may reveal X <filter> cards in your hand": any number of them, none included
    /// (answered with the cards: `Answer::Objects`).
    Reveal { filter: ObjectFilter },
    /// Modern legend rule (Δ9): keep one of your legendary permanents named `name`.
    KeepLegend { name: String },
    /// Modern (Δ4): put the creatures blocking `attacker` in damage assignment order; for
    /// a creature blocking several attackers (`attacker` is then that blocker, and its
    /// controller answers), the attackers it blocks.
    OrderBlockers { attacker: ObjectId },
    /// Divide `attacker`'s combat damage among its blockers (and the defending player with
    /// trample): in damage assignment order with lethal damage first (modern), or freely
    /// (classic, 310.2c).
    AssignCombatDamage { attacker: ObjectId, power: u32 },
    /// Put your triggered abilities on the stack in an order (410.3): the first listed goes
    /// on the stack first (and resolves last).
    OrderTriggers { descriptions: Vec<String> },
    /// "As ~ enters the battlefield, choose a creature type" (Conspiracy).
    ChooseCreatureType { card: String },
    /// "Choose a card name" as an effect resolves (Magus of the Scroll, Dementia Sliver;
    /// `resolve/naming.rs`): the name of any card (not a token; a split card's half by its
    /// own name), answered `CardName`. `card` is the source's name, for the question.
    NameCard { card: String },
    /// A "may" choice or an optional cost ("you may pay {B}"): answered `Yes` or `No`.
    YesNo { question: String },
    /// "You may have ~ enter the battlefield as a copy of any land on the battlefield"
    /// (Vesuva), or of another creature (Clone; Vesuvan Shapeshifter also as it is turned
    /// face up): `Objects([permanent])`, or `Objects([])` to have it be itself.
    ChooseCopy {
        card: String,
        #[serde(default)]
        of: crate::abilities::CopyKind,
    },
    /// Several replacement or prevention effects would apply to damage about to be dealt to
    /// `recipient` and their order matters (a redirection among them): its controller
    /// orders them (616.1), `Order([...])`, the first listed applying first.
    OrderReplacements {
        recipient: crate::targets::Target,
        descriptions: Vec<String>,
    },
    /// Damage is about to be dealt to `recipient`, whose "if damage would be dealt to ~,
    /// sacrifice that many permanents instead" applies (Dralnu, Lich Lord): its controller
    /// chooses the `count` permanents to sacrifice at once (`Objects`, which may include
    /// `recipient` itself).
    SacrificeForDamage { recipient: ObjectId, count: u32 },
    /// Scry or fateseal (701.18 / 701.19, `keywords/scry.rs`): `cards` are the top cards of
    /// `library`'s owner's library, top first (`names` theirs, for the question); answered
    /// `Answer::Scry` placing each on the top or the bottom, in order.
    Scry {
        library: PlayerId,
        fateseal: bool,
        cards: Vec<ObjectId>,
        names: Vec<String>,
        /// "Look at the top N cards of your library, then put them back in any order"
        /// (Sage of Epityr): every card goes back on top (the answer's bottom list is empty).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        top_only: bool,
        /// "Put them on the bottom of your library in any order" (Truth or Tale's other
        /// revealed cards): every card goes to the bottom (the answer's top list is empty).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bottom_only: bool,
    },
    /// Dredge (702.51, `keywords/dredge.rs`): `player` would draw a card and may instead
    /// mill N and return one of `cards` (their dredge cards in their graveyard) to their
    /// hand: `Objects([card])` dredges it, `Objects([])` draws.
    Dredge {
        cards: Vec<ObjectId>,
        names: Vec<String>,
    },
    /// Aura swap (2014 rules 702.64, `keywords/aura_swap.rs`): as the ability resolves,
    /// `player` may exchange the Aura with one of `cards`, the Aura cards in their hand
    /// (`names` theirs): `Objects([card])` chooses it, `Objects([])` none. An Aura that can't
    /// enchant the permanent may be chosen; the exchange then does nothing (702.64b).
    AuraSwap {
        cards: Vec<ObjectId>,
        names: Vec<String>,
    },
    /// "Separate them into two piles" (Truth or Tale, `resolve/piles.rs`): `cards` are the
    /// revealed cards (`names` theirs); answered `Objects` with the cards of the first pile,
    /// the others making the second (either pile may be empty).
    SeparatePiles {
        cards: Vec<ObjectId>,
        names: Vec<String>,
    },
    /// A pregame action from the opening hand (2006 rule 101.6 / 2014 103.6, `turn.rs`):
    /// "If Gemstone Caverns is in your opening hand and you're not the starting player, you
    /// may begin the game with it on the battlefield with a luck counter on it. If you do,
    /// exile a card from your hand": `Objects([])` declines, `Objects([other])` does it
    /// exiling that card (`Objects([card])` when it is the only card in the hand).
    PregameAction { card: ObjectId, name: String },
    /// "You may put a card of these kinds from your hand onto the battlefield" as an effect
    /// resolves (Hypergenesis, Braids, Conjurer Adept; `resolve/from_hand.rs`): `cards` are the
    /// cards of `player`'s hand it may put (`names` theirs; an Aura only when it has something
    /// to enchant), `Objects([card])` puts one, `Objects([])` none.
    PutFromHand {
        cards: Vec<ObjectId>,
        names: Vec<String>,
    },
    /// An Aura put onto the battlefield without being cast (2014 303.4f, 2006 212.4f): its
    /// controller chooses what it will enchant as it enters, answered `Target` with a
    /// permanent its "enchant" allows (or a player, for "enchant player"). Not targeting:
    /// shroud doesn't stop it, protection does.
    EnchantAsItEnters { aura: ObjectId, name: String },
}

pub(crate) fn one() -> u32 {
    1
}
pub(crate) fn is_one(n: &u32) -> bool {
    *n == 1
}

/// An attack assignment: this creature attacks that player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub attacker: ObjectId,
    pub defender: PlayerId,
}

/// A block assignment: `blocker` blocks `attacker`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub blocker: ObjectId,
    pub attacker: ObjectId,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    Keep,
    Mulligan,
    Pass,
    /// Always legal, for any player still in the game (102.3a).
    Concede,
    PlayLand(ObjectId),
    Cast(ObjectId),
    /// Begin casting one half of a split card (505.2 / 708.2, `keywords/split.rs`): `half`
    /// 0 is the left one ("cast Boom"), 1 the right one ("cast Bust").
    CastSplit {
        card: ObjectId,
        half: u8,
    },
    Activate {
        source: ObjectId,
        ability: u8,
    },
    /// Activate a mana ability (at priority, or while paying a cost). `color` picks the
    /// colour for "any colour" / "A or B" abilities.
    ActivateMana {
        source: ObjectId,
        ability: u8,
        color: Option<Color>,
    },
    /// Activate a mana ability that makes X mana in a combination of colours (the storage
    /// lands, A21): X is `colors.len()`, one entry per mana made (at priority).
    ActivateManaX {
        source: ObjectId,
        ability: u8,
        colors: Vec<Color>,
    },
    /// The mode of a modal spell (0-based).
    Mode(u8),
    X(u32),
    CostOption(u8),
    Target(Target),
    /// Objects for a cost, a discard, a sacrifice or a search (empty: none).
    Objects(Vec<ObjectId>),
    /// Let the engine choose the mana sources (the auto-payer).
    AutoPay,
    /// Abandon the spell or ability being cast; nothing it did is kept (409.1).
    Cancel,
    Attack(Vec<Attack>),
    Block(Vec<Block>),
    /// A combat damage assignment, or a spell's divided damage: how much goes to each
    /// recipient.
    AssignDamage(Vec<(Target, u32)>),
    /// An order of items, as indices (0-based) of the list the decision shows.
    Order(Vec<u8>),
    CreatureType(String),
    /// A card name (`Decision::NameCard`), as the catalog spells it.
    CardName(String),
    Yes,
    No,
    /// A special action (no stack): pay what a delayed ability asks to stop it (Glass Asp),
    /// by its index in `Game::delayed`.
    PayToAvoid(u8),
    /// Begin casting a card with morph face down for {3} (502.26b / 702.36c).
    CastFaceDown(ObjectId),
    /// A special action (no stack): begin turning a face-down permanent you control face
    /// up by paying its morph cost (502.26d / 702.36e); the payment follows.
    TurnFaceUp(ObjectId),
    /// The special action suspending a card from the hand (502.59a / 702.61a): its suspend
    /// cost is collected like a spell's, then it is exiled with its time counters.
    Suspend(ObjectId),
    /// A scry or fateseal answer (`Decision::Scry`): the cards to put on top (the first
    /// listed becomes the top card) and on the bottom (the last listed becomes the bottom
    /// card), each card looked at exactly once.
    Scry {
        top: Vec<ObjectId>,
        bottom: Vec<ObjectId>,
    },
}

impl Answer {
    /// A yes/no question's answer; any other answer is the wrong kind.
    pub fn yes_or_no(&self) -> Result<bool, RuleError> {
        match self {
            Answer::Yes => Ok(true),
            Answer::No => Ok(false),
            other => Err(RuleError::WrongKind {
                expected: format!("yes or no, not {}", other.kind_name()),
            }),
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            Answer::Keep => "keep",
            Answer::Mulligan => "mulligan",
            Answer::Pass => "pass",
            Answer::Concede => "concede",
            Answer::PlayLand(_) => "play a land",
            Answer::Cast(_) => "cast a spell",
            Answer::CastSplit { .. } => "cast one half of a split card",
            Answer::Activate { .. } => "activate an ability",
            Answer::ActivateMana { .. } => "activate a mana ability",
            Answer::ActivateManaX { .. } => "activate a mana ability making X mana",
            Answer::Mode(_) => "choose a mode",
            Answer::X(_) => "choose X",
            Answer::CostOption(_) => "choose a cost",
            Answer::Target(_) => "choose a target",
            Answer::Objects(_) => "choose cards",
            Answer::AutoPay => "pay automatically",
            Answer::Cancel => "cancel",
            Answer::Attack(_) => "declare attackers",
            Answer::Block(_) => "declare blockers",
            Answer::AssignDamage(_) => "assign combat damage",
            Answer::Order(_) => "an order",
            Answer::CreatureType(_) => "a creature type",
            Answer::CardName(_) => "a card name",
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::PayToAvoid(_) => "pay to stop a delayed ability",
            Answer::CastFaceDown(_) => "cast a card face down",
            Answer::TurnFaceUp(_) => "turn a permanent face up",
            Answer::Suspend(_) => "suspend a card",
            Answer::Scry { .. } => "put cards on top or bottom",
        }
    }
}

impl Decision {
    /// Whether a search must find a card when the searched library isn't empty: a search
    /// for "a card" with no stated quality. Only a search for cards with a stated quality
    /// (a card type, a colour, a name, a mana value...) lets the searcher fail to find them
    /// in a hidden zone even when they are there (2014 rule 701.15b; the 2006 glossary's
    /// "search" alike); "search ... for a card" has none, so the searcher must take one
    /// (Grinning Totem's official ruling: "you can't fail to find anything", R-grinning-totem-1;
    /// Demonic Collusion alike). "Up to N" searches may always find fewer.
    pub fn search_must_find(&self) -> bool {
        matches!(self, Decision::Search { filter, mana_value: None, up_to: 1, .. }
            if *filter == ObjectFilter::default())
    }

    pub fn describe(&self) -> String {
        match self {
            Decision::Mulligan { hand_size } => {
                format!("keep this {hand_size}-card hand or mulligan")
            }
            Decision::Priority => "act or pass priority".into(),
            Decision::ChooseMode { options } => format!("choose a mode: {}", options.join(" | ")),
            Decision::ChooseX => "choose a value for X".into(),
            Decision::ChooseCostOption { options, .. } => {
                format!("choose a cost: {}", options.join(" or "))
            }
            Decision::ChooseTarget { spec, .. } => format!("choose a target: {}", spec.describe()),
            Decision::DivideDamage { amount, spec } => format!(
                "divide {amount} damage among one or more targets ({}), at least 1 each",
                spec.describe()
            ),
            Decision::SacrificeForDamage { count, .. } => format!(
                "damage would be dealt to a permanent with \"sacrifice that many permanents instead\": choose {count} permanent(s) you control to sacrifice"
            ),
            Decision::ChooseCostObjects { part } => format!(
                "choose what to pay for: {}",
                crate::costs::Cost {
                    parts: vec![part.clone()],
                    ..Default::default()
                }
            ),
            Decision::PayMana { cost } => format!("pay {cost}"),
            Decision::DeclareAttackers => "declare attackers".into(),
            Decision::DeclareBlockers => "declare blockers".into(),
            Decision::Discard { count } => format!("discard {count} card(s)"),
            Decision::Sacrifice { filter, count: 1 } => format!("sacrifice a {filter}"),
            Decision::ReturnToHand { filter, count: 1 } => {
                format!("return a {filter} you control to its owner's hand")
            }
            Decision::ReturnToHand { filter, count } => {
                format!("return {count} ({filter}) you control to their owner's hand")
            }
            Decision::Sacrifice { filter, count } => format!("sacrifice {count} ({filter})"),
            Decision::Search {
                library: Some(p), ..
            } => format!("search {p}'s library for a card (with cards there, you must find one)"),
            Decision::Search { .. } if self.search_must_find() => {
                "search your library for a card (with cards there, you must find one)".into()
            }
            Decision::Search {
                filter,
                mana_value: None,
                up_to: 1,
                ..
            } => format!("search your library for a {filter}"),
            Decision::Search {
                filter,
                mana_value: None,
                up_to,
                ..
            } => format!("search your library for up to {up_to} ({filter})"),
            Decision::Search {
                filter,
                mana_value: Some(v),
                ..
            } => format!("search your library for a {filter} with mana value {v}"),
            Decision::Reveal { filter } => format!(
                "reveal any number of {} cards in your hand",
                crate::costs::card_filter_words(filter)
            ),
            Decision::KeepLegend { name } => format!("choose which {name} to keep (legend rule)"),
            Decision::OrderBlockers { .. } => {
                "order the creatures in combat with it (damage assignment order)".into()
            }
            Decision::AssignCombatDamage { power, .. } => format!("assign {power} combat damage"),
            Decision::OrderTriggers { descriptions } => format!(
                "order your triggered abilities: {}",
                descriptions.join(" | ")
            ),
            Decision::ChooseCreatureType { card } => {
                format!("choose a creature type for {card}")
            }
            Decision::NameCard { card } => format!("{card}: choose a card name"),
            Decision::YesNo { question } => format!("{question} (yes or no)"),
            Decision::ChooseCopy { card, of } => match of {
                crate::abilities::CopyKind::Land => {
                    format!("choose a land for {card} to copy, or none")
                }
                crate::abilities::CopyKind::Creature => {
                    format!("choose another creature for {card} to copy, or none")
                }
            },
            Decision::OrderReplacements { descriptions, .. } => format!(
                "choose the order of the effects that would apply to the damage (the first applies first): {}",
                descriptions.join(" | ")
            ),
            Decision::Scry {
                names,
                top_only: true,
                ..
            } => format!(
                "you look at {} (top first); put them back on top of your library in the order you choose",
                names.join(", ")
            ),
            Decision::Scry {
                names,
                bottom_only: true,
                ..
            } => format!(
                "put {} on the bottom of your library in the order you choose (`scry bottom ...`: the last listed goes to the very bottom)",
                names.join(", ")
            ),
            Decision::Scry {
                fateseal, names, ..
            } => format!(
                "{}: you look at {} (top first); put each on the top or the bottom of {} library, in the order you choose",
                if *fateseal { "fateseal" } else { "scry" },
                names.join(", "),
                if *fateseal { "their" } else { "your" }
            ),
            Decision::Dredge { names, .. } => format!(
                "you would draw a card: dredge {} instead, or draw",
                names.join(" or ")
            ),
            Decision::SeparatePiles { names, .. } => format!(
                "separate the revealed cards ({}) into two piles: choose the cards of the first pile (the others make the second; either may be empty, `choose nothing`)",
                names.join(", ")
            ),
            Decision::AuraSwap { names, .. } => format!(
                "aura swap: you may exchange the Aura with an Aura card in your hand ({}), or choose nothing",
                names.join(", ")
            ),
            Decision::PregameAction { name, .. } => format!(
                "before the game: begin with {name} on the battlefield with a luck counter, exiling a card from your hand? (choose the card to exile, or nothing)"
            ),
            Decision::PutFromHand { names, .. } => format!(
                "you may put a card from your hand onto the battlefield ({}), or choose nothing",
                names.join(", ")
            ),
            Decision::EnchantAsItEnters { name, .. } => {
                format!("{name} enters the battlefield: choose what it enchants")
            }
        }
    }
    /// A short stable name (for logs, stats and the bench).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Decision::Mulligan { .. } => "mulligan",
            Decision::Priority => "priority",
            Decision::ChooseMode { .. } => "choose_mode",
            Decision::ChooseX => "choose_x",
            Decision::ChooseCostOption { .. } => "cost_option",
            Decision::ChooseTarget { .. } => "target",
            Decision::ChooseCostObjects { .. } => "cost_objects",
            Decision::DivideDamage { .. } => "divide_damage",
            Decision::SacrificeForDamage { .. } => "sacrifice_for_damage",
            Decision::PayMana { .. } => "pay_mana",
            Decision::DeclareAttackers => "attackers",
            Decision::DeclareBlockers => "blockers",
            Decision::Discard { .. } => "discard",
            Decision::Sacrifice { .. } => "sacrifice",
            Decision::ReturnToHand { .. } => "return_to_hand",
            Decision::Search { .. } => "search",
            Decision::Reveal { .. } => "reveal",
            Decision::KeepLegend { .. } => "keep_legend",
            Decision::OrderBlockers { .. } => "order_blockers",
            Decision::AssignCombatDamage { .. } => "assign_damage",
            Decision::OrderTriggers { .. } => "order_triggers",
            Decision::ChooseCreatureType { .. } => "creature_type",
            Decision::NameCard { .. } => "name_card",
            Decision::YesNo { .. } => "yes_no",
            Decision::ChooseCopy { .. } => "copy",
            Decision::OrderReplacements { .. } => "order_replacements",
            Decision::Scry { .. } => "scry",
            Decision::Dredge { .. } => "dredge",
            Decision::AuraSwap { .. } => "aura_swap",
            Decision::SeparatePiles { .. } => "separate_piles",
            Decision::PregameAction { .. } => "pregame_action",
            Decision::PutFromHand { .. } => "put_from_hand",
            Decision::EnchantAsItEnters { .. } => "enchant",
        }
    }
}

/// Why an answer was refused. The game is unchanged. Messages are written for players.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your decision: waiting for {waiting_for} to {what}")]
    NotYourDecision { waiting_for: PlayerId, what: String },
    #[error("that answer does not fit the question: {expected}")]
    WrongKind { expected: String },
    #[error("{0}")]
    Illegal(String),
}

impl RuleError {
    pub fn illegal(msg: impl Into<String>) -> Self {
        RuleError::Illegal(msg.into())
    }
}

/// Whether a check words its refusal for a player, or only says that it refused. Listing
/// the legal answers asks "can this be begun?" thousands of times a game and shows none of
/// the reasons, so those asks skip the wording (the verdict is the same either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Words {
    /// A refusal carries its message (an answer was submitted).
    Explain,
    /// A refusal carries an empty message (only `is_ok` is asked).
    Quiet,
}

impl Words {
    /// An illegal-answer refusal, its message made only when it will be read.
    pub(crate) fn illegal(self, msg: impl FnOnce() -> String) -> RuleError {
        match self {
            Words::Explain => RuleError::Illegal(msg()),
            Words::Quiet => RuleError::Illegal(String::new()),
        }
    }
}

impl fmt::Display for Pending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.player, self.decision.describe())
    }
}
