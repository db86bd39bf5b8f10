//! The renderer's input model: plain data describing exactly what one viewer may see.
//!
//! The engine's player view is converted into these types (that conversion lives outside this
//! crate). Everything here is `Clone + Debug + Serialize + Deserialize` so scenes can be stored,
//! diffed and replayed in tests.
//!
//! Identity rules: a scene must hold only what its viewer may see. In particular the identity of
//! a face-down permanent ([`PermanentCard::face`]) is `None` unless the viewer controls it.
//!
//! Ids: every permanent and stack object has a `u32` id, stable for the scene, so that
//! attachments, blocks and targets can refer to each other. Players are referred to by their
//! index in [`BoardScene::players`].

use serde::{Deserialize, Serialize};

/// One of the five colours of Magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    White,
    Blue,
    Black,
    Red,
    Green,
}

/// The printed (or currently visible) characteristics of a card.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardFace {
    /// English name.
    pub name: String,
    /// Traditional Chinese name, used when [`crate::Language::ZhHant`] is asked for.
    #[serde(default)]
    pub name_zh: Option<String>,
    /// Mana cost in braces, e.g. `"{2}{R}{R}"`, `"{X}{G}"`, `"{G/W}"`; empty for no cost.
    #[serde(default)]
    pub mana_cost: String,
    /// The card's colours (empty for colourless).
    #[serde(default)]
    pub colors: Vec<Colour>,
    /// Full type line, e.g. `"Creature — Bear"`, `"Basic Land — Forest"`.
    pub type_line: String,
    /// Rules text; mana and tap symbols in braces (`"{T}: Add {G}."`). Lines separated by `\n`.
    #[serde(default)]
    pub rules_text: String,
    /// Printed power, e.g. `"2"` or `"*"`.
    #[serde(default)]
    pub power: Option<String>,
    /// Printed toughness.
    #[serde(default)]
    pub toughness: Option<String>,
    /// True for token faces.
    #[serde(default)]
    pub is_token: bool,
}

/// A counter on a permanent (or a card in exile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    /// Counter kind as players say it: `"+1/+1"`, `"-1/-1"`, `"time"`, `"fade"`, `"charge"` ...
    pub kind: String,
    pub count: u32,
}

/// A permanent on the battlefield.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermanentCard {
    /// Stable id (unique among permanents and stack objects of the scene).
    pub id: u32,
    /// The visible card. `None` only for a face-down permanent whose identity the viewer may
    /// not know.
    pub face: Option<CardFace>,
    /// The permanent is face down (morph). When `face` is `Some` as well, the viewer controls it
    /// and may peek at its identity.
    #[serde(default)]
    pub face_down: bool,
    /// Token (drawn with a token marker).
    #[serde(default)]
    pub is_token: bool,
    #[serde(default)]
    pub tapped: bool,
    /// Current power and toughness after all effects (for creatures).
    #[serde(default)]
    pub power_toughness: Option<(i32, i32)>,
    #[serde(default)]
    pub counters: Vec<Counter>,
    /// Damage marked this turn.
    #[serde(default)]
    pub damage: u32,
    /// Came under its controller's control since their most recent turn began (creatures).
    #[serde(default)]
    pub summoning_sick: bool,
    /// Attacking (in a two-player game: the defending player).
    #[serde(default)]
    pub attacking: bool,
    /// Ids of the attackers this creature blocks.
    #[serde(default)]
    pub blocking: Vec<u32>,
    /// Id of the permanent this Aura / Equipment / Fortification is attached to.
    #[serde(default)]
    pub attached_to: Option<u32>,
    /// Extra short markers shown on the permanent (e.g. `"phased out"`, `"can't untap"`).
    #[serde(default)]
    pub notes: Vec<String>,
}

impl PermanentCard {
    /// A plain untapped permanent with the given face.
    pub fn new(id: u32, face: CardFace) -> Self {
        let is_token = face.is_token;
        let power_toughness = match (&face.power, &face.toughness) {
            (Some(p), Some(t)) => match (p.parse(), t.parse()) {
                (Ok(p), Ok(t)) => Some((p, t)),
                _ => None,
            },
            _ => None,
        };
        PermanentCard {
            id,
            face: Some(face),
            face_down: false,
            is_token,
            tapped: false,
            power_toughness,
            counters: Vec::new(),
            damage: 0,
            summoning_sick: false,
            attacking: false,
            blocking: Vec::new(),
            attached_to: None,
            notes: Vec::new(),
        }
    }

    /// A face-down 2/2 whose identity is hidden (or visible to its controller when `identity`
    /// is `Some`).
    pub fn face_down(id: u32, identity: Option<CardFace>) -> Self {
        PermanentCard {
            id,
            face: identity,
            face_down: true,
            is_token: false,
            tapped: false,
            power_toughness: Some((2, 2)),
            counters: Vec::new(),
            damage: 0,
            summoning_sick: false,
            attacking: false,
            blocking: Vec::new(),
            attached_to: None,
            notes: Vec::new(),
        }
    }

    /// The type line as currently visible (face-down permanents are plain creatures).
    pub fn visible_type_line(&self) -> &str {
        if self.face_down {
            return "Creature";
        }
        self.face.as_ref().map_or("", |f| f.type_line.as_str())
    }

    /// Which battlefield row the permanent belongs to.
    pub fn group(&self) -> PermanentGroup {
        let t = self.visible_type_line();
        if t.contains("Creature") {
            PermanentGroup::Creature
        } else if t.contains("Land") {
            PermanentGroup::Land
        } else {
            PermanentGroup::Other
        }
    }
}

/// Battlefield rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PermanentGroup {
    Land,
    Creature,
    Other,
}

/// A suspended card in exile (public, with its time counters).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuspendedCard {
    pub face: CardFace,
    pub time_counters: u32,
}

/// Everything visible about one player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerArea {
    pub name: String,
    pub life: i32,
    #[serde(default)]
    pub poison: u32,
    pub hand_count: u32,
    pub library_count: u32,
    pub graveyard_count: u32,
    #[serde(default)]
    pub exile_count: u32,
    /// Unspent mana, e.g. `"{R}{R}{G}"` (empty when none).
    #[serde(default)]
    pub mana_pool: String,
    /// Top card of the graveyard, if any (public).
    #[serde(default)]
    pub graveyard_top: Option<CardFace>,
    /// Suspended cards this player owns.
    #[serde(default)]
    pub suspended: Vec<SuspendedCard>,
    /// Permanents this player controls.
    #[serde(default)]
    pub battlefield: Vec<PermanentCard>,
}

impl PlayerArea {
    pub fn new(name: impl Into<String>, life: i32) -> Self {
        PlayerArea {
            name: name.into(),
            life,
            poison: 0,
            hand_count: 0,
            library_count: 0,
            graveyard_count: 0,
            exile_count: 0,
            mana_pool: String::new(),
            graveyard_top: None,
            suspended: Vec::new(),
            battlefield: Vec::new(),
        }
    }
}

/// Spell or ability on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StackKind {
    Spell,
    ActivatedAbility,
    TriggeredAbility,
}

/// What a stack object targets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetRef {
    /// A permanent, by id.
    Permanent(u32),
    /// A player, by index.
    Player(usize),
    /// Another stack object, by id.
    StackObject(u32),
    /// A card in a zone other than the battlefield, described in words
    /// (e.g. `"Grizzly Bears in Bob's graveyard"`).
    Card(String),
}

/// One object on the stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackItem {
    pub id: u32,
    /// Controller, by player index.
    pub controller: usize,
    pub kind: StackKind,
    /// The spell's card, or the source of the ability. `None` for a face-down spell the viewer
    /// may not identify.
    pub face: Option<CardFace>,
    /// What it does, e.g. the ability text or choices made (`"X = 3"`). May be empty for
    /// spells (the card's rules text is used).
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub targets: Vec<TargetRef>,
}

/// Steps of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    Untap,
    Upkeep,
    Draw,
    PrecombatMain,
    BeginCombat,
    DeclareAttackers,
    DeclareBlockers,
    CombatDamage,
    EndCombat,
    PostcombatMain,
    End,
    Cleanup,
}

impl Step {
    pub const ALL: [Step; 12] = [
        Step::Untap,
        Step::Upkeep,
        Step::Draw,
        Step::PrecombatMain,
        Step::BeginCombat,
        Step::DeclareAttackers,
        Step::DeclareBlockers,
        Step::CombatDamage,
        Step::EndCombat,
        Step::PostcombatMain,
        Step::End,
        Step::Cleanup,
    ];

    /// Short label for the phase bar.
    pub fn short_label(self) -> &'static str {
        match self {
            Step::Untap => "Untap",
            Step::Upkeep => "Upkeep",
            Step::Draw => "Draw",
            Step::PrecombatMain => "Main 1",
            Step::BeginCombat => "Begin",
            Step::DeclareAttackers => "Attack",
            Step::DeclareBlockers => "Block",
            Step::CombatDamage => "Damage",
            Step::EndCombat => "End cbt",
            Step::PostcombatMain => "Main 2",
            Step::End => "End",
            Step::Cleanup => "Cleanup",
        }
    }

    /// Full name.
    pub fn label(self) -> &'static str {
        match self {
            Step::Untap => "untap step",
            Step::Upkeep => "upkeep",
            Step::Draw => "draw step",
            Step::PrecombatMain => "precombat main phase",
            Step::BeginCombat => "beginning of combat",
            Step::DeclareAttackers => "declare attackers step",
            Step::DeclareBlockers => "declare blockers step",
            Step::CombatDamage => "combat damage step",
            Step::EndCombat => "end of combat",
            Step::PostcombatMain => "postcombat main phase",
            Step::End => "end step",
            Step::Cleanup => "cleanup step",
        }
    }
}

/// Turn, phase and step, and whose decision is pending.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnInfo {
    pub number: u32,
    /// Active player, by index.
    pub active_player: usize,
    pub step: Step,
    /// The player who must decide now, by index.
    #[serde(default)]
    pub deciding_player: Option<usize>,
    /// What they must decide, in words (e.g. `"declare blockers"`, `"priority"`).
    #[serde(default)]
    pub decision: Option<String>,
}

/// Everything the board image shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardScene {
    /// The player looking (drawn at the bottom), by index; `None` for a spectator.
    #[serde(default)]
    pub viewer: Option<usize>,
    pub players: Vec<PlayerArea>,
    /// Stack objects, bottom first (the last one resolves first).
    #[serde(default)]
    pub stack: Vec<StackItem>,
    pub turn: TurnInfo,
    /// The last few actions, oldest first.
    #[serde(default)]
    pub recent_actions: Vec<String>,
}

/// A card in its owner's hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCard {
    pub face: CardFace,
    /// The owner could cast or play it now.
    #[serde(default)]
    pub playable: bool,
}

/// A hand, for its owner's eyes only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandScene {
    pub owner: String,
    pub cards: Vec<HandCard>,
}
