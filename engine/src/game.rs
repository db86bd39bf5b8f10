//! The game state and its entry points: setup, `submit`, `legal_answers`, `view`.
//!
//! Rules live in the modules named after them (`turn`, `priority`, `casting`, `stack`,
//! `resolve`, `sba`, `combat`, `layers`, `mana`); this file holds the state, the primitive
//! actions every rule uses (zone changes, damage, life, draws), and the dispatch of answers.

use crate::cards::Catalog;
use crate::casting::Casting;
use crate::combat::Combat;
use crate::decision::{Answer, Decision, Pending, RuleError};
use crate::events::{Event, LossReason};
use crate::ids::{CardId, ObjectId, PlayerId};
use crate::layers::PtEffect;
use crate::mana::ManaPool;
use crate::object::{Counters, Object};
use crate::resolve::Resolution;
use crate::ruleset::Ruleset;
use crate::stack::StackItem;
use crate::steps::Step;
use crate::targets::Target;
use crate::types::CardType;
use crate::zones::{Position, ZoneKind};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One player's deck and name for a new game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSetup {
    pub name: String,
    pub deck: Vec<CardId>,
}

/// Everything needed to start a game; with the same setup and the same answers the game is
/// the same, bit for bit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    pub ruleset: Ruleset,
    pub seed: u64,
    pub players: Vec<PlayerSetup>,
    pub starting_life: i32,
    /// `None`: chosen at random from the seed (101.2).
    pub first_player: Option<PlayerId>,
}

impl GameSetup {
    pub fn two_player(ruleset: Ruleset, seed: u64, a: Vec<CardId>, b: Vec<CardId>) -> Self {
        GameSetup {
            ruleset,
            seed,
            players: vec![
                PlayerSetup {
                    name: "Alice".into(),
                    deck: a,
                },
                PlayerSetup {
                    name: "Bob".into(),
                    deck: b,
                },
            ],
            starting_life: 20,
            first_player: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a game needs at least two players")]
    TooFewPlayers,
    #[error("{0}'s deck is empty")]
    EmptyDeck(String),
    #[error("{player}'s deck contains {card}, which the engine cannot play yet ({reason})")]
    UnsupportedCard {
        player: String,
        card: String,
        reason: String,
    },
    #[error("{0}")]
    Invalid(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub life: i32,
    #[serde(default)]
    pub poison: u32,
    /// Top of the library is the *last* element.
    pub library: Vec<ObjectId>,
    pub hand: Vec<ObjectId>,
    /// Top of the graveyard is the last element.
    pub graveyard: Vec<ObjectId>,
    pub pool: ManaPool,
    pub lands_played: u32,
    pub lost: Option<LossReason>,
    #[serde(default)]
    pub drew_from_empty: bool,
    pub mulligans: u32,
    pub kept: bool,
    /// Modern simultaneous mulligans (Δ10): this player chose to mulligan this round.
    #[serde(default)]
    pub mulligan_intent: bool,
    /// Turn number at which this player's most recent turn began (0: none yet).
    pub turn_started: u32,
    /// How many turns of their own this player has begun (Serra Avenger: "your first,
    /// second, or third turns of the game"; extra turns count, other players' turns don't).
    #[serde(default)]
    pub turns_begun: u32,
    /// The life this player has lost this turn, every loss counted (damage, paying life,
    /// "loses N life"), gains not subtracted (Children of Korlis); reset as each turn begins.
    #[serde(default)]
    pub life_lost_this_turn: u32,
    /// Turn number of this player's most recent turn that has ended (0: none yet):
    /// "since your last turn ended" (Premature Burial).
    #[serde(default)]
    pub turn_ended: u32,
    /// The game's clock (`Game::next_timestamp`) as this player's most recent upkeep and
    /// the one before it began (echo: "since the beginning of your last upkeep").
    #[serde(default)]
    pub upkeeps_began: [u32; 2],
    pub max_hand_size: u32,
}

impl Player {
    pub fn in_game(&self) -> bool {
        self.lost.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    Won(PlayerId),
    Draw,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Game {
    pub ruleset: Ruleset,
    pub seed: u64,
    pub(crate) rng: ChaCha8Rng,
    pub players: Vec<Player>,
    /// All objects ever created, indexed by `ObjectId::slot`.
    pub objects: Vec<Object>,
    /// Battlefield in timestamp order.
    pub battlefield: Vec<ObjectId>,
    /// Bottom first; the top of the stack is the last element.
    pub stack: Vec<StackItem>,
    pub exile: Vec<ObjectId>,
    pub turn: u32,
    pub active: PlayerId,
    pub first_player: PlayerId,
    pub step: Step,
    /// Consecutive passes in the current round of priority (408.1c).
    pub passes: u8,
    pub pending: Option<Pending>,
    pub casting: Option<Casting>,
    pub resolution: Option<Resolution>,
    pub combat: Option<Combat>,
    pub pt_effects: Vec<PtEffect>,
    /// Replacement and prevention effects of resolved spells and abilities, until used up
    /// or the end of the turn (`replacement.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shields: Vec<crate::replacement::Shield>,
    /// Orders the affected players chose for the redirection and prevention shields that
    /// apply to damage about to be dealt to a recipient (616.1), used by `deal_damage`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shield_orders: Vec<(Target, Vec<u8>)>,
    /// Orders the affected players chose for the replacements of combat damage unblocked
    /// creatures would deal to them (Weathered Bodyguards, their prevention shields), kept
    /// for every such damage event of one combat damage step (616.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub player_damage_orders: Vec<(PlayerId, Vec<crate::replacement::PlayerReplacement>)>,
    /// Permanents the controller of a creature with "if damage would be dealt to ~,
    /// sacrifice that many permanents instead" (Dralnu) chose to sacrifice for damage about
    /// to be dealt to it, used by `deal_damage`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sacrifice_choices: Vec<(ObjectId, Vec<ObjectId>)>,
    /// Cards in graveyards given flashback until end of turn with a flashback cost equal to
    /// their mana cost (Dralnu, Lich Lord); a card that changes zones is a new object and
    /// loses it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub granted_flashback: Vec<ObjectId>,
    /// Exiled cards a player may play until their next upkeep (Grinning Totem,
    /// `play_permission.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exile_plays: Vec<crate::play_permission::ExilePlay>,
    /// "Skip your next ..." effects waiting to be used, one skip each (300.9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<(PlayerId, crate::steps::SkipKind)>,
    /// Extra turns to be taken after this one, the last created first (300.7 / 500.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_turns: Vec<PlayerId>,
    /// Permanents that don't untap during their controller's next untap step (Spectral
    /// Force: "it doesn't untap during your next untap step"); each is used by that step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frozen: Vec<ObjectId>,
    /// "You may put it on top of its owner's library instead" questions (Pulmonic Sliver,
    /// `replacement.rs`): the answers so far and the answer waiting for them.
    #[serde(
        default,
        skip_serializing_if = "crate::replacement::LibraryInstead::is_empty"
    )]
    pub library_instead: crate::replacement::LibraryInstead,
    /// Whose turn comes once the extra turns are taken (the turn order resumes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_after_extra: Option<PlayerId>,
    /// Continuous effects of resolved spells and abilities in layers 2-6 (`layers.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub char_effects: Vec<crate::layers::CharEffect>,
    /// Whether characteristics need the full layer computation (some object changes types
    /// or abilities, or some effect did): set once, never cleared.
    #[serde(default)]
    pub layered: bool,
    /// Linked abilities (607): what one ability of a source did that another of its
    /// abilities refers to ("the exiled card", "that creature"): (source, object).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<(ObjectId, ObjectId)>,
    /// Delayed triggered abilities waiting for their moment (410.8 / 603.7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delayed: Vec<crate::triggers::DelayedTrigger>,
    /// A land being played that asks "as it enters" (Vesuva's copy choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entering_land: Option<ObjectId>,
    /// A creature copy choice being asked (Clone, Vesuvan Shapeshifter; `copy.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copying: Option<crate::copy::CopyChoice>,
    /// A face-down permanent whose "as ~ is turned face up" choice is being asked as its
    /// controller turns it face up (Aquamorph Entity; `keywords/morph.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_up_choosing: Option<ObjectId>,
    /// Copy choices made for cards about to enter the battlefield (by their id before the
    /// move): `None` when the player chose nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copy_chosen: Vec<(
        ObjectId,
        Option<(crate::copy::CopiableValues, crate::copy::CopyUntil)>,
    )>,
    /// "As ~ enters the battlefield, choose ..." answers made for cards an effect is about
    /// to put onto the battlefield (by their id before the move; `as_enters.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enter_choices: Vec<(ObjectId, crate::object::Chosen)>,
    pub next_timestamp: u32,
    pub result: Option<GameResult>,
    /// Cleanup must repeat (314.3) when the current round of priority in it ends.
    pub cleanup_again: bool,
    /// Triggered abilities waiting to be put on the stack (410.2-410.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<crate::triggers::WaitingTrigger>,
    /// Whether any object in the game has a triggered ability (skips trigger matching).
    #[serde(default)]
    pub has_triggers: bool,
    /// Whether any object in the game has a static ability (skips the static scan).
    #[serde(default)]
    pub has_statics: bool,
    /// Whether any object in the game has a static ability that functions from a graveyard
    /// (Valor): the static scans then also read the graveyards.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_graveyard_statics: bool,
    /// Whether any token was ever created (lets the state-based check skip the token scan).
    #[serde(default)]
    pub tokens_created: bool,
    /// The player who will receive priority once a state-based choice is made.
    #[serde(default)]
    pub priority_after_sba: Option<PlayerId>,
    #[serde(skip)]
    pub(crate) events: Vec<Event>,
    /// Permanents leaving the battlefield in the event being performed, as they last existed
    /// (id, card, controller): their leaves-the-battlefield abilities look back (410.10d).
    /// Empty between events, so never part of the saved state.
    #[serde(skip)]
    pub(crate) lookback: Vec<(ObjectId, CardId, PlayerId)>,
    /// The Auras among `lookback` and what each was attached to (an Aura's "when enchanted
    /// creature dies" looks back when both leave together).
    #[serde(skip)]
    pub(crate) lookback_attached: Vec<(ObjectId, ObjectId)>,
    #[serde(skip)]
    pub(crate) layer_cache: crate::layers::LayerCache,
    /// The static sources that may grant keywords, for `has_keyword` (`layers.rs`).
    #[serde(skip)]
    pub(crate) grant_sources: crate::layers::GrantSources,
    /// A payment `lists_answer` checked, for `submit` (casting.rs).
    #[serde(skip)]
    pub(crate) payment_memo: crate::casting::PaymentMemo,
    /// A player's mana sources, worked out once while the legal answers are listed
    /// (`casting.rs`, `SourcesMemo`).
    #[serde(skip)]
    pub(crate) sources_memo: crate::casting::SourcesMemo,
    /// Damage dealt to creatures this turn as (creature, source) pairs, for "a creature dealt
    /// damage by ~ this turn" (Vampiric Sliver); kept only in games with triggered abilities,
    /// cleared in the cleanup step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage_record: Vec<(ObjectId, ObjectId)>,
    /// Damage dealt to players this turn by sources that ask "if ~ dealt damage to an
    /// opponent this turn" (Whirling Dervish): (source, damaged player); kept only for
    /// such sources, cleared as the turn ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub player_damage_record: Vec<(ObjectId, PlayerId)>,
    /// Whether any object in the game has a state trigger (410.11 / 603.8).
    #[serde(default)]
    pub has_state_triggers: bool,
    /// Some card in the game has flashback (502.22): graveyards are looked at for casts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_flashback: bool,
    /// Some card in the game reduces spell costs (Locket of Yesterdays).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_cost_reducers: bool,
    /// Some card has been suspended: exile is looked at for suspend's upkeep triggers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_suspended_cards: bool,
    /// Some card with lifelink, printed or granted, exists: damage looks for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_lifelink_somewhere: bool,
    /// Some card has bloodthirst: the players dealt damage this turn are kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_bloodthirst: bool,
    /// Some card has an ability that works from the graveyard (Chronosavant): graveyards
    /// are looked at for it at priority.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_graveyard_abilities: bool,
    /// Some card has an ability that functions in exile (the abilities of suspended cards:
    /// Deep-Sea Kraken, Benalish Commander, Greater Gargadon): exile is looked at for them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_exile_triggers: bool,
    /// Haunt (`keywords/haunt.rs`): each exiled card and the creature it haunts. An entry
    /// ends with either object (a new object has a new id).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub haunting: Vec<(ObjectId, ObjectId)>,
    /// "Creatures can't be blocked this turn" (Veiling Oddity): the turn it applies to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unblockable_turn: Option<u32>,
    /// "Until your next turn, creatures can't attack you" (Chronomantic Escape): these
    /// players, until their next turn begins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cant_be_attacked: Vec<PlayerId>,
    /// The cards the cost being paid exiled from the hand, for the ability's stack item
    /// (Jhoira of the Ghitu; empty between casts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost_exiled: Vec<ObjectId>,
    /// The players dealt damage this turn (bloodthirst; only with `has_bloodthirst`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players_damaged: Vec<PlayerId>,
    /// A cast that suspend's last-counter trigger begins once it has finished resolving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast_after_resolution: Option<crate::casting::Casting>,
    /// Some card counts this turn's spells or graveyard arrivals (storm, gravestorm).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_storm: bool,
    /// What storm and gravestorm count this turn (kept only in games where `has_storm`).
    #[serde(
        default,
        skip_serializing_if = "crate::keywords::storm::TurnCounts::is_zero"
    )]
    pub this_turn: crate::keywords::storm::TurnCounts,
    /// Spells as they were cast, for their storm and gravestorm triggers still to resolve.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spell_snapshots: Vec<crate::keywords::storm::SpellSnapshot>,
    /// Copies of spells just put on the stack whose controllers will be asked about new
    /// targets, in order (`keywords/storm.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copy_retargets: Vec<ObjectId>,
    /// Forecast abilities activated this turn: the card (in its hand) and the turn
    /// (`keywords/forecast.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forecasts: Vec<(ObjectId, u32)>,
    /// Activations this turn of abilities that count them (`ActivatedAbility::
    /// counts_activations`: "activate only once each turn", Dragon Whelp's "four or more
    /// times this turn"): the source, the ability's index and the turn (`stack.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activations: Vec<(ObjectId, u8, u32)>,
    /// A discard waiting for madness's questions (`keywords/madness.rs`).
    #[serde(
        default,
        skip_serializing_if = "crate::keywords::madness::MadnessDiscards::is_empty"
    )]
    pub madness_discards: crate::keywords::madness::MadnessDiscards,
    /// During a batch of permanents leaving together: the triggered abilities granted by
    /// static abilities as they were before the batch (holder, granting card, static index),
    /// so granted leaves-the-battlefield abilities look back too (410.10d / 603.10a).
    #[serde(skip)]
    pub(crate) lookback_grants: Option<Vec<(ObjectId, CardId, u8)>>,
    /// Power of creatures as they last existed on the battlefield this turn (last known
    /// information for "damage equal to its power" after it left); cleared in cleanup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lki_power: Vec<(ObjectId, i32)>,
    /// Permanents that left the battlefield this turn with no time counter on them, kept
    /// only for cards whose "when ~ dies, if it had no time counters on it" asks (last
    /// known information); cleared in cleanup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lki_without_time_counters: Vec<ObjectId>,
    /// Permanents that left the battlefield this turn having been cast from their owner's
    /// hand, kept only for cards whose text asks (Coal Stoker's "if you cast it from your
    /// hand", checked again as its trigger resolves: last known information); cleared in
    /// cleanup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lki_cast_from_hand: Vec<ObjectId>,
    /// Permanents that left the battlefield this turn having been cast for their madness
    /// cost (Grave Scrabbler's "if its madness cost was paid", last known information);
    /// cleared in cleanup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lki_madness_cast: Vec<ObjectId>,
    /// Auras that left the battlefield this turn with an activated ability of theirs on the
    /// stack, and what each was attached to (last known information for `enchanted`:
    /// R-ghitu-firebreathing-1); cleared in cleanup.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lki_attached: Vec<(ObjectId, ObjectId)>,
    /// Why the game ended in a draw, when a rule other than "every player lost" ended it
    /// (an endless mandatory loop, `loops.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_reason: Option<crate::loops::DrawReason>,
    /// Endless mandatory loop detection (102.4b / 104.4b, `loops.rs`).
    #[serde(default, skip_serializing_if = "crate::loops::LoopWatch::is_idle")]
    pub loop_watch: crate::loops::LoopWatch,
    /// Set as a player receives priority after a state-based-action check that found none
    /// (`priority.rs`); cleared by any answer but that player's pass. While set, nothing
    /// has changed since that check, so the next player's first check is skipped (it would
    /// find none). Never saved: a loaded or new game checks again.
    #[serde(skip)]
    pub(crate) sba_clean: bool,
    /// What this game's cards can do, worked out once (`census.rs`); never saved.
    #[serde(skip)]
    pub(crate) census: crate::census::Census,
    /// The controller of the spell or ability whose effect is being executed right now
    /// (`resolve.rs` sets it around each effect; the resolution itself is out of
    /// `Game::resolution` meanwhile): "a spell or ability an opponent controls causes you to
    /// discard ~" (Dodecapod). Never saved: it lives only inside one effect.
    #[serde(skip)]
    pub(crate) executing_for: Option<PlayerId>,
    /// Damage being dealt now "can't be prevented" (Volcano Hellion, `resolve/damage.rs`):
    /// prevention effects and shields don't apply to it (redirection and other replacements
    /// still do). Never saved: set only around the `deal_damage` calls of one effect.
    #[serde(skip)]
    pub(crate) damage_unpreventable: bool,
    /// "You can't lose the game this turn and your opponents can't win the game this turn"
    /// (Angel's Grace): the player and the turn (`sba.rs`: `Game::can_lose`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cant_lose: Vec<(PlayerId, u32)>,
    /// Some card can target an activated or triggered ability (Trickbind): abilities put on
    /// the stack get serial numbers (`StackItem::serial`, `stack.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_ability_targets: bool,
    /// The last serial number given to an ability on the stack.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_ability_serial: u32,
    /// Permanents whose activated abilities can't be activated this turn, with the turn
    /// (Trickbind: `Game::activations_locked`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locked_activations: Vec<(ObjectId, u32)>,
    /// Upkeep steps begun this turn (Paradox Haze's "first upkeep each turn"), counted in
    /// games with an Aura enchanting a player.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub upkeeps_this_turn: u32,
    /// Additional upkeep steps still to come after this one (`turn.rs`, 2006 300.7 /
    /// 2014 500.8: "an additional step after this step").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_upkeeps: u32,
    /// Untap step choices made so far ("you may choose not to untap ~": Giant Oyster): the
    /// permanent and whether it untaps (`turn.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untap_choices: Vec<(ObjectId, bool)>,
    /// Pregame actions answered (Gemstone Caverns, `turn.rs`): the player and, if they
    /// took it, the card and the card exiled from their hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pregame: Vec<(PlayerId, Option<(ObjectId, ObjectId)>)>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        serde_json::to_string(self).ok() == serde_json::to_string(other).ok()
    }
}

impl Game {
    /// Starts a game: libraries shuffled, first player chosen, seven cards each, and the
    /// first mulligan decision pending.
    pub fn new(setup: &GameSetup) -> Result<Game, SetupError> {
        Self::new_with(setup, true)
    }

    /// `check_support = false` lets tests and benches use test-only cards.
    pub fn new_with(setup: &GameSetup, check_support: bool) -> Result<Game, SetupError> {
        let catalog = Catalog::builtin();
        if setup.players.len() < 2 {
            return Err(SetupError::TooFewPlayers);
        }
        if setup.players.len() > 250 {
            return Err(SetupError::Invalid("too many players".into()));
        }
        let mut g = Game::empty(
            setup.ruleset,
            setup.seed,
            setup.players.iter().map(|p| p.name.clone()).collect(),
            setup.starting_life,
        );
        for (i, p) in setup.players.iter().enumerate() {
            if p.deck.is_empty() {
                return Err(SetupError::EmptyDeck(p.name.clone()));
            }
            for &card in &p.deck {
                let def = catalog.get(card);
                if let crate::cards::Support::Unsupported(reason) = &def.support {
                    return Err(SetupError::UnsupportedCard {
                        player: p.name.clone(),
                        card: def.name.clone(),
                        reason: reason.clone(),
                    });
                }
                if def.support == crate::cards::Support::Token {
                    return Err(SetupError::UnsupportedCard {
                        player: p.name.clone(),
                        card: def.name.clone(),
                        reason: "a token is not a card".into(),
                    });
                }
                if check_support && def.support == crate::cards::Support::TestOnly {
                    return Err(SetupError::UnsupportedCard {
                        player: p.name.clone(),
                        card: def.name.clone(),
                        reason: "test-only card".into(),
                    });
                }
                g.create_object(card, PlayerId(i as u8), ZoneKind::Library);
            }
        }
        let first = match setup.first_player {
            Some(p) if p.index() < setup.players.len() => p,
            Some(p) => return Err(SetupError::Invalid(format!("no player {p}"))),
            None => PlayerId(g.rng.random_range(0..setup.players.len()) as u8),
        };
        g.first_player = first;
        g.active = first;
        g.emit(Event::GameStarted { first });
        for i in 0..g.players.len() {
            g.shuffle_library(PlayerId(i as u8));
        }
        for i in 0..g.players.len() {
            g.draw_cards(PlayerId(i as u8), 7);
        }
        g.pending = Some(Pending {
            player: first,
            decision: Decision::Mulligan { hand_size: 7 },
        });
        Ok(g)
    }

    /// A game with players and no cards, before any turn (for scenarios and tests).
    pub fn empty(ruleset: Ruleset, seed: u64, names: Vec<String>, life: i32) -> Game {
        Game {
            ruleset,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            players: names
                .into_iter()
                .map(|name| Player {
                    name,
                    life,
                    poison: 0,
                    library: Vec::new(),
                    hand: Vec::new(),
                    graveyard: Vec::new(),
                    pool: ManaPool::default(),
                    lands_played: 0,
                    lost: None,
                    drew_from_empty: false,
                    mulligans: 0,
                    kept: false,
                    mulligan_intent: false,
                    turn_started: 0,
                    turns_begun: 0,
                    life_lost_this_turn: 0,
                    turn_ended: 0,
                    upkeeps_began: [0, 0],
                    max_hand_size: 7,
                })
                .collect(),
            objects: Vec::new(),
            battlefield: Vec::new(),
            stack: Vec::new(),
            exile: Vec::new(),
            turn: 0,
            active: PlayerId(0),
            first_player: PlayerId(0),
            step: Step::Untap,
            passes: 0,
            pending: None,
            casting: None,
            resolution: None,
            combat: None,
            pt_effects: Vec::new(),
            shields: Vec::new(),
            shield_orders: Vec::new(),
            player_damage_orders: Vec::new(),
            sacrifice_choices: Vec::new(),
            granted_flashback: Vec::new(),
            exile_plays: Vec::new(),
            skips: Vec::new(),
            extra_turns: Vec::new(),
            frozen: Vec::new(),
            library_instead: Default::default(),
            turn_after_extra: None,
            char_effects: Vec::new(),
            layered: false,
            links: Vec::new(),
            delayed: Vec::new(),
            entering_land: None,
            copying: None,
            face_up_choosing: None,
            copy_chosen: Vec::new(),
            enter_choices: Vec::new(),
            next_timestamp: 1,
            result: None,
            cleanup_again: false,
            priority_after_sba: None,
            tokens_created: false,
            triggers: Vec::new(),
            has_triggers: false,
            has_statics: false,
            has_graveyard_statics: false,
            events: Vec::new(),
            lookback: Vec::new(),
            lookback_attached: Vec::new(),
            layer_cache: Default::default(),
            grant_sources: Default::default(),
            sources_memo: Default::default(),
            payment_memo: Default::default(),
            damage_record: Vec::new(),
            player_damage_record: Vec::new(),
            has_state_triggers: false,
            has_flashback: false,
            has_suspended_cards: false,
            has_lifelink_somewhere: false,
            has_bloodthirst: false,
            has_graveyard_abilities: false,
            has_exile_triggers: false,
            haunting: Vec::new(),
            unblockable_turn: None,
            cant_be_attacked: Vec::new(),
            cost_exiled: Vec::new(),
            players_damaged: Vec::new(),
            cast_after_resolution: None,
            has_storm: false,
            this_turn: Default::default(),
            spell_snapshots: Vec::new(),
            copy_retargets: Vec::new(),
            madness_discards: Default::default(),
            forecasts: Vec::new(),
            activations: Vec::new(),
            has_cost_reducers: false,
            lookback_grants: None,
            lki_power: Vec::new(),
            lki_without_time_counters: Vec::new(),
            lki_cast_from_hand: Vec::new(),
            lki_madness_cast: Vec::new(),
            lki_attached: Vec::new(),
            draw_reason: None,
            loop_watch: Default::default(),
            sba_clean: false,
            census: Default::default(),
            executing_for: None,
            damage_unpreventable: false,
            cant_lose: Vec::new(),
            has_ability_targets: false,
            next_ability_serial: 0,
            locked_activations: Vec::new(),
            upkeeps_this_turn: 0,
            extra_upkeeps: 0,
            untap_choices: Vec::new(),
            pregame: Vec::new(),
        }
    }

    // ----- the decision API -------------------------------------------------------------

    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// Validates `answer` from `player`, applies it, and runs the game until the next
    /// decision. On error nothing has changed.
    pub fn submit(&mut self, player: PlayerId, answer: Answer) -> Result<Vec<Event>, RuleError> {
        if self.result.is_some() {
            return Err(RuleError::GameOver);
        }
        if player.index() >= self.players.len() {
            return Err(RuleError::illegal(format!("there is no player {player}")));
        }
        if answer == Answer::Concede {
            if !self.players[player.index()].in_game() {
                return Err(RuleError::illegal("you have already left this game"));
            }
            self.sba_clean = false;
            self.events.clear();
            self.loop_watch = Default::default();
            // A question asked before an answer's run: the game is back at that answer.
            if let Some((_, _, waiting)) = self.library_instead.deferred.take() {
                self.pending = Some(waiting);
                self.library_instead = Default::default();
            }
            self.concede(player);
            return Ok(std::mem::take(&mut self.events));
        }
        let Some(pending) = self.pending.clone() else {
            return Err(RuleError::GameOver);
        };
        if pending.player != player {
            return Err(RuleError::NotYourDecision {
                waiting_for: pending.player,
                what: pending.decision.describe(),
            });
        }
        // Only passing priority keeps the "nothing changed since the last check" mark.
        if !(answer == Answer::Pass && pending.decision == Decision::Priority) {
            self.sba_clean = false;
        }
        // Validate on a copy of the checks, then apply: every handler validates fully before
        // its first change, so an error leaves the game untouched.
        self.events.clear();
        // 102.4b / 104.4b: whether this decision left a real choice (before it changes).
        let forced = self.forced_decision(&pending, &answer);
        let r = self.dispatch_asking_library_instead(player, &pending, answer);
        // A kept payment answers one decision only.
        self.payment_memo.clear();
        match r {
            Ok(()) => {
                self.watch_for_loop(forced);
                Ok(std::mem::take(&mut self.events))
            }
            Err(e) => {
                debug_assert!(
                    self.events.is_empty(),
                    "a refused answer changed the game: {:?}",
                    self.events
                );
                self.events.clear();
                Err(e)
            }
        }
    }

    pub(crate) fn dispatch(
        &mut self,
        player: PlayerId,
        decision: &Decision,
        answer: Answer,
    ) -> Result<(), RuleError> {
        match decision {
            Decision::Mulligan { .. } => self.answer_mulligan(player, answer),
            Decision::Priority => self.answer_priority(player, answer),
            d @ Decision::PayMana { .. } if self.casting.is_none() && self.resolution.is_some() => {
                self.answer_optional_payment(player, d, answer)
            }
            Decision::ChooseMode { options } if self.face_up_choosing.is_some() => {
                self.answer_face_up_choice(player, options.len(), answer)
            }
            Decision::ChooseMode { options }
                if self.casting.is_none() && self.resolution.is_some() =>
            {
                self.answer_resolution_option(options.len(), answer)
            }
            Decision::ChooseX if self.casting.is_none() && self.resolution.is_some() => {
                self.answer_resolution_number(answer)
            }
            Decision::ChooseMode { .. }
            | Decision::ChooseX
            | Decision::ChooseCostOption { .. }
            | Decision::ChooseTarget { .. }
            | Decision::ChooseCostObjects { .. }
            | Decision::PayMana { .. } => self.answer_casting(player, answer),
            Decision::DeclareAttackers => self.answer_attackers(player, answer),
            Decision::DeclareBlockers => self.answer_blockers(player, answer),
            d @ Decision::Sacrifice { .. } if self.paying_attack_cost() => {
                self.answer_attack_cost(player, d, answer)
            }
            Decision::Discard { .. }
            | Decision::Sacrifice { .. }
            | Decision::ReturnToHand { .. }
            | Decision::Search { .. }
            | Decision::AuraSwap { .. }
            | Decision::PutFromHand { .. }
            | Decision::SeparatePiles { .. }
            | Decision::Reveal { .. } => self.answer_resolution_choice(player, decision, answer),
            Decision::EnchantAsItEnters { aura, .. } => self.answer_enchant(player, *aura, answer),
            Decision::KeepLegend { name } => self.answer_keep_legend(player, name, answer),
            Decision::OrderBlockers { attacker } => {
                self.answer_order_blockers(player, *attacker, answer)
            }
            Decision::AssignCombatDamage { attacker, .. } => {
                self.answer_assign_damage(player, *attacker, answer)
            }
            Decision::OrderTriggers { .. } => self.answer_order_triggers(player, answer),
            Decision::ChooseCreatureType { .. } => self.answer_creature_type(player, answer),
            Decision::NameCard { .. } => self.answer_card_name(player, answer),
            Decision::YesNo { .. } if self.casting.is_some() => self.answer_casting(player, answer),
            Decision::YesNo { .. } if self.madness_discards.asking.is_some() => {
                self.answer_madness_discard(player, answer)
            }
            Decision::YesNo { .. }
                if self.step == crate::steps::Step::Untap && self.resolution.is_none() =>
            {
                self.answer_untap_choice(player, answer)
            }
            Decision::YesNo { .. } => self.answer_yes_no(player, answer),
            Decision::ChooseCopy { .. } => match self.copying {
                Some(choice) => self.answer_copy_creature(answer, choice),
                None => self.answer_copy(player, answer),
            },
            Decision::OrderReplacements {
                recipient,
                descriptions,
            } => self.answer_order_replacements(player, *recipient, descriptions.len(), answer),
            Decision::DivideDamage { .. } => self.answer_casting(player, answer),
            Decision::SacrificeForDamage { recipient, count } => {
                self.answer_sacrifice_for_damage(player, *recipient, *count, answer)
            }
            d @ Decision::Scry { .. } => self.answer_scry(player, d, answer),
            Decision::Dredge { cards, .. } => self.answer_dredge(player, cards, answer),
            Decision::PregameAction { card, .. } => self.answer_pregame(player, *card, answer),
        }
    }

    /// Every answer `player` may give now (empty when it is not their decision). Mana
    /// abilities at priority are included; concession is always possible and not listed.
    pub fn legal_answers(&self, player: PlayerId) -> Vec<Answer> {
        let Some(p) = &self.pending else {
            return Vec::new();
        };
        if p.player != player || self.result.is_some() {
            return Vec::new();
        }
        match &p.decision {
            Decision::Mulligan { .. } => vec![Answer::Keep, Answer::Mulligan],
            Decision::Priority => self.priority_answers(player),
            d @ Decision::PayMana { .. } if self.casting.is_none() && self.resolution.is_some() => {
                self.optional_payment_answers(player, d)
            }
            Decision::ChooseMode { options }
                if (self.casting.is_none() && self.resolution.is_some())
                    || self.face_up_choosing.is_some() =>
            {
                (0..options.len() as u8).map(Answer::Mode).collect()
            }
            // A number chosen as something resolves: any number; 0 to 20 are listed.
            Decision::ChooseX if self.casting.is_none() && self.resolution.is_some() => {
                (0..=20).map(Answer::X).collect()
            }
            Decision::ChooseMode { .. }
            | Decision::ChooseX
            | Decision::ChooseCostOption { .. }
            | Decision::ChooseTarget { .. }
            | Decision::ChooseCostObjects { .. }
            | Decision::PayMana { .. } => self.casting_answers(player),
            Decision::DeclareAttackers => self.attack_answers(player),
            Decision::DeclareBlockers => self.block_answers(player),
            d @ (Decision::Discard { .. }
            | Decision::Sacrifice { .. }
            | Decision::ReturnToHand { .. }
            | Decision::Search { .. }
            | Decision::AuraSwap { .. }
            | Decision::PutFromHand { .. }
            | Decision::SeparatePiles { .. }
            | Decision::Reveal { .. }) => self.resolution_choice_answers(player, d),
            Decision::EnchantAsItEnters { aura, .. } => self.enchant_answers(player, *aura),
            Decision::KeepLegend { name } => self
                .legend_group(player, name)
                .into_iter()
                .map(|id| Answer::Objects(vec![id]))
                .collect(),
            Decision::OrderBlockers { attacker } => self.order_blockers_answers(*attacker),
            Decision::AssignCombatDamage { attacker, .. } => self.assign_damage_answers(*attacker),
            Decision::OrderTriggers { .. } => self.order_trigger_answers(player),
            Decision::OrderReplacements { descriptions, .. } => {
                self.order_replacement_answers(descriptions.len())
            }
            Decision::ChooseCreatureType { .. } => self
                .catalog()
                .creature_types()
                .iter()
                .map(|t| Answer::CreatureType(t.clone()))
                .collect(),
            Decision::NameCard { .. } => self.card_name_answers(),
            Decision::YesNo { .. } if self.library_instead.asking.is_some() => {
                vec![Answer::Yes, Answer::No]
            }
            Decision::YesNo { .. } if self.casting.is_some() => self.casting_answers(player),
            Decision::YesNo { .. } => vec![Answer::Yes, Answer::No],
            Decision::DivideDamage { .. } => self.casting_answers(player),
            Decision::SacrificeForDamage { count, .. } => {
                self.sacrifice_for_damage_answers(player, *count)
            }
            Decision::ChooseCopy { .. } => std::iter::once(Answer::Objects(Vec::new()))
                .chain(
                    match self.copying {
                        Some(c) => self.copy_creature_candidates(c.object),
                        None => self.copy_candidates(),
                    }
                    .into_iter()
                    .map(|l| Answer::Objects(vec![l])),
                )
                .collect(),
            d @ Decision::Scry { .. } => Self::scry_answers(d),
            Decision::PregameAction { card, .. } => self.pregame_answers(player, *card),
            Decision::Dredge { cards, .. } => std::iter::once(Answer::Objects(Vec::new()))
                .chain(cards.iter().map(|c| Answer::Objects(vec![*c])))
                .collect(),
        }
    }

    /// Whether [`Game::legal_answers`] lists `answer` for `player`: the same result, checked
    /// for that one answer where that is cheaper (paying automatically or cancelling while
    /// casting); otherwise by listing them all.
    pub fn lists_answer(&self, player: PlayerId, answer: &Answer) -> bool {
        if let Some(p) = &self.pending
            && p.player == player
            && self.result.is_none()
            && self.casting.is_some()
            && matches!(p.decision, Decision::PayMana { .. })
            && let Some(listed) = self.casting_lists(player, answer)
        {
            // `legal_answers` sends a payment while casting to `casting_answers`.
            return listed;
        }
        self.legal_answers(player).contains(answer)
    }

    /// A stable hash of the whole state (FNV-1a over its JSON).
    pub fn state_hash(&self) -> u64 {
        let json = serde_json::to_vec(self).unwrap_or_default();
        fnv1a(&json)
    }

    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
    pub fn from_json(s: &str) -> Result<Game, serde_json::Error> {
        serde_json::from_str(s)
    }

    // ----- queries --------------------------------------------------------------------

    pub fn catalog(&self) -> &'static Catalog {
        Catalog::builtin()
    }

    /// What this game's cards can do (`census.rs`), worked out on first use.
    pub(crate) fn facts(&self) -> crate::census::Facts {
        self.census.facts(&self.objects, self.catalog())
    }

    /// The current object with this id, or None if the card has since changed zones.
    pub fn obj(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id.slot()).filter(|o| o.id == id)
    }
    pub(crate) fn obj_mut(&mut self, id: ObjectId) -> Option<&mut Object> {
        self.objects.get_mut(id.slot()).filter(|o| o.id == id)
    }
    pub fn card_name(&self, id: ObjectId) -> &str {
        let slot = &self.objects[id.slot().min(self.objects.len().saturating_sub(1))];
        &self.catalog().get(slot.face()).name
    }
    /// The card whose values the object has: its own, or, for a copy (layer 1), the card it
    /// copies.
    pub fn def(&self, id: ObjectId) -> Option<&'static crate::cards::CardDef> {
        self.obj(id).map(|o| self.catalog().get(o.face()))
    }
    pub fn is_on_battlefield(&self, id: ObjectId) -> bool {
        self.obj(id)
            .is_some_and(|o| o.zone == ZoneKind::Battlefield)
    }
    pub fn player(&self, p: PlayerId) -> &Player {
        &self.players[p.index()]
    }
    pub(crate) fn player_mut(&mut self, p: PlayerId) -> &mut Player {
        &mut self.players[p.index()]
    }
    pub fn player_ids(&self) -> impl Iterator<Item = PlayerId> + '_ {
        (0..self.players.len()).map(|i| PlayerId(i as u8))
    }
    /// Players still in the game, in turn order starting with `from`.
    pub fn players_from(&self, from: PlayerId) -> Vec<PlayerId> {
        let n = self.players.len();
        (0..n)
            .map(|k| PlayerId(((from.index() + k) % n) as u8))
            .filter(|p| self.player(*p).in_game())
            .collect()
    }
    /// APNAP order (103.4): the active player, then the others in turn order.
    pub fn apnap(&self) -> Vec<PlayerId> {
        self.players_from(self.active)
    }
    pub fn opponents(&self, p: PlayerId) -> Vec<PlayerId> {
        self.players_from(p)
            .into_iter()
            .filter(|q| *q != p)
            .collect()
    }
    pub fn next_player_after(&self, p: PlayerId) -> PlayerId {
        // The first other player in game in turn order after `p` (asked at every pass:
        // no list built).
        let n = self.players.len();
        (1..n)
            .map(|k| PlayerId(((p.index() + k) % n) as u8))
            .find(|q| self.player(*q).in_game())
            .unwrap_or(p)
    }
    pub fn living_players(&self) -> usize {
        self.players.iter().filter(|p| p.in_game()).count()
    }
    pub fn battlefield_of(&self, controller: PlayerId) -> impl Iterator<Item = &Object> + '_ {
        self.battlefield
            .iter()
            .filter_map(|id| self.obj(*id))
            .filter(move |o| o.controller == controller)
    }
    pub fn has_type(&self, id: ObjectId, t: CardType) -> bool {
        if self.layered() {
            return self.with_chars(id, |c| c.has_type(t)) == Some(true);
        }
        self.def(id).is_some_and(|d| d.has_type(t))
    }
    pub fn is_creature(&self, id: ObjectId) -> bool {
        self.has_type(id, CardType::Creature)
    }
    /// Whether the object's controller has controlled it continuously since the start of
    /// their most recent turn (212.3d).
    pub fn controlled_since_turn_start(&self, id: ObjectId) -> bool {
        self.obj(id)
            .is_some_and(|o| o.controlled_since < self.player(o.controller).turn_started)
    }
    pub fn target_exists(&self, t: Target) -> bool {
        match t {
            Target::Player(p) => p.index() < self.players.len() && self.player(p).in_game(),
            Target::Object(id) => self.obj(id).is_some(),
            Target::Ability(serial) => self.ability_on_stack(serial).is_some(),
        }
    }

    // ----- primitive actions ------------------------------------------------------------

    /// Records an event and collects the triggered abilities it triggers (410.2).
    pub(crate) fn emit(&mut self, e: Event) {
        if self.has_triggers {
            self.collect_triggers(&e);
        }
        self.events.push(e);
    }

    pub(crate) fn new_timestamp(&mut self) -> u32 {
        let t = self.next_timestamp;
        self.next_timestamp += 1;
        t
    }

    /// Turns on the checks a card's abilities need (triggers, statics, layers) once an
    /// object with its values exists: as it is created, or as something becomes a copy of
    /// it (layer 1).
    pub(crate) fn note_card_abilities(&mut self, card: CardId) {
        let def = self.catalog().get(card);
        // Flanking, rampage and (classic) deathtouch are triggered abilities too, printed
        // or granted.
        let keyword_trigger = def.keywords.iter().any(|k| k.is_triggered())
            || def
                .statics
                .iter()
                .any(|s| s.grants.iter().any(|k| k.is_triggered()));
        if !def.triggers.is_empty()
            || keyword_trigger
            || def.suspend.is_some()
            || def.statics.iter().any(|s| !s.grant_triggers.is_empty())
        {
            self.has_triggers = true;
        }
        if !def.statics.is_empty()
            || def.enchanted_cant_activate
            || def.enchanted_cant_be_enchanted_by_other_auras
            || def.own_creature_cards_have_flash
            || def.opponents_sorcery_timing
            || def.opponents_cards_exiled_instead
            || def.your_spells_alternative_cost.is_some()
        {
            self.has_statics = true;
        }
        if def.statics.iter().any(|s| s.from_graveyard()) {
            self.has_graveyard_statics = true;
        }
        if def.bloodthirst > 0 {
            self.has_bloodthirst = true;
        }
        if def.targets_abilities() {
            self.has_ability_targets = true;
        }
        if def.abilities.iter().any(|a| a.from_graveyard) {
            self.has_graveyard_abilities = true;
        }
        if def.triggers.iter().any(|t| t.functions_in_exile())
            || def.abilities.iter().any(|a| a.while_suspended)
        {
            self.has_exile_triggers = true;
        }
        if def.keywords.contains(&crate::keywords::Keyword::Lifelink)
            || def
                .statics
                .iter()
                .any(|s| s.grants.contains(&crate::keywords::Keyword::Lifelink))
        {
            self.has_lifelink_somewhere = true;
        }
        if def
            .triggers
            .iter()
            .any(|t| matches!(t.when, crate::triggers::TriggerEvent::State(_)))
        {
            self.has_state_triggers = true;
        }
        if def.statics.iter().any(|s| s.is_layered()) {
            self.layered = true;
        }
        self.has_flashback |= def.flashback.is_some();
        if def.cast_keys.storm
            || def.cast_keys.gravestorm
            || def
                .enters_with_more
                .iter()
                .any(|w| w.count == crate::cards::EntersCount::OtherSpellsThisTurn)
        {
            self.has_storm = true;
            self.has_triggers = true;
        }
        self.has_cost_reducers |= def.reduce_per_same_name_in_graveyard > 0
            || def.spells_cost_more > 0
            || def.spells_cost_less.is_some()
            || def.costs_less_with_creature_cards_in_graveyards.is_some();
    }

    /// Creates a new object (a card at game start, or a token) in `zone`.
    pub(crate) fn create_object(
        &mut self,
        card: CardId,
        owner: PlayerId,
        zone: ZoneKind,
    ) -> ObjectId {
        let slot = self.objects.len() as u16;
        let id = ObjectId::new(slot, 0);
        self.note_card_abilities(card);
        self.census.forget();
        let timestamp = self.new_timestamp();
        self.objects.push(Object {
            id,
            card,
            owner,
            controller: owner,
            zone,
            tapped: false,
            damage: 0,
            counters: Counters::default(),
            timestamp,
            entered_turn: if zone == ZoneKind::Battlefield {
                self.turn
            } else {
                0
            },
            controlled_since: self.turn,
            control_clock: timestamp,
            token: false,
            ceased: false,
            attached_to: None,
            attached_player: None,
            deathtouch_damage: false,
            chosen_type: None,
            chosen: None,
            entered_under: None,
            copy_of: None,
            copy_trigger: false,
            copy_until: crate::copy::CopyUntil::AsEntered,
            face_down: false,
            flashback: false,
            suspend_cast: false,
            kicked: 0,
            cast_x: 0,
            buyback: false,
            spell_copy: false,
            gained_suspend: false,
            cast_from_hand: false,
            madness_cast: false,
            split_half: None,
            token_pt: None,
            copy_pt: None,
        });
        if let Some(list) = self.zone_list_mut(owner, zone) {
            list.push(id);
        }
        id
    }

    /// The ordered list of a zone; None for the stack, whose membership is held by
    /// [`StackItem`]s.
    fn zone_list_mut(&mut self, owner: PlayerId, zone: ZoneKind) -> Option<&mut Vec<ObjectId>> {
        Some(match zone {
            ZoneKind::Library => &mut self.players[owner.index()].library,
            ZoneKind::Hand => &mut self.players[owner.index()].hand,
            ZoneKind::Graveyard => &mut self.players[owner.index()].graveyard,
            ZoneKind::Battlefield => &mut self.battlefield,
            ZoneKind::Exile => &mut self.exile,
            ZoneKind::Stack => return None,
        })
    }

    /// Moves an object to another zone (owner's zone for library/hand/graveyard); it becomes
    /// a new object with a new id and timestamp and no status (rule 217.1c / 400.7).
    /// Returns the new id, or None if `id` is no longer current.
    pub(crate) fn move_object(
        &mut self,
        id: ObjectId,
        to: ZoneKind,
        pos: Position,
    ) -> Option<ObjectId> {
        // A face-down spell resolves into a face-down permanent (502.26b / 702.36c); every
        // other move turns a face-down object face up (504 / 707.9: it is revealed).
        let stays_face_down = self.obj(id).is_some_and(|o| {
            o.face_down && o.zone == ZoneKind::Stack && to == ZoneKind::Battlefield
        });
        self.move_object_as(id, to, pos, stays_face_down)
    }

    /// [`Game::move_object`], with whether the new object is face down (a card cast face
    /// down goes to the stack face down).
    pub(crate) fn move_object_as(
        &mut self,
        id: ObjectId,
        to: ZoneKind,
        pos: Position,
        face_down: bool,
    ) -> Option<ObjectId> {
        let (from, owner, controller, was_face_down) = {
            let o = self.obj(id)?;
            (o.zone, o.owner, o.controller, o.face_down)
        };
        if !self.token_may_move(id, to) {
            return None;
        }
        if from == ZoneKind::Stack && self.objects[id.slot()].spell_copy {
            // S16: a copy of a spell leaving the stack ceases to exist.
            self.copy_ceases(id);
            return None;
        }
        // The event names the object as it last existed, or the face-down characteristics
        // when it is face down on either side (hidden information, 707.2).
        let card = if was_face_down || face_down {
            self.catalog().face_down()
        } else {
            self.objects[id.slot()].face()
        };
        let (to, pos) = self.replaced_destination(id, from, to, pos);
        if from == ZoneKind::Battlefield && to == ZoneKind::Graveyard {
            self.note_to_graveyard();
        }
        if from == ZoneKind::Stack {
            self.stack.retain(|s| s.object() != Some(id));
        } else if let Some(list) = self.zone_list_mut(owner, from)
            && let Some(i) = list.iter().position(|x| *x == id)
        {
            list.remove(i);
        }
        if from == ZoneKind::Battlefield {
            if self.has_triggers && self.is_creature(id) {
                let power = self.power(id);
                if self.lki_power.len() >= 64 {
                    // Only abilities still waiting or on the stack can ask (a loop of
                    // zone changes in one turn must not grow the state without end).
                    // Their sources too: "if it was a creature" (Weatherseed Totem).
                    let wanted: Vec<ObjectId> = self
                        .triggers
                        .iter()
                        .flat_map(|t| [t.subject, Some(t.source)])
                        .chain(self.stack.iter().flat_map(|s| match s.kind {
                            crate::stack::StackKind::Trigger {
                                subject, source, ..
                            } => [subject, Some(source)],
                            _ => [None, None],
                        }))
                        .flatten()
                        .collect();
                    self.lki_power.retain(|(o, _)| wanted.contains(o));
                }
                self.lki_power.push((id, power));
            }
            self.note_trigger_condition_lki(id);
            self.note_attached_lki(id);
            self.leave_battlefield_cleanup(id);
        }
        let new_id = id.next();
        let ts = self.new_timestamp();
        let turn = self.turn;
        {
            let o = &mut self.objects[id.slot()];
            o.id = new_id;
            o.zone = to;
            o.controller = owner;
            o.tapped = false;
            o.damage = 0;
            o.counters = Counters::default();
            o.timestamp = ts;
            o.controlled_since = turn;
            o.entered_turn = if to == ZoneKind::Battlefield { turn } else { 0 };
            o.control_clock = ts;
            o.attached_to = None;
            o.attached_player = None;
            o.deathtouch_damage = false;
            o.entered_under = None;
            o.copy_of = None;
            o.copy_pt = None;
            o.copy_trigger = false;
            o.copy_until = crate::copy::CopyUntil::AsEntered;
            o.face_down = face_down;
            // 505.2 / 708.3: off the stack, a split card has both halves again.
            o.split_half = None;
            o.flashback = false;
            o.buyback = false;
            o.gained_suspend = false;
            // Kicked-ness (and having been cast from the hand) goes with the spell onto the
            // battlefield, and no further.
            if !(from == ZoneKind::Stack && to == ZoneKind::Battlefield) {
                o.kicked = 0;
                o.cast_x = 0;
                o.cast_from_hand = false;
                o.madness_cast = false;
            }
            if to != ZoneKind::Stack && to != ZoneKind::Battlefield {
                o.chosen_type = None;
                o.chosen = None;
                // A P/T chosen as it entered (Aquamorph Entity); a token keeps the one it
                // was created with.
                if !o.token {
                    o.token_pt = None;
                }
            }
        }
        if let Some(list) = self.zone_list_mut(owner, to) {
            match pos {
                Position::Top => list.push(new_id),
                Position::Bottom => list.insert(0, new_id),
            }
        }
        if from == ZoneKind::Battlefield {
            // After the move: effects locked to it end, and "for as long as you control"
            // effects whose source it was end too (layer 2).
            self.drop_char_effects_of(id);
        }
        if from == ZoneKind::Stack {
            self.carry_spell_effects(id, (to == ZoneKind::Battlefield).then_some(new_id));
            if to == ZoneKind::Battlefield && !self.shields.is_empty() {
                self.follow_source_shields(id, new_id);
            }
        }
        self.emit(Event::ZoneChanged {
            card,
            old: id,
            new: new_id,
            from,
            to,
            owner,
            controller,
        });
        if was_face_down && !face_down && from != ZoneKind::Exile {
            // 504.4 / 707.9: a face-down spell or permanent leaving is revealed (a card
            // exiled face down is not: Magus of the Jar's return it to a hidden hand).
            self.emit(Event::Revealed {
                player: owner,
                card: new_id,
            });
        }
        Some(new_id)
    }

    /// Where a move goes once replacements have changed it (419.6 / 614): "you may put it
    /// on top of its owner's library instead" (Pulmonic Sliver), "if it would die, exile it
    /// instead" (Disintegrate), flashback's exile.
    fn replaced_destination(
        &mut self,
        id: ObjectId,
        from: ZoneKind,
        to: ZoneKind,
        pos: Position,
    ) -> (ZoneKind, Position) {
        let dies = from == ZoneKind::Battlefield && to == ZoneKind::Graveyard;
        if dies && self.library_instead_chosen(id) {
            (ZoneKind::Library, Position::Top)
        } else if dies && self.dies_replacement(id) == ZoneKind::Exile {
            (ZoneKind::Exile, pos)
        } else if from == ZoneKind::Stack && self.obj(id).is_some_and(|o| o.flashback) {
            // 502.22a / 702.34a: a spell cast with flashback is exiled instead of going
            // anywhere else as it leaves the stack (resolving, countered, fizzling).
            (ZoneKind::Exile, pos)
        } else if to == ZoneKind::Graveyard && self.graveyard_exiles_instead(id) {
            (ZoneKind::Exile, pos)
        } else {
            (to, pos)
        }
    }

    /// Whether `id` may move to `to`: a token that has left the battlefield never returns
    /// to it (216.3 / 110.5f, every path: blinks, "return it", delayed returns, linked
    /// returns), and under modern rules it can't change zones at all (110.5f: it stays
    /// where it is until it ceases to exist).
    pub(crate) fn token_may_move(&self, id: ObjectId, to: ZoneKind) -> bool {
        let Some(o) = self.obj(id) else { return false };
        !o.token
            || o.zone == ZoneKind::Battlefield
            || (to != ZoneKind::Battlefield && self.ruleset.token_moves_after_leaving())
    }

    /// Creates a token on the battlefield under `controller`'s control, made by a spell or
    /// ability `creator` controls (216.1, Δ23): classic, `creator` owns it (200.4a); modern,
    /// `controller` does (110.5a). Owner and controller may differ (Pongify).
    pub(crate) fn create_token(
        &mut self,
        card: CardId,
        creator: PlayerId,
        controller: PlayerId,
    ) -> ObjectId {
        self.create_token_with_pt(card, creator, controller, None)
    }

    /// [`Game::create_token`]; `pt`: "an X/X token", its P/T as it enters (`Object::token_pt`).
    pub(crate) fn create_token_with_pt(
        &mut self,
        card: CardId,
        creator: PlayerId,
        controller: PlayerId,
        pt: Option<(i32, i32)>,
    ) -> ObjectId {
        self.tokens_created = true;
        let owner = if self.ruleset.token_owned_by_creator() {
            creator
        } else {
            controller
        };
        let id = self.create_object(card, owner, ZoneKind::Battlefield);
        let turn = self.turn;
        if let Some(o) = self.obj_mut(id) {
            o.token = true;
            o.controller = controller;
            // Control effects ending leave it with the player who put it there (layer 2).
            o.entered_under = (controller != owner).then_some(controller);
            o.controlled_since = turn;
            o.token_pt = pt;
        }
        self.emit(Event::EnteredBattlefield {
            object: id,
            card,
            controller,
        });
        id
    }

    /// Puts a card onto the battlefield under `controller`'s control, applying the
    /// "enters with" / "enters tapped" abilities as part of the event (410.10e).
    pub(crate) fn put_onto_battlefield(
        &mut self,
        id: ObjectId,
        controller: PlayerId,
        tapped: bool,
    ) -> Option<ObjectId> {
        let new_id = self.place_on_battlefield(id, controller, tapped, &[])?;
        self.emit_entered(new_id);
        Some(new_id)
    }

    /// "If a spell or ability an opponent controls causes you to discard ~, put it onto the
    /// battlefield with N +1/+1 counters on it instead" (Dodecapod): N, when `p` discards
    /// `card` while a spell or ability an opponent of `p` controls resolves (not a cost,
    /// not the cleanup discard, not their own spells).
    fn discard_to_battlefield(&self, p: PlayerId, card: ObjectId) -> Option<u32> {
        let n = self.def(card)?.opponent_discard_to_battlefield;
        (n > 0 && self.discard_caused_by_opponent(p)).then_some(n)
    }

    /// Whether a discard `p` makes now is caused by a spell or ability an opponent of `p`
    /// controls: inside its effect, or after a question that effect asked (madness); not a
    /// cost, not the cleanup discard, not `p`'s own spells (Dodecapod, Quagnoth).
    pub(crate) fn discard_caused_by_opponent(&self, p: PlayerId) -> bool {
        if self.casting.is_some() {
            return false;
        }
        self.executing_for
            .or_else(|| self.resolution.as_ref().map(|r| r.item.controller))
            .is_some_and(|cause| cause != p)
    }

    /// [`Game::put_onto_battlefield`] with counters an effect puts on it as it enters
    /// (Dodecapod's "onto the battlefield with two +1/+1 counters on it").
    pub(crate) fn put_onto_battlefield_with(
        &mut self,
        id: ObjectId,
        controller: PlayerId,
        counters: &[(crate::object::CounterKind, u32)],
    ) -> Option<ObjectId> {
        let new_id = self.place_on_battlefield(id, controller, false, &[])?;
        if let Some(o) = self.obj_mut(new_id) {
            for (k, n) in counters {
                o.counters.add(k.clone(), *n);
            }
        }
        self.emit_entered(new_id);
        Some(new_id)
    }

    /// Several cards enter the battlefield at the same time (Living End): every one is in
    /// place before any "enters" event, so their abilities see each other enter, and an
    /// "as ~ enters" effect of one (Ixidron) doesn't touch the others (R-ixidron-4).
    pub(crate) fn put_onto_battlefield_together(
        &mut self,
        cards: &[(ObjectId, PlayerId)],
    ) -> Vec<ObjectId> {
        let mut placed = Vec::new();
        for &(id, controller) in cards {
            if let Some(new_id) = self.place_on_battlefield(id, controller, false, &placed) {
                placed.push(new_id);
            }
        }
        for &new_id in &placed {
            self.emit_entered(new_id);
        }
        placed
    }

    fn emit_entered(&mut self, id: ObjectId) {
        if let Some(o) = self.obj(id) {
            let (card, controller) = (o.face(), o.controller);
            self.emit(Event::EnteredBattlefield {
                object: id,
                card,
                controller,
            });
        }
    }

    /// Last known information that "if" clauses of triggers ask after `id` left the
    /// battlefield: "if it had no time counters on it", "if you cast it from your hand"
    /// (kept only for the cards that ask).
    fn note_trigger_condition_lki(&mut self, id: ObjectId) {
        if self.has_triggers && self.asks_had_no_time_counters(id) {
            self.lki_without_time_counters.push(id);
        }
        if self.obj(id).is_some_and(|o| o.cast_from_hand)
            && self
                .def(id)
                .is_some_and(|d| d.asks_cast_from_hand_trigger())
        {
            self.lki_cast_from_hand.push(id);
        }
        if self.obj(id).is_some_and(|o| o.madness_cast) {
            self.lki_madness_cast.push(id);
        }
    }

    /// Whether `id`, leaving the battlefield now, has no time counter and a "dies, if it had
    /// no time counters on it" trigger that will ask so after it left.
    fn asks_had_no_time_counters(&self, id: ObjectId) -> bool {
        let asks = self.def(id).is_some_and(|d| {
            d.triggers
                .iter()
                .any(|t| t.condition == Some(crate::abilities::TriggerCondition::HadNoTimeCounters))
        });
        asks && self
            .obj(id)
            .is_some_and(|o| o.counters.get(&crate::object::CounterKind::Time) == 0)
    }

    /// Moves a card onto the battlefield with its "as it enters" and "enters with" effects;
    /// `together` are the permanents entering at the same time, already placed.
    fn place_on_battlefield(
        &mut self,
        id: ObjectId,
        controller: PlayerId,
        tapped: bool,
        together: &[ObjectId],
    ) -> Option<ObjectId> {
        let from_stack = self.obj(id).is_some_and(|o| o.zone == ZoneKind::Stack);
        let new_id = self.move_object(id, ZoneKind::Battlefield, Position::Top)?;
        // "As ~ enters the battlefield, ... a copy": chosen before it moved (`copy.rs`).
        self.apply_entering_copy(id, new_id);
        // "As ~ enters the battlefield, choose ...": chosen before it moved (`as_enters.rs`).
        self.apply_enter_choice(id, new_id);
        self.apply_chosen_pt(new_id);
        let def = self.def(new_id)?;
        let o = self.obj_mut(new_id)?;
        o.controller = controller;
        o.entered_under = (controller != o.owner).then_some(controller);
        // Its controller was set after the move: a new timestamp keeps the layer cache honest.
        self.new_timestamp();
        // Its own "enters tapped / with counters" abilities. Modern 614.12: they apply only
        // if it has them as it would exist on the battlefield (a land that enters as a
        // Plains under Celestial Dawn has no rules text); the 2006 ruling applies them
        // from the card (R-celestial-dawn-4).
        let own = self.ruleset.layers_2006() || self.has_own_abilities(new_id);
        let enters_tapped = tapped || (own && def.enters_tapped);
        let mut counters = if own {
            def.enters_with_counters.clone()
        } else {
            Vec::new()
        };
        // Epochrasite: "... with three +1/+1 counters on it if you didn't cast it from your
        // hand" (cast from exile by suspend, or put onto the battlefield).
        if own && self.obj(new_id).is_some_and(|x| !x.cast_from_hand) {
            counters.extend(def.enters_with_unless_cast_from_hand.iter().cloned());
        }
        let thirst = if own {
            self.bloodthirst_counters(new_id, controller)
        } else {
            0
        };
        if thirst > 0 {
            counters.push((crate::object::CounterKind::PlusOnePlusOne, thirst));
        }
        if own {
            counters.extend(self.conditional_entering_counters(
                &def.enters_with_more,
                new_id,
                from_stack,
            ));
        }
        let o = self.obj_mut(new_id)?;
        o.tapped = enters_tapped;
        for (k, n) in counters {
            o.counters.add(k, n);
        }
        if def.turn_others_face_down {
            // "As Ixidron enters the battlefield, turn all other nontoken creatures face
            // down": part of its entering, so no other permanent sees them face up with it
            // (R-ixidron-6); creatures entering at the same time are not affected.
            let others: Vec<ObjectId> = self
                .battlefield
                .iter()
                .copied()
                .filter(|o| *o != new_id && !together.contains(o) && self.is_creature(*o))
                .filter(|o| self.obj(*o).is_some_and(|x| !x.token))
                .collect();
            for o in others {
                self.turn_face_down(o);
            }
        }
        Some(new_id)
    }

    /// Marks permanents about to leave the battlefield together (one event): until
    /// [`Game::end_batch`], their triggered abilities still see the others leave.
    pub(crate) fn begin_batch(&mut self, ids: &[ObjectId]) {
        if self.layered && self.has_triggers && self.lookback_grants.is_none() {
            let mut grants = Vec::new();
            for &id in &self.battlefield {
                for (card, st) in self.granted_triggers(id) {
                    grants.push((id, card, st));
                }
            }
            self.lookback_grants = Some(grants);
        }
        for &id in ids {
            if let Some(o) = self.obj(id)
                && o.zone == ZoneKind::Battlefield
            {
                let entry = (id, o.face(), o.controller);
                if let Some(host) = o.attached_to {
                    self.lookback_attached.push((id, host));
                }
                self.lookback.push(entry);
            }
        }
    }
    pub(crate) fn end_batch(&mut self) {
        self.lookback.clear();
        self.lookback_attached.clear();
        self.lookback_grants = None;
    }

    /// An Aura leaving the battlefield while one of its activated abilities is on the
    /// stack, or with a "when ~ leaves the battlefield" trigger of its own (Reality Acid:
    /// "enchanted permanent's controller sacrifices it"): remember what it was attached to
    /// (`ObjRef::Enchanted`, last known information). Bounded by the stack and by those
    /// cards: only such Auras add an entry, and cleanup clears them.
    fn note_attached_lki(&mut self, id: ObjectId) {
        let Some(host) = self.obj(id).and_then(|o| o.attached_to) else {
            return;
        };
        let has_leaves_trigger =
            |g: &Game, a: ObjectId| {
                g.objects.get(a.slot()).is_some_and(|o| {
                    g.catalog().get(o.card).triggers.iter().any(|t| {
                        matches!(t.when, crate::abilities::TriggerEvent::LeavesBattlefield)
                    })
                })
            };
        let on_stack = |g: &Game, a: ObjectId| {
            g.stack.iter().any(
                |s| matches!(s.kind, crate::stack::StackKind::Ability { source, .. } if source == a),
            )
        };
        if on_stack(self, id) || has_leaves_trigger(self, id) {
            let keep: Vec<bool> = self
                .lki_attached
                .iter()
                .map(|(a, _)| *a != id && (on_stack(self, *a) || has_leaves_trigger(self, *a)))
                .collect();
            let mut keep = keep.into_iter();
            self.lki_attached.retain(|_| keep.next().unwrap_or(false));
            self.lki_attached.push((id, host));
        }
    }

    /// Things that stop when a permanent leaves the battlefield: combat, attachments,
    /// effects locked to it.
    fn leave_battlefield_cleanup(&mut self, id: ObjectId) {
        if let Some(c) = &mut self.combat {
            c.remove(id);
        }
        self.pt_effects.retain(|e| e.object != id);
        self.drop_shields_of(id);
        // Auras stay "attached" to the departed object, so the state-based check puts them
        // into the graveyard (S5); anything else simply becomes unattached.
        let catalog = self.catalog();
        for o in &mut self.objects {
            if o.attached_to == Some(id) && catalog.get(o.face()).enchant.is_none() {
                o.attached_to = None;
            }
        }
    }

    pub(crate) fn shuffle_library(&mut self, p: PlayerId) {
        let mut lib = std::mem::take(&mut self.players[p.index()].library);
        // Fisher-Yates with the game's own generator: deterministic for a seed.
        for i in (1..lib.len()).rev() {
            let j = self.rng.random_range(0..=i);
            lib.swap(i, j);
        }
        self.players[p.index()].library = lib;
        self.emit(Event::Shuffled(p));
    }

    /// Draws `n` cards; drawing from an empty library marks the player for the state-based
    /// loss (102.3c). Returns the drawn cards' new ids.
    pub(crate) fn draw_cards(&mut self, p: PlayerId, n: u32) -> Vec<ObjectId> {
        let mut drawn = Vec::new();
        for _ in 0..n {
            // A replaced draw is not this draw (R-sindbad-1): what the replacement itself
            // draws is not returned to the instruction that asked for the draw.
            if self.draw_replacement(p).is_some() {
                continue;
            }
            drawn.extend(self.draw_one_unreplaced(p));
        }
        drawn
    }

    /// One draw, with no replacement effect applied (the draw a replacement itself makes).
    pub(crate) fn draw_one_unreplaced(&mut self, p: PlayerId) -> Option<ObjectId> {
        {
            let Some(&top) = self.player(p).library.last() else {
                self.player_mut(p).drew_from_empty = true;
                self.emit(Event::Drew {
                    player: p,
                    card: None,
                });
                return None;
            };
            let new_id = self.move_object(top, ZoneKind::Hand, Position::Top)?;
            self.emit(Event::Drew {
                player: p,
                card: Some(new_id),
            });
            Some(new_id)
        }
    }

    /// Discards `card` from `p`'s hand: to the graveyard, or to exile if its owner chose to
    /// exile it with madness (502.24a / 702.33a; still a discard, R-madness-6).
    pub(crate) fn discard(&mut self, p: PlayerId, card: ObjectId) -> Option<ObjectId> {
        let madness = self.take_madness_choice(card);
        let to = if madness {
            ZoneKind::Exile
        } else {
            ZoneKind::Graveyard
        };
        let new_id = match self.discard_to_battlefield(p, card) {
            // Dodecapod: still discarded, but onto the battlefield with its counters.
            Some(n) if !madness => self.put_onto_battlefield_with(
                card,
                p,
                &[(crate::object::CounterKind::PlusOnePlusOne, n)],
            )?,
            _ => self.move_object(card, to, Position::Top)?,
        };
        self.emit(Event::Discarded {
            player: p,
            card: new_id,
        });
        if madness && self.obj(new_id).is_some_and(|o| o.zone == ZoneKind::Exile) {
            self.madness_exiled(new_id);
        }
        Some(new_id)
    }

    pub(crate) fn set_life(&mut self, p: PlayerId, to: i32) {
        let from = self.player(p).life;
        if from != to {
            let pl = self.player_mut(p);
            pl.life = to;
            if to < from {
                pl.life_lost_this_turn += (from - to) as u32;
            }
            self.emit(Event::LifeChanged {
                player: p,
                from,
                to,
            });
        }
    }
    pub(crate) fn gain_life(&mut self, p: PlayerId, n: i32) {
        if n > 0 && self.player(p).in_game() {
            let l = self.player(p).life;
            self.set_life(p, l + n);
        }
    }
    pub(crate) fn lose_life(&mut self, p: PlayerId, n: i32) {
        if n > 0 && self.player(p).in_game() {
            let l = self.player(p).life;
            self.set_life(p, l - n);
        }
    }

    pub(crate) fn tap(&mut self, id: ObjectId) -> bool {
        match self.obj_mut(id) {
            Some(o) if !o.tapped => {
                o.tapped = true;
                self.emit(Event::Tapped(id));
                true
            }
            _ => false,
        }
    }
    pub(crate) fn untap(&mut self, id: ObjectId) -> bool {
        match self.obj_mut(id) {
            Some(o) if o.tapped => {
                o.tapped = false;
                self.emit(Event::Untapped(id));
                true
            }
            _ => false,
        }
    }

    /// Deals damage from `source` (rule 212.3e / 502.x): to a player, life loss; to a
    /// creature, marked damage. Returns the amount dealt.
    pub(crate) fn deal_damage(
        &mut self,
        source: ObjectId,
        target: Target,
        amount: u32,
        combat: bool,
    ) -> u32 {
        if amount == 0 {
            return 0;
        }
        if let Target::Object(id) = target
            && (!self.is_on_battlefield(id) || !self.is_creature(id))
        {
            return 0;
        }
        // Effects that prevent all of it apply before any shield is used up (the order the
        // affected player would choose), then redirection and prevention shields in the
        // order that player chose (616.1), then the rest of the prevention effects.
        let preventable = !self.damage_unpreventable;
        if preventable && self.fully_prevented(source, target, combat) {
            self.emit(Event::DamagePrevented {
                source,
                target,
                amount,
            });
            return 0;
        }
        if preventable && self.prevent_removing_counter(source, target, amount) {
            return 0;
        }
        // Weathered Bodyguards: combat damage an unblocked creature would deal to its
        // controller is dealt to it instead (with that player's prevention shields in the
        // order the player chose).
        let amount = match target {
            Target::Player(p) if combat => match self.bodyguard_replacement(source, p, amount) {
                Some(left) => left,
                None => return 0,
            },
            _ => amount,
        };
        if amount == 0 {
            return 0;
        }
        let (amount, redirected) = self.apply_shields_in_order(source, target, amount);
        let amount = if preventable {
            self.prevent_damage(source, target, amount)
        } else {
            amount
        };
        // Redirected damage keeps its source and whether it is combat damage (R-outrider-en-kor-2).
        let mut moved = 0;
        for (to, n) in redirected {
            moved += self.deal_damage(source, Target::Object(to), n, combat);
        }
        if amount == 0 {
            let _ = moved;
            return 0;
        }
        match target {
            // An ability is never dealt damage (no recipient names one).
            Target::Ability(_) => return 0,
            Target::Player(p) => {
                if !self.player(p).in_game() {
                    return 0;
                }
                self.emit(Event::Damage {
                    source,
                    target,
                    amount,
                    combat,
                });
                // Fortune Thief: "damage that would reduce your life total to less than 1
                // reduces it to 1 instead" (the damage dealt stays the same: R-fortune-thief-4).
                let life = self.player(p).life;
                let loss = if self.damage_life_floor(p) && life - (amount as i32) < 1 {
                    (life - 1).max(0)
                } else {
                    amount as i32
                };
                self.lose_life(p, loss);
                self.note_player_damaged(p);
                if self.def(source).is_some_and(|d| {
                    d.triggers.iter().any(|t| {
                        t.condition
                            == Some(
                                crate::abilities::TriggerCondition::DealtDamageToOpponentThisTurn,
                            )
                    })
                }) && !self.player_damage_record.contains(&(source, p))
                {
                    self.player_damage_record.push((source, p));
                }
                self.lifelink_on_damage(source, amount);
            }
            Target::Object(id) => {
                if !self.is_on_battlefield(id) || !self.is_creature(id) {
                    return 0;
                }
                if self.damage_becomes_sacrifice(id) {
                    // Dralnu, Lich Lord: no damage is dealt; that many permanents are
                    // sacrificed instead.
                    self.sacrifice_instead_of_damage(id, amount);
                    return 0;
                }
                self.emit(Event::Damage {
                    source,
                    target,
                    amount,
                    combat,
                });
                // Modern deathtouch (702.2b, Δ16): the creature is destroyed by the next
                // state-based check; classic deathtouch is a trigger (triggers.rs).
                let deathtouch = self.ruleset.deathtouch_static()
                    && self.has_keyword(source, crate::keywords::Keyword::Deathtouch);
                if let Some(o) = self.obj_mut(id) {
                    o.damage += amount;
                    o.deathtouch_damage |= deathtouch;
                }
                if self.has_triggers && !self.damage_record.contains(&(id, source)) {
                    self.damage_record.push((id, source));
                }
                self.lifelink_on_damage(source, amount);
            }
        }
        amount
    }

    /// The colours of a source as it is now or, if it has left its zone, as it last existed.
    pub fn source_colors(&self, source: ObjectId) -> crate::mana::ColorSet {
        match self.obj(source) {
            Some(_) => self.colors(source),
            None => self
                .objects
                .get(source.slot())
                .map_or(crate::mana::ColorSet::NONE, |o| {
                    self.catalog().get(o.card).colors
                }),
        }
    }

    /// Whether `id` has protection from any of `colors`. Protection is a permanent's (2006
    /// 502.7a, 2014 702.16b: "a permanent or player with protection"): a spell on the stack
    /// or a card elsewhere with the keyword is targeted freely (Akroma, Angel of Fury's spell
    /// by Cancel).
    pub fn protected_from(&self, id: ObjectId, colors: crate::mana::ColorSet) -> bool {
        !colors.is_empty() && self.is_on_battlefield(id) && {
            let from = self.protection_colors(id);
            colors.iter().any(|c| from.contains(c))
        }
    }

    /// Whether `id` has protection from a source of mana value `mv` ("protection from mana
    /// value 3 or greater": Mistmeadow Skulk): a permanent's, like any protection.
    pub fn protected_from_mana_value(&self, id: ObjectId, mv: u32) -> bool {
        mv >= 3
            && self.is_on_battlefield(id)
            && self.has_keyword(
                id,
                crate::keywords::Keyword::ProtectionFromManaValue3OrGreater,
            )
    }

    /// The mana value of a source (a spell on the stack with its X, a permanent, a card
    /// elsewhere; a face-down one's is 0), as it last existed if it left: what protection
    /// from a mana value looks at.
    pub fn source_mana_value(&self, source: ObjectId) -> u32 {
        if let Some(v) = self.spell_mana_value(source) {
            return v;
        }
        match self.def(source) {
            Some(d) => d.mana_value(),
            None => self
                .objects
                .get(source.slot())
                .map_or(0, |o| self.catalog().get(o.card).mana_value()),
        }
    }

    /// The colours `id` has protection from (its keywords computed once, not one look-up
    /// per protection keyword).
    pub fn protection_colors(&self, id: ObjectId) -> crate::mana::ColorSet {
        let ks = self.keyword_set(id);
        let mut from = crate::mana::ColorSet::NONE;
        for k in crate::keywords::Keyword::ALL {
            if let Some(c) = k.protection_from()
                && ks.contains(k)
            {
                from.insert(c);
            }
        }
        from
    }

    /// Destroys a permanent (a regeneration shield may replace it).
    pub(crate) fn destroy(&mut self, id: ObjectId) -> Option<ObjectId> {
        self.destroy_with(id, true)
    }

    /// Destroys a permanent; `can_regenerate = false` for "it can't be regenerated".
    pub(crate) fn destroy_with(&mut self, id: ObjectId, can_regenerate: bool) -> Option<ObjectId> {
        // Indestructible (702.12b): it can't be destroyed (`keywords/fortify.rs`).
        if !self.is_on_battlefield(id) || self.indestructible(id) {
            return None;
        }
        if can_regenerate && self.try_regenerate(id) {
            return None;
        }
        self.emit(Event::Destroyed(id));
        self.move_object(id, ZoneKind::Graveyard, Position::Top)
    }

    pub(crate) fn sacrifice(&mut self, id: ObjectId) -> Option<ObjectId> {
        if !self.is_on_battlefield(id) {
            return None;
        }
        self.emit(Event::Sacrificed(id));
        self.move_object(id, ZoneKind::Graveyard, Position::Top)
    }

    pub(crate) fn concede(&mut self, p: PlayerId) {
        self.player_lost(p, LossReason::Conceded);
        self.check_game_over();
        if self.result.is_none() {
            // The game goes on without them: if they were deciding, move on.
            if self.pending.as_ref().is_some_and(|x| x.player == p) {
                self.casting = None;
                self.resolution = None;
                self.pending = None;
                self.passes = 0;
                let next = if p == self.active {
                    self.next_player_after(p)
                } else {
                    self.active
                };
                self.give_priority(next);
            }
        }
    }

    pub(crate) fn player_lost(&mut self, p: PlayerId, reason: LossReason) {
        // 104.3a: conceding is always possible; any other loss waits for `can_lose`.
        if reason != LossReason::Conceded && !self.can_lose(p) {
            return;
        }
        if self.player(p).lost.is_none() {
            self.player_mut(p).lost = Some(reason.clone());
            self.emit(Event::PlayerLost { player: p, reason });
            // 800.4a-style cleanup for two players is moot; objects stay for the record.
        }
    }

    /// Ends the game if at most one player remains (102.2a) or all lost at once (102.4a).
    pub(crate) fn check_game_over(&mut self) -> bool {
        if self.result.is_some() {
            return true;
        }
        let result = {
            let mut alive = self.player_ids().filter(|p| self.player(*p).in_game());
            match (alive.next(), alive.next()) {
                (None, _) => GameResult::Draw,
                (Some(w), None) => GameResult::Won(w),
                _ => return false,
            }
        };
        let winner = match result {
            GameResult::Won(w) => Some(w),
            GameResult::Draw => None,
        };
        self.result = Some(result);
        self.pending = None;
        self.casting = None;
        self.resolution = None;
        self.emit(Event::GameOver { winner });
        true
    }

    pub(crate) fn win_game(&mut self, winner: PlayerId) {
        if !self.can_win(winner) {
            return;
        }
        for p in self.opponents(winner) {
            self.player_lost(p, LossReason::CardEffect);
        }
        self.check_game_over();
    }
}

pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod lki_tests {
    use crate::zones::{Position, ZoneKind};

    /// Last-known power is remembered for triggered abilities, but a loop of zone changes
    /// inside one turn (Faceless Butchers exiling each other) must not grow the state.
    #[test]
    fn last_known_power_stays_bounded() {
        let mut g = crate::scenario::game_from_str(
            r#"
name = "lki"
description = ""
script = []
[setup]
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Pandemonium", "Test Bear"]
"#,
        )
        .expect("board");
        let mut bear = g
            .battlefield
            .iter()
            .copied()
            .find(|&i| g.card_name(i) == "Test Bear")
            .expect("bear");
        for _ in 0..500 {
            let exiled = g
                .move_object(bear, ZoneKind::Exile, Position::Top)
                .expect("exiled");
            bear = g
                .move_object(exiled, ZoneKind::Battlefield, Position::Top)
                .expect("back");
        }
        assert!(g.lki_power.len() <= 65, "{}", g.lki_power.len());
    }
}

#[cfg(test)]
mod token_tests {
    use super::*;

    fn board(ruleset: &str) -> Game {
        crate::scenario::game_from_str(&format!(
            r#"
name = "tokens"
description = ""
ruleset = "{ruleset}"
script = []
[setup]
step = "precombat_main"
turn = 3
[setup.alice]
battlefield = ["Saproling"]
"#
        ))
        .expect("board")
    }

    fn saproling(g: &Game) -> ObjectId {
        g.objects
            .iter()
            .find(|o| g.catalog().get(o.card).name == "Saproling")
            .map(|o| o.id)
            .expect("saproling")
    }

    /// 216.3 / 110.5f: a token that left the battlefield never moves back onto it; under
    /// modern rules it can't change zones at all, under classic rules it still may.
    #[test]
    fn a_token_that_left_never_returns() {
        for (ruleset, moves) in [("modern", false), ("classic", true)] {
            let mut g = board(ruleset);
            let token = saproling(&g);
            let dead = g
                .move_object(token, ZoneKind::Graveyard, Position::Top)
                .expect("it dies");
            assert_eq!(
                g.move_object(dead, ZoneKind::Battlefield, Position::Top),
                None
            );
            assert!(g.battlefield.is_empty(), "{ruleset}");
            let moved = g.move_object(dead, ZoneKind::Hand, Position::Top);
            assert_eq!(moved.is_some(), moves, "{ruleset}");
            let zone = if moves {
                ZoneKind::Hand
            } else {
                ZoneKind::Graveyard
            };
            let now = moved.unwrap_or(dead);
            assert_eq!(g.obj(now).map(|o| o.zone), Some(zone), "{ruleset}");
            // Nor from the hand or exile, by any path (put_onto_battlefield included).
            assert_eq!(g.put_onto_battlefield(now, PlayerId(0), false), None);
            assert_eq!(
                g.put_onto_battlefield_together(&[(now, PlayerId(0))]),
                Vec::new()
            );
            assert!(g.battlefield.is_empty(), "{ruleset}");
            // It ceases to exist at the next state-based check.
            g.check_state_based_actions();
            assert_eq!(g.obj(now), None, "{ruleset}");
        }
    }

    /// A nontoken card moves freely; a token on the battlefield may leave it.
    #[test]
    fn only_tokens_that_left_are_held() {
        let g = board("modern");
        let token = saproling(&g);
        assert!(g.token_may_move(token, ZoneKind::Exile));
        assert!(!g.token_may_move(ObjectId::new(999, 0), ZoneKind::Exile));
    }

    /// Δ23: Alice's effect gives Bob a token. Classic 200.4a: Alice owns it; modern 110.5a:
    /// Bob does. Bob controls it either way, also once control effects end.
    #[test]
    fn token_owner_per_ruleset() {
        for (ruleset, owner) in [("classic", PlayerId(0)), ("modern", PlayerId(1))] {
            let mut g = board(ruleset);
            let ape = g.catalog().by_name("Ape").map(|d| d.id).expect("Ape");
            let id = g.create_token(ape, PlayerId(0), PlayerId(1));
            let o = g.obj(id).expect("token");
            assert_eq!((o.owner, o.controller), (owner, PlayerId(1)), "{ruleset}");
            g.refresh_control();
            assert_eq!(g.obj(id).map(|o| o.controller), Some(PlayerId(1)));
            let dead = g
                .move_object(id, ZoneKind::Graveyard, Position::Top)
                .expect("dies");
            assert_eq!(g.player(owner).graveyard, vec![dead], "{ruleset}");
        }
    }
}
