//! The game service: everything between the engine and a front end (Discord, terminal),
//! free of Discord types.
//!
//! A front end calls [`Service`] with (user, game, words) and gets back a [`Plan`]: public
//! text for the game channel, private text per player, who to ping and which options to
//! offer, all built from engine views. Games live in [`Db`]: each accepted command is one
//! transaction that appends its answers to the action log and moves the snapshot version on.

use crate::board_text;
use crate::config::Config;
use crate::decks::{self, Deck, Format};
use crate::grammar::{self, Command, GrammarError};
use crate::replay::{self, StoredPlayer, StoredSetup, UndoRecord};
use crate::storage::{
    ActionRow, Commit, Db, GameRow, Id, NewAction, NewGame, NewSeat, SeatRow, StorageError,
};
use engine::decision::Decision;
use engine::{Answer, Game, PlayerId, Ruleset, Step};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Where a game is played (Discord ids; all None in local play).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    pub guild_id: Option<i64>,
    pub channel_id: Option<i64>,
    pub thread_id: Option<i64>,
}

/// Which deck a player brings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckChoice {
    /// A ready-made deck by key (`red`) or title.
    Ready(String),
    /// One of the player's saved decks, by name.
    Saved(String),
    /// A list pasted now.
    List {
        name: String,
        text: String,
        format: Format,
    },
}

/// A message for one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Private {
    pub user_id: Id,
    pub text: String,
}

/// Choices to offer one user (buttons, autocomplete): each is a phrase the grammar parses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    pub user_id: Id,
    pub version: i64,
    pub options: Vec<String>,
}

/// What a front end should do after a call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub game_id: Id,
    pub version: i64,
    /// Messages for the game channel (events, notices).
    pub public: Vec<String>,
    /// The board as everyone may see it, when the state changed or was asked for.
    pub board: Option<String>,
    pub private: Vec<Private>,
    pub pings: Vec<Id>,
    pub choices: Vec<Choices>,
    pub finished: bool,
    /// A deadline reminder (players whose ping cadence is "reminders" are mentioned).
    pub reminder: bool,
    /// The event lines and notices as each human player sees them, in the order things
    /// happened: their own draws named, "you" for themselves, whose creature is whose.
    pub told: Vec<Private>,
    /// "While you waited: ..." for each human player for whom others did several things.
    pub waited: Vec<Private>,
    /// Raw events of this call, each with the seat whose own command caused it (None:
    /// automatic answers, agents, timeouts).
    events: Vec<(Option<PlayerId>, engine::Event)>,
}

impl Plan {
    pub fn private_for(&self, user: Id) -> Vec<&str> {
        self.private
            .iter()
            .filter(|p| p.user_id == user)
            .map(|p| p.text.as_str())
            .collect()
    }

    /// The lines `user` is told, in order (see [`Plan::told`]).
    pub fn told_to(&self, user: Id) -> Vec<&str> {
        self.told
            .iter()
            .filter(|p| p.user_id == user)
            .map(|p| p.text.as_str())
            .collect()
    }

    /// The "while you waited" summary for `user`, if any.
    pub fn waited_for(&self, user: Id) -> Option<&str> {
        self.waited
            .iter()
            .find(|p| p.user_id == user)
            .map(|p| p.text.as_str())
    }

    /// Records the events of one answer: the public lines, each human's own lines.
    fn tell(
        &mut self,
        game: &Game,
        seats: &[SeatRow],
        by: Option<PlayerId>,
        events: &[engine::Event],
    ) {
        self.public.extend(board_text::events(game, None, events));
        for s in seats.iter().filter(|s| !s.is_agent) {
            let p = PlayerId(s.seat as u8);
            for text in board_text::events(game, Some(p), events) {
                self.told.push(Private {
                    user_id: s.user_id,
                    text,
                });
            }
        }
        self.events.extend(events.iter().map(|e| (by, e.clone())));
    }

    /// A notice for everyone (the channel and each human player's lines).
    fn notice(&mut self, seats: &[SeatRow], text: String) {
        for s in seats.iter().filter(|s| !s.is_agent) {
            self.told.push(Private {
                user_id: s.user_id,
                text: text.clone(),
            });
        }
        self.public.push(text);
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("there is no game {0}")]
    NoGame(Id),
    #[error("you are not playing in game {0}; spectators can only watch")]
    NotAPlayer(Id),
    #[error("game {id} is {status}, not {wanted}")]
    WrongStatus {
        id: Id,
        status: String,
        wanted: &'static str,
    },
    #[error("{0}")]
    Grammar(#[from] GrammarError),
    #[error("{0}")]
    Refused(String),
    #[error(
        "the game moved on (you answered version {expected}, it is now at {actual}); here is the new state"
    )]
    Stale {
        expected: i64,
        actual: i64,
        plan: Box<Plan>,
    },
    #[error("{0}")]
    Deck(String),
    #[error("game {id} cannot be loaded: {why}")]
    Corrupt { id: Id, why: String },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Stops: in which steps a player wants to be asked for priority when they could act.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Step keys in your own turn (`precombat_main`).
    pub my_turn: Vec<String>,
    /// Step keys in other players' turns.
    pub their_turn: Vec<String>,
    /// Respond whenever something is on the stack and you can act.
    pub stop_on_stack: bool,
}

impl Default for Settings {
    /// Smart stops: your main phases, your own combat after attackers and after blockers,
    /// their declare attackers and end steps; in each only when you could do something
    /// (an instant-speed play with the mana for it), and whenever something is on the stack
    /// you could respond to.
    fn default() -> Self {
        Settings {
            my_turn: vec![
                "precombat_main".into(),
                "declare_attackers".into(),
                "declare_blockers".into(),
                "postcombat_main".into(),
            ],
            their_turn: vec!["declare_attackers".into(), "end".into()],
            stop_on_stack: true,
        }
    }
}

/// The steps a player may stop in, with the words that name them (longest first).
const STEP_WORDS: &[(&str, Step)] = &[
    ("first strike combat damage", Step::FirstStrikeDamage),
    ("first-strike combat damage", Step::FirstStrikeDamage),
    ("first strike damage", Step::FirstStrikeDamage),
    ("first-strike damage", Step::FirstStrikeDamage),
    ("first_strike_damage", Step::FirstStrikeDamage),
    ("beginning of combat", Step::BeginCombat),
    ("declare attackers", Step::DeclareAttackers),
    ("declare blockers", Step::DeclareBlockers),
    ("precombat main", Step::PrecombatMain),
    ("postcombat main", Step::PostcombatMain),
    ("combat damage", Step::CombatDamage),
    ("end of combat", Step::EndCombat),
    ("begin combat", Step::BeginCombat),
    ("first main", Step::PrecombatMain),
    ("second main", Step::PostcombatMain),
    ("main 1", Step::PrecombatMain),
    ("main 2", Step::PostcombatMain),
    ("end step", Step::End),
    ("draw step", Step::Draw),
    ("declare_attackers", Step::DeclareAttackers),
    ("declare_blockers", Step::DeclareBlockers),
    ("precombat_main", Step::PrecombatMain),
    ("postcombat_main", Step::PostcombatMain),
    ("combat_damage", Step::CombatDamage),
    ("begin_combat", Step::BeginCombat),
    ("end_combat", Step::EndCombat),
    ("end_step", Step::End),
    ("attackers", Step::DeclareAttackers),
    ("blockers", Step::DeclareBlockers),
    ("attack", Step::DeclareAttackers),
    ("block", Step::DeclareBlockers),
    ("damage", Step::CombatDamage),
    ("upkeep", Step::Upkeep),
    ("combat", Step::BeginCombat),
    ("main1", Step::PrecombatMain),
    ("main2", Step::PostcombatMain),
    ("main", Step::PrecombatMain),
    ("draw", Step::Draw),
    ("end", Step::End),
];

/// `help stop`: what stops are and the names of the steps.
pub const STOPS_HELP: &str = "Stops are the steps where you want to be asked for priority when you could do something; \
everywhere else the game passes for you (you are always asked when something is on the stack you could respond to). \
The steps of a turn: upkeep, draw, main 1 (precombat main), beginning of combat, declare attackers, declare blockers, \
combat damage (first-strike damage first when it applies), end of combat, main 2 (postcombat main), end step. \
Say `stop my declare blockers`, `stop their end step`, `unstop their declare attackers` (without `my` or `their`: both turns), \
`stop default`, `stop none` or `stop all`; `stops` lists yours.";

impl Settings {
    fn stops_at(&self, mine: bool, step: Step) -> bool {
        let list = if mine {
            &self.my_turn
        } else {
            &self.their_turn
        };
        list.iter().any(|k| k == step.key())
    }

    /// `stops`: the current stops, your turn and theirs.
    pub fn describe(&self) -> String {
        let names = |list: &[String]| -> String {
            let v: Vec<&str> = Step::ALL
                .iter()
                .filter(|s| list.iter().any(|k| k == s.key()))
                .map(|s| s.name())
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        format!(
            "Your stops. Your turn: {}. Their turn: {}. {} (`help stop` explains.)",
            names(&self.my_turn),
            names(&self.their_turn),
            if self.stop_on_stack {
                "Also whenever something is on the stack you could respond to."
            } else {
                "Not when something is on the stack."
            }
        )
    }

    /// `stop none`, `stop default`, `stop all`, `stop upkeep end` (toggles), `stop my upkeep`,
    /// `stop their end` (Discord's settings option).
    pub fn apply(&mut self, spec: &str) -> Result<String, String> {
        self.change(spec, None)
    }

    /// Typed stop words: `stop my declare blockers` adds, `-their end step` (from `unstop
    /// ...`) removes; `none`, `default`, `all` as in [`Settings::apply`].
    pub fn apply_words(&mut self, spec: &str) -> Result<String, String> {
        match spec.strip_prefix('-') {
            Some(rest) => self.change(rest, Some(false)),
            None => self.change(spec, Some(true)),
        }
    }

    /// Changes stops: `on` Some(true) adds, Some(false) removes, None toggles.
    fn change(&mut self, spec: &str, on: Option<bool>) -> Result<String, String> {
        let spec = crate::grammar::norm(spec);
        match spec.as_str() {
            "none" | "off" | "nothing" => {
                self.my_turn.clear();
                self.their_turn.clear();
                return Ok(
                    "no stops: you are asked only when you can act with something on the stack"
                        .into(),
                );
            }
            "default" | "defaults" | "reset" | "smart" => {
                *self = Settings::default();
                return Ok(format!("stops reset to the defaults. {}", self.describe()));
            }
            "all" | "everything" | "every step" => {
                let all: Vec<String> = Step::ALL.iter().map(|s| s.key().to_string()).collect();
                self.my_turn = all.clone();
                self.their_turn = all;
                return Ok("stops in every step".into());
            }
            _ => {}
        }
        let mut changed = Vec::new();
        for (step, mine, theirs) in parse_stop_words(&spec)? {
            for (turn, is_on, list) in [
                ("your", mine, &mut self.my_turn),
                ("their", theirs, &mut self.their_turn),
            ] {
                if !is_on {
                    continue;
                }
                let k = step.key().to_string();
                let has = list.iter().position(|x| *x == k);
                let add = on.unwrap_or(has.is_none());
                match (add, has) {
                    (true, None) => {
                        list.push(k);
                        changed.push(format!("+{turn} {}", step.name()));
                    }
                    (false, Some(i)) => {
                        list.remove(i);
                        changed.push(format!("-{turn} {}", step.name()));
                    }
                    (true, Some(_)) => changed.push(format!("{turn} {} (already)", step.name())),
                    (false, None) => {
                        changed.push(format!("{turn} {} (was not a stop)", step.name()))
                    }
                }
            }
        }
        Ok(format!("stops changed: {}", changed.join(", ")))
    }
}

/// `my declare blockers`, `their end step`, `my upkeep and their draw`: each step with
/// whether it is meant in your turn and in theirs (`my`/`their` hold for the steps after
/// them; neither: both turns).
fn parse_stop_words(spec: &str) -> Result<Vec<(Step, bool, bool)>, String> {
    const FILLER: &[&str] = &[
        "in", "on", "the", "turn", "turns", "step", "steps", "phase", "and", "at",
    ];
    let text = spec.replace([',', '.'], " ");
    let mut words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !FILLER.contains(w))
        .collect();
    let mut whose = (true, true);
    let mut out: Vec<(Step, bool, bool)> = Vec::new();
    while let Some(first) = words.first().copied() {
        match first {
            "my" | "mine" | "your" => {
                whose = (true, false);
                words.remove(0);
                continue;
            }
            "their" | "theirs" | "opponent's" | "opponents" | "opponent" | "his" | "her" => {
                whose = (false, true);
                words.remove(0);
                continue;
            }
            _ => {}
        }
        let joined = words.join(" ");
        let Some((w, step)) = STEP_WORDS
            .iter()
            .find(|(w, _)| joined == *w || joined.starts_with(&format!("{w} ")))
        else {
            return Err(format!(
                "`{}` is not a step I know: say `help stop` for the step names",
                crate::grammar::short(first)
            ));
        };
        words.drain(..w.split(' ').count());
        if !out.iter().any(|(s, m, t)| s == step && (*m, *t) == whose) {
            out.push((*step, whose.0, whose.1));
        }
    }
    if out.is_empty() {
        return Err("name a step, e.g. `stop my declare blockers` (`help stop` lists them)".into());
    }
    Ok(out)
}

/// How often a player is mentioned (pinged) in a game's channel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pings {
    /// Mentioned for every decision and by deadline reminders.
    #[default]
    Every,
    /// Named at each decision without a mention; mentioned only by deadline reminders.
    Reminders,
    /// Never mentioned (named only), reminders included.
    Never,
}

impl Pings {
    pub fn key(self) -> &'static str {
        match self {
            Pings::Every => "every",
            Pings::Reminders => "reminders",
            Pings::Never => "never",
        }
    }

    pub fn parse(s: &str) -> Option<Pings> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "every" | "every decision" | "always" | "on" => Pings::Every,
            "reminders" | "reminders only" => Pings::Reminders,
            "never" | "off" => Pings::Never,
            _ => return None,
        })
    }

    /// Whether a message of this kind mentions the player.
    pub fn mentions(self, reminder: bool) -> bool {
        match self {
            Pings::Every => true,
            Pings::Reminders => reminder,
            Pings::Never => false,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Pings::Every => "every decision and reminders",
            Pings::Reminders => "deadline reminders only",
            Pings::Never => "never (you are named, not mentioned)",
        }
    }
}

/// A player's settings row: stops (JSON) plus the delivery preferences (columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefs {
    pub stops: Settings,
    /// Hands by direct message; off: only on request (`/mtg hand`, the options button).
    pub dms: bool,
    pub pings: Pings,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            stops: Settings::default(),
            dms: true,
            pings: Pings::Every,
        }
    }
}

/// The service's clock (Unix seconds); tests use a fixed one.
#[derive(Debug, Clone)]
pub enum Clock {
    System,
    Fixed(Arc<AtomicI64>),
}

impl Clock {
    pub fn now(&self) -> i64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64),
            Clock::Fixed(t) => t.load(Ordering::SeqCst),
        }
    }
    pub fn advance(&self, secs: i64) {
        if let Clock::Fixed(t) = self {
            t.fetch_add(secs, Ordering::SeqCst);
        }
    }
}

/// The external id of the random agent's user.
pub const AGENT_ID: &str = "agent:random";

/// A game as loaded: row, seats and the state.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub game: Game,
    /// Set when the snapshot was unreadable and was rebuilt from the log.
    pub rebuilt: Option<String>,
}

impl Loaded {
    pub fn seat_of(&self, user: Id) -> Option<PlayerId> {
        self.seats
            .iter()
            .find(|s| s.user_id == user)
            .map(|s| PlayerId(s.seat as u8))
    }
    fn user_of(&self, p: PlayerId) -> Option<Id> {
        self.seats.get(p.index()).map(|s| s.user_id)
    }
    fn is_agent(&self, p: PlayerId) -> bool {
        self.seats.get(p.index()).is_some_and(|s| s.is_agent)
    }
}

/// One answer the service applied, with who and why.
#[derive(Debug, Clone)]
struct Applied {
    seat: PlayerId,
    answer: Answer,
    kind: &'static str,
    hash: i64,
}

#[derive(Clone)]
pub struct Service {
    pub db: Db,
    pub cfg: Config,
    pub clock: Clock,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SeatDeck {
    name: String,
    cards: Vec<String>,
}

/// The order in which [`replay::replay_with`] reports the answers of `actions`: the batch
/// of each answer seen for the first time, None for one submitted again after an undo; and
/// each undo as (the batch taken back, how many first-time answers came before it).
fn log_order(actions: &[ActionRow]) -> (Vec<Option<i64>>, Vec<(i64, usize)>) {
    let mut order = Vec::new();
    let mut undone = Vec::new();
    let mut live: Vec<i64> = Vec::new();
    let mut fresh = 0usize;
    for a in actions {
        if a.kind == "undo" {
            let rec: Option<UndoRecord> = a
                .answer
                .as_deref()
                .and_then(|t| serde_json::from_str(t).ok());
            if let Some(rec) = rec {
                live.retain(|b| *b != rec.undo_batch);
                undone.push((rec.undo_batch, fresh));
                order.extend(live.iter().map(|_| None));
            }
        } else {
            order.push(Some(a.batch));
            live.push(a.batch);
            fresh += 1;
        }
    }
    (order, undone)
}

/// The answer given for a player whose deadline expired.
pub fn default_answer(game: &Game, p: PlayerId) -> Answer {
    let legal = game.legal_answers(p);
    let d = game.pending().map(|x| x.decision.clone());
    let preferred = match d {
        Some(Decision::Mulligan { .. }) => Some(Answer::Keep),
        Some(Decision::Priority) => Some(Answer::Pass),
        Some(Decision::DeclareAttackers) => Some(Answer::Attack(Vec::new())),
        Some(Decision::DeclareBlockers) => Some(Answer::Block(Vec::new())),
        Some(
            Decision::ChooseX
            | Decision::ChooseCostOption { .. }
            | Decision::ChooseTarget { .. }
            | Decision::ChooseCostObjects { .. }
            | Decision::PayMana { .. }
            | Decision::ChooseMode { .. },
        ) => Some(Answer::Cancel),
        _ => None,
    };
    match preferred {
        Some(a) if legal.contains(&a) || a == Answer::Pass => a,
        _ => legal.into_iter().next().unwrap_or(Answer::Concede),
    }
}

/// The public line for an answer given for a player who ran out of time: named as the
/// other players see the game, so a face-down card of theirs stays unnamed.
pub fn timeout_message(game: &Game, p: PlayerId, answer: &Answer) -> String {
    let other = game.player_ids().find(|q| *q != p).unwrap_or(p);
    format!(
        "{} ran out of time; answered `{}` for them.",
        game.player(p).name,
        grammar::describe_among(game, other, answer, &game.legal_answers(p))
    )
}

/// The random agent (`engine::agent`), seeded from the game seed and the position in the
/// game (so a rerun chooses the same).
pub fn agent_answer(game: &Game, p: PlayerId, salt: u64) -> Answer {
    engine::agent::RandomAgent::new(game.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .choose(game, p)
}

/// Answers nobody needs to think about: passing with nothing to do (or past the player's
/// stops), the only possible answer to any other question, "pass until end of turn".
fn auto_answer(
    game: &Game,
    p: PlayerId,
    settings: &Settings,
    pass_until: Option<i64>,
) -> Option<Answer> {
    let pending = game.pending()?;
    let legal = game.legal_answers(p);
    match &pending.decision {
        Decision::Priority => {
            if pass_until == Some(i64::from(game.turn)) {
                return Some(Answer::Pass);
            }
            let meaningful = legal.iter().any(|a| {
                !matches!(
                    a,
                    Answer::Pass | Answer::ActivateMana { .. } | Answer::ActivateManaX { .. }
                )
            });
            if !meaningful {
                return Some(Answer::Pass);
            }
            if !game.stack.is_empty() {
                return if settings.stop_on_stack {
                    None
                } else {
                    Some(Answer::Pass)
                };
            }
            if settings.stops_at(game.active == p, game.step) {
                None
            } else {
                Some(Answer::Pass)
            }
        }
        Decision::Mulligan { .. } => None,
        _ if legal.len() == 1 => legal.into_iter().next(),
        _ => None,
    }
}

impl Service {
    pub async fn new(cfg: Config) -> anyhow::Result<Service> {
        let db = Db::connect(&cfg.database_url).await?;
        Ok(Service {
            db,
            cfg,
            clock: Clock::System,
        })
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    // ----- users, settings and decks ---------------------------------------------------

    pub async fn user(&self, external_id: &str, name: &str) -> Result<Id> {
        Ok(self.db.upsert_user(external_id, name, self.now()).await?.id)
    }

    pub async fn settings(&self, user: Id) -> Result<Settings> {
        Ok(match self.db.settings(user).await? {
            Some(s) => serde_json::from_str(&s).unwrap_or_default(),
            None => Settings::default(),
        })
    }

    /// Stops and delivery preferences (defaults for a player who never set them).
    pub async fn prefs(&self, user: Id) -> Result<Prefs> {
        let stops = self.settings(user).await?;
        Ok(match self.db.delivery_prefs(user).await? {
            Some((dms, pings)) => Prefs {
                stops,
                dms,
                pings: Pings::parse(&pings).unwrap_or_default(),
            },
            None => Prefs {
                stops,
                ..Prefs::default()
            },
        })
    }

    pub async fn set_prefs(&self, user: Id, prefs: &Prefs) -> Result<()> {
        let stops = serde_json::to_string(&prefs.stops)
            .map_err(|e| ServiceError::Refused(format!("settings: {e}")))?;
        Ok(self
            .db
            .set_prefs(user, &stops, prefs.dms, prefs.pings.key())
            .await?)
    }

    /// The image language of a Discord server (None: the deployment default), as the key
    /// `english` or `zh-hant`.
    pub async fn guild_language(&self, guild: i64) -> Result<Option<String>> {
        Ok(self.db.guild_language(guild).await?)
    }

    pub async fn set_guild_language(&self, guild: i64, language: &str, by: Id) -> Result<()> {
        Ok(self
            .db
            .set_guild_language(guild, language, by, self.now())
            .await?)
    }

    /// Imports a deck list for a user (validated; every problem named).
    pub async fn import_deck(
        &self,
        user: Id,
        name: &str,
        text: &str,
        format: Format,
    ) -> Result<Deck> {
        let name = name.trim();
        if name.is_empty() || name.len() > 80 {
            return Err(ServiceError::Deck(
                "a deck needs a name of 1 to 80 characters".into(),
            ));
        }
        let deck = decks::parse(name, text).map_err(|e| ServiceError::Deck(e.to_string()))?;
        deck.validate(format)
            .map_err(|e| ServiceError::Deck(e.to_string()))?;
        self.db
            .save_deck(
                user,
                name,
                format.name(),
                &decks::to_text(&deck),
                self.now(),
            )
            .await?;
        Ok(deck)
    }

    async fn resolve_deck(&self, user: Id, choice: &DeckChoice) -> Result<Deck> {
        let deck = match choice {
            DeckChoice::Ready(key) => {
                let r = decks::ready(key).ok_or_else(|| {
                    ServiceError::Deck(format!(
                        "no ready-made deck `{key}`: choose {}",
                        decks::READY
                            .iter()
                            .map(|d| d.key)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?;
                let d = r.deck().map_err(|e| ServiceError::Deck(e.to_string()))?;
                d.validate(Format::Constructed)
                    .map_err(|e| ServiceError::Deck(e.to_string()))?;
                d
            }
            DeckChoice::Saved(name) => {
                let row = self.db.deck_by_name(user, name).await?.ok_or_else(|| {
                    ServiceError::Deck(format!("you have no saved deck called `{name}`"))
                })?;
                let d = decks::parse(&row.name, &row.list)
                    .map_err(|e| ServiceError::Deck(e.to_string()))?;
                d.validate(Format::parse(&row.format).unwrap_or(Format::Constructed))
                    .map_err(|e| ServiceError::Deck(e.to_string()))?;
                d
            }
            DeckChoice::List { name, text, format } => {
                let d = decks::parse(name, text).map_err(|e| ServiceError::Deck(e.to_string()))?;
                d.validate(*format)
                    .map_err(|e| ServiceError::Deck(e.to_string()))?;
                d
            }
        };
        Ok(deck)
    }

    fn seat_deck_json(deck: &Deck) -> String {
        serde_json::to_string(&SeatDeck {
            name: deck.name.clone(),
            cards: deck.flat_names(),
        })
        .unwrap_or_else(|_| "null".into())
    }

    // ----- lifecycle -------------------------------------------------------------------

    /// `challenger` challenges `opponents` with a deck. Agents accept at once; when every
    /// seat has accepted the game starts.
    pub async fn challenge(
        &self,
        challenger: Id,
        deck: &DeckChoice,
        opponents: &[Id],
        ruleset: Option<Ruleset>,
        place: Place,
    ) -> Result<Plan> {
        if opponents.is_empty() {
            return Err(ServiceError::Refused("name at least one opponent".into()));
        }
        if opponents.contains(&challenger) {
            return Err(ServiceError::Refused(
                "you cannot challenge yourself".into(),
            ));
        }
        let mut uniq = opponents.to_vec();
        uniq.sort();
        uniq.dedup();
        if uniq.len() != opponents.len() {
            return Err(ServiceError::Refused("each opponent once, please".into()));
        }
        let deck = self.resolve_deck(challenger, deck).await?;
        let ruleset = match ruleset {
            Some(r) => r,
            None => self
                .cfg
                .ruleset()
                .map_err(|e| ServiceError::Refused(e.to_string()))?,
        };
        let mut seats = vec![NewSeat {
            user_id: challenger,
            deck: Some(Self::seat_deck_json(&deck)),
            accepted: true,
            is_agent: false,
        }];
        let mut names = Vec::new();
        for (i, &o) in opponents.iter().enumerate() {
            let u = self
                .db
                .user(o)
                .await?
                .ok_or_else(|| ServiceError::Refused(format!("unknown user {o}")))?;
            let agent = u.external_id == AGENT_ID;
            let deck = if agent {
                let r = &decks::READY[(i + 1) % decks::READY.len()];
                Some(Self::seat_deck_json(
                    &r.deck().map_err(|e| ServiceError::Deck(e.to_string()))?,
                ))
            } else {
                None
            };
            names.push(u.name);
            seats.push(NewSeat {
                user_id: o,
                deck,
                accepted: agent,
                is_agent: agent,
            });
        }
        let seed: u64 = rand::rng().random();
        let now = self.now();
        let id = self
            .db
            .create_game(
                &NewGame {
                    status: "challenge".into(),
                    ruleset: ruleset.name().into(),
                    seed,
                    created_by: challenger,
                    guild_id: place.guild_id,
                    channel_id: place.channel_id,
                    thread_id: place.thread_id,
                    now,
                },
                &seats,
            )
            .await?;
        if seats.iter().all(|s| s.accepted) {
            return self.start(id).await;
        }
        let me = self
            .db
            .user(challenger)
            .await?
            .map_or_else(|| "someone".into(), |u| u.name);
        Ok(Plan {
            game_id: id,
            version: 0,
            public: vec![format!(
                "Game {id}: {me} challenges {} ({} rules, deck {}). Reply `accept [deck]` or `decline`.",
                names.join(", "),
                ruleset,
                deck.name
            )],
            pings: seats
                .iter()
                .filter(|s| !s.accepted)
                .map(|s| s.user_id)
                .collect(),
            ..Default::default()
        })
    }

    pub async fn accept(&self, user: Id, game_id: Id, deck: &DeckChoice) -> Result<Plan> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        if row.status != "challenge" {
            return Err(ServiceError::WrongStatus {
                id: game_id,
                status: row.status,
                wanted: "a challenge",
            });
        }
        let seats = self.db.seats(game_id).await?;
        let seat = seats
            .iter()
            .find(|s| s.user_id == user)
            .ok_or(ServiceError::NotAPlayer(game_id))?;
        if seat.accepted {
            return Err(ServiceError::Refused("you have already accepted".into()));
        }
        let deck = self.resolve_deck(user, deck).await?;
        self.db
            .accept_seat(game_id, seat.seat, &Self::seat_deck_json(&deck))
            .await?;
        let seats = self.db.seats(game_id).await?;
        if seats.iter().all(|s| s.accepted) {
            return self.start(game_id).await;
        }
        Ok(Plan {
            game_id,
            public: vec![format!(
                "Game {game_id}: accepted; waiting for the other players."
            )],
            ..Default::default()
        })
    }

    pub async fn decline(&self, user: Id, game_id: Id) -> Result<Plan> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let seats = self.db.seats(game_id).await?;
        if !seats.iter().any(|s| s.user_id == user) {
            return Err(ServiceError::NotAPlayer(game_id));
        }
        if !self
            .db
            .set_status(game_id, "challenge", "declined", self.now())
            .await?
        {
            return Err(ServiceError::WrongStatus {
                id: game_id,
                status: row.status,
                wanted: "a challenge",
            });
        }
        let name = self
            .db
            .user(user)
            .await?
            .map_or_else(|| "a player".into(), |u| u.name);
        Ok(Plan {
            game_id,
            public: vec![format!("Game {game_id}: {name} declined.")],
            pings: vec![row.created_by],
            ..Default::default()
        })
    }

    async fn start(&self, game_id: Id) -> Result<Plan> {
        self.start_with(game_id, None).await
    }

    /// Starts a game whose seats have all accepted; `first_player`: the seat that plays
    /// first (None: the engine picks at random from the seed). League matches choose it
    /// per the Magic Tournament Rules 2.2.
    pub(crate) async fn start_with(&self, game_id: Id, first_player: Option<u8>) -> Result<Plan> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let seats = self.db.seats(game_id).await?;
        let mut players = Vec::new();
        for s in &seats {
            let deck: SeatDeck = s
                .deck
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .ok_or_else(|| ServiceError::Corrupt {
                    id: game_id,
                    why: format!("seat {} has no readable deck", s.seat),
                })?;
            let name = self
                .db
                .user(s.user_id)
                .await?
                .map_or_else(|| format!("Player {}", s.seat + 1), |u| u.name);
            players.push(StoredPlayer {
                name,
                deck: deck.cards,
            });
        }
        let ruleset: Ruleset = row
            .ruleset
            .parse()
            .map_err(|e: String| ServiceError::Corrupt {
                id: game_id,
                why: e,
            })?;
        let setup = StoredSetup {
            ruleset,
            seed: row.seed,
            starting_life: 20,
            first_player,
            players,
        };
        let game = setup.new_game().map_err(ServiceError::Deck)?;
        let setup_json =
            serde_json::to_string(&setup).map_err(|e| ServiceError::Refused(e.to_string()))?;
        let snap = game
            .to_json()
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        let now = self.now();
        let first_is_human = game
            .pending()
            .is_some_and(|p| seats.get(p.player.index()).is_some_and(|s| !s.is_agent));
        let deadline = first_is_human.then_some(now + self.cfg.decision_secs());
        self.db
            .start_game(game_id, &setup_json, &snap, deadline, now)
            .await?;
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let mut loaded = Loaded {
            row,
            seats,
            game,
            rebuilt: None,
        };
        let mut plan = Plan {
            game_id,
            ..Default::default()
        };
        plan.notice(
            &loaded.seats,
            format!("Game {game_id} begins ({ruleset} rules)."),
        );
        self.run_and_commit(&mut loaded, Vec::new(), &mut plan)
            .await?;
        Ok(plan)
    }

    // ----- loading ---------------------------------------------------------------------

    /// Loads a game; an unreadable snapshot is rebuilt from the log (and stored again).
    pub async fn load(&self, game_id: Id) -> Result<Loaded> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let seats = self.db.seats(game_id).await?;
        let mut parsed = match &row.snapshot {
            Ok(Some(text)) => {
                Game::from_json(text).map_err(|e| format!("the snapshot is not a game: {e}"))
            }
            Ok(None) => Err("there is no snapshot".to_string()),
            Err(e) => Err(format!("the snapshot is unreadable: {e}")),
        };
        // A snapshot that parses may still not be the state its log reached (a changed
        // byte): the state hash recorded with the action of its version says what it must
        // be (that action, not the newest: a racing writer may have moved on since the row
        // was read).
        if let Ok(game) = &parsed
            && let Some(recorded) = self.db.state_hash_at(game_id, row.version).await?
            && replay::hash_i64(game) != recorded
        {
            parsed = Err(format!(
                "the snapshot differs from its action log (state hash {:016x}, the log recorded {:016x})",
                replay::hash_i64(game) as u64,
                recorded as u64
            ));
        }
        match parsed {
            Ok(game) => Ok(Loaded {
                row,
                seats,
                game,
                rebuilt: None,
            }),
            Err(why) => {
                if matches!(row.status.as_str(), "challenge" | "declined" | "expired") {
                    return Err(ServiceError::WrongStatus {
                        id: game_id,
                        status: row.status,
                        wanted: "started",
                    });
                }
                tracing::warn!(game_id, %why, "corrupt snapshot; rebuilding from the action log");
                let game = self
                    .rebuild(&row)
                    .await
                    .map_err(|e| ServiceError::Corrupt {
                        id: game_id,
                        why: format!("{why}; rebuilding from the log failed: {e}"),
                    })?;
                let snap = game.to_json().map_err(|e| ServiceError::Corrupt {
                    id: game_id,
                    why: e.to_string(),
                })?;
                self.db
                    .replace_snapshot(game_id, row.version, &snap, self.now())
                    .await?;
                let note = format!(
                    "Game {game_id}: the stored state was damaged ({why}); it was rebuilt from the action log."
                );
                Ok(Loaded {
                    row,
                    seats,
                    game,
                    rebuilt: Some(note),
                })
            }
        }
    }

    async fn rebuild(&self, row: &GameRow) -> Result<Game, String> {
        let setup = Self::stored_setup(row)?;
        let actions = self.db.actions(row.id).await.map_err(|e| e.to_string())?;
        replay::replay(&setup, &actions, false).map_err(|d| d.to_string())
    }

    fn stored_setup(row: &GameRow) -> Result<StoredSetup, String> {
        let text = row.setup.as_deref().ok_or("the game has no stored setup")?;
        serde_json::from_str(text).map_err(|e| format!("the stored setup is unreadable: {e}"))
    }

    /// The game's log as a spectator reads it (`/mtg log`): every public event line since
    /// the game began, oldest first, replayed from the action log (answers taken back by an
    /// undo are left out).
    pub async fn log_lines(&self, game_id: Id) -> Result<Vec<String>> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let setup =
            Self::stored_setup(&row).map_err(|why| ServiceError::Corrupt { id: game_id, why })?;
        let actions = self.db.actions(game_id).await?;
        let (order, undone) = log_order(&actions);
        let mut entries: Vec<(i64, Vec<String>)> = Vec::new();
        let mut i = 0usize;
        replay::replay_with(&setup, &actions, false, &mut |g, events| {
            if let Some(Some(batch)) = order.get(i) {
                entries.push((*batch, board_text::events(g, None, events)));
            }
            i += 1;
        })
        .map_err(|d| ServiceError::Corrupt {
            id: game_id,
            why: d.to_string(),
        })?;
        let mut keep = vec![true; entries.len()];
        for (batch, before) in undone {
            for (k, e) in entries.iter().enumerate().take(before) {
                if e.0 == batch {
                    keep[k] = false;
                }
            }
        }
        Ok(entries
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .flat_map(|(e, _)| e.1)
            .collect())
    }

    /// Replays the log from the seed and compares every recorded hash and the snapshot.
    pub async fn check_replay(&self, game_id: Id) -> Result<Result<usize, replay::Divergence>> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let setup =
            Self::stored_setup(&row).map_err(|why| ServiceError::Corrupt { id: game_id, why })?;
        let actions = self.db.actions(game_id).await?;
        let n = actions.len();
        Ok(replay::replay(&setup, &actions, true).and_then(|g| {
            let snap = row.snapshot.clone().unwrap_or(None);
            replay::compare_snapshot(&g, snap.as_deref()).map(|_| n)
        }))
    }

    /// The last `n` lines of a game's log as `viewer` sees them (None: everyone), rebuilt by
    /// replaying the action log (shown when a game is resumed).
    pub async fn recent_lines(
        &self,
        game_id: Id,
        viewer: Option<PlayerId>,
        n: usize,
    ) -> Result<Vec<String>> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or(ServiceError::NoGame(game_id))?;
        let setup =
            Self::stored_setup(&row).map_err(|why| ServiceError::Corrupt { id: game_id, why })?;
        let actions = self.db.actions(game_id).await?;
        let mut lines: std::collections::VecDeque<String> = std::collections::VecDeque::new();
        replay::replay_with(&setup, &actions, false, &mut |g, events| {
            for l in board_text::events(g, viewer, events) {
                if lines.len() == n {
                    lines.pop_front();
                }
                lines.push_back(l);
            }
        })
        .map_err(|d| ServiceError::Corrupt {
            id: game_id,
            why: d.to_string(),
        })?;
        Ok(lines.into_iter().collect())
    }

    pub async fn actions(&self, game_id: Id) -> Result<Vec<ActionRow>> {
        Ok(self.db.actions(game_id).await?)
    }

    // ----- playing ---------------------------------------------------------------------

    /// A player's words for a game. `expected_version` (from a button) must match the game's
    /// version, or the answer is stale.
    pub async fn command(
        &self,
        user: Id,
        game_id: Id,
        text: &str,
        expected_version: Option<i64>,
    ) -> Result<Plan> {
        let mut loaded = self.load(game_id).await?;
        if loaded.row.status != "active" {
            return Err(ServiceError::WrongStatus {
                id: game_id,
                status: loaded.row.status.clone(),
                wanted: "active",
            });
        }
        let Some(seat) = loaded.seat_of(user) else {
            return Err(ServiceError::NotAPlayer(game_id));
        };
        let mut plan = Plan {
            game_id,
            ..Default::default()
        };
        if let Some(note) = loaded.rebuilt.take() {
            plan.notice(&loaded.seats, note);
        }
        if let Some(v) = expected_version
            && v != loaded.row.version
        {
            let mut p = plan.clone();
            self.describe_state(&loaded, &mut p, false).await?;
            return Err(ServiceError::Stale {
                expected: v,
                actual: loaded.row.version,
                plan: Box::new(p),
            });
        }
        let cmd = grammar::parse_command(&loaded.game, seat, text)?;
        match cmd.clone() {
            Command::Answers(answers) => {
                let mut applied = Vec::new();
                let mut game = loaded.game.clone();
                for a in answers {
                    // Apply on a copy: if one answer fails nothing is kept.
                    let events = game
                        .submit(seat, a.clone())
                        .map_err(|e| ServiceError::Refused(e.to_string()))?;
                    plan.tell(&game, &loaded.seats, Some(seat), &events);
                    applied.push(Applied {
                        seat,
                        answer: a,
                        kind: "answer",
                        hash: replay::hash_i64(&game),
                    });
                }
                loaded.game = game;
                self.run_and_commit(&mut loaded, applied, &mut plan).await?;
            }
            Command::ConcedeAsk => {
                plan.version = loaded.row.version;
                plan.private.push(Private {
                    user_id: user,
                    text: format!(
                        "You are about to concede game {game_id}: say `concede yes` to concede (on Discord, `/mtg concede confirm:True`); anything else goes on with the game."
                    ),
                });
            }
            Command::Concede => {
                let mut game = loaded.game.clone();
                let events = game
                    .submit(seat, Answer::Concede)
                    .map_err(|e| ServiceError::Refused(e.to_string()))?;
                plan.tell(&game, &loaded.seats, Some(seat), &events);
                let applied = vec![Applied {
                    seat,
                    answer: Answer::Concede,
                    kind: "answer",
                    hash: replay::hash_i64(&game),
                }];
                loaded.game = game;
                self.run_and_commit(&mut loaded, applied, &mut plan).await?;
            }
            Command::PassTurn => {
                self.db
                    .set_pass_until(
                        game_id,
                        i64::from(seat.0),
                        Some(i64::from(loaded.game.turn)),
                    )
                    .await?;
                loaded.seats[seat.index()].pass_until_turn = Some(i64::from(loaded.game.turn));
                plan.private.push(Private {
                    user_id: user,
                    text: "You will pass priority until the end of this turn.".into(),
                });
                self.run_and_commit(&mut loaded, Vec::new(), &mut plan)
                    .await?;
            }
            Command::Board => {
                self.describe_state(&loaded, &mut plan, false).await?;
                plan.choices.clear();
            }
            Command::Help => {
                let opts = grammar::options(&loaded.game, seat, true);
                let also = "Also: `board`, `card NAME`, `stops`, `stop ...` (`help stop`), `pass turn`, `undo`, `concede`.";
                let text = if opts.is_empty() {
                    format!("Nothing to decide for you now. {also}")
                } else {
                    format!("You may say: {}. {also}", opts.join(" · "))
                };
                plan.version = loaded.row.version;
                plan.private.push(Private {
                    user_id: user,
                    text,
                });
            }
            Command::Stops(_) | Command::ListStops | Command::HelpStops | Command::Card(_) => {
                let text = self.player_words(user, &cmd).await?;
                plan.version = loaded.row.version;
                plan.private.push(Private {
                    user_id: user,
                    text,
                });
            }
            Command::ToCombat(attack) => {
                self.to_combat(&mut loaded, seat, attack, &mut plan).await?
            }
            Command::Undo => self.request_undo(&loaded, user, seat, &mut plan).await?,
            Command::AllowUndo(yes) => {
                self.answer_undo(&mut loaded, user, seat, yes, &mut plan)
                    .await?
            }
        }
        Ok(plan)
    }

    /// The commands about a player rather than a game: stops (`stops`, `stop ...`,
    /// `unstop ...`, `help stop`) and `card NAME`; the answer to show them.
    pub async fn player_words(&self, user: Id, cmd: &Command) -> Result<String> {
        match cmd {
            Command::ListStops => Ok(self.settings(user).await?.describe()),
            Command::HelpStops => Ok(STOPS_HELP.to_string()),
            Command::Card(name) => crate::card_text::find(name)
                .map(|d| crate::card_text::describe(d, 8))
                .map_err(ServiceError::Refused),
            Command::Stops(spec) => {
                let mut prefs = self.prefs(user).await?;
                let msg = prefs
                    .stops
                    .apply_words(spec)
                    .map_err(ServiceError::Refused)?;
                self.set_prefs(user, &prefs).await?;
                Ok(msg)
            }
            _ => Err(ServiceError::Refused(
                "that is a game command: say it in a game".into(),
            )),
        }
    }

    /// `go to combat` / `attack with X` from the precombat main phase: passes priority
    /// (and the player's own priority in the beginning of combat while the stack stays
    /// empty), then, at this player's declaration of attackers this turn, declares `attack`.
    /// If anything else happens first (an opponent casts a spell), it stops there and says so.
    async fn to_combat(
        &self,
        loaded: &mut Loaded,
        seat: PlayerId,
        attack: Option<String>,
        plan: &mut Plan,
    ) -> Result<()> {
        let turn = loaded.game.turn;
        let mut game = loaded.game.clone();
        let events = game
            .submit(seat, Answer::Pass)
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        plan.tell(&game, &loaded.seats, Some(seat), &events);
        let mut applied = vec![Applied {
            seat,
            answer: Answer::Pass,
            kind: "answer",
            hash: replay::hash_i64(&game),
        }];
        loaded.game = game;
        let settings = self.seat_settings(loaded).await?;
        self.run_auto(loaded, &mut applied, plan, &settings, Some((seat, turn)));
        let at_attack = loaded.game.turn == turn
            && loaded.game.pending().is_some_and(|p| {
                p.player == seat && matches!(p.decision, Decision::DeclareAttackers)
            });
        let user = loaded.user_of(seat).unwrap_or_default();
        if !at_attack {
            plan.private.push(Private {
                user_id: user,
                text: "You did not get to declare attackers: the game stopped first (see above)."
                    .into(),
            });
        } else if let Some(words) = attack {
            let said = format!("attack with {words}");
            match grammar::parse_answers(&loaded.game, seat, &said) {
                Ok(answers) => {
                    let mut game = loaded.game.clone();
                    for a in answers {
                        let events = game
                            .submit(seat, a.clone())
                            .map_err(|e| ServiceError::Refused(e.to_string()))?;
                        plan.tell(&game, &loaded.seats, Some(seat), &events);
                        applied.push(Applied {
                            seat,
                            answer: a,
                            kind: "answer",
                            hash: replay::hash_i64(&game),
                        });
                    }
                    loaded.game = game;
                    self.run_auto(loaded, &mut applied, plan, &settings, None);
                }
                Err(e) => plan.private.push(Private {
                    user_id: user,
                    text: format!(
                        "You are in the declare attackers step, but the attack was not declared: {e}"
                    ),
                }),
            }
        }
        self.commit(loaded, applied, plan, None).await
    }

    /// Whether taking back `batch` (the last live command) would reveal hidden information:
    /// the command drew a card, shuffled a library or took a card from one. Replays the log
    /// up to the batch, then the batch's answers, looking at their events.
    fn undo_would_reveal(
        row: &GameRow,
        actions: &[ActionRow],
        batch: i64,
        requester: PlayerId,
    ) -> Result<Option<String>> {
        let setup =
            Self::stored_setup(row).map_err(|why| ServiceError::Corrupt { id: row.id, why })?;
        let first = actions
            .iter()
            .position(|a| a.batch == batch && a.kind != "undo")
            .unwrap_or(actions.len());
        let mut game = replay::replay(&setup, &actions[..first], false).map_err(|d| {
            ServiceError::Corrupt {
                id: row.id,
                why: d.to_string(),
            }
        })?;
        for a in actions[first..].iter().filter(|a| a.batch == batch) {
            let (Some(seat), Some(text)) = (a.seat, a.answer.as_deref()) else {
                continue;
            };
            let Ok(answer) = serde_json::from_str::<Answer>(text) else {
                continue;
            };
            let p = PlayerId(seat as u8);
            let Ok(events) = game.submit(p, answer) else {
                break;
            };
            if let Some(why) = hidden_seen(&game, requester, &events) {
                return Ok(Some(why));
            }
        }
        Ok(None)
    }

    async fn request_undo(
        &self,
        loaded: &Loaded,
        user: Id,
        seat: PlayerId,
        plan: &mut Plan,
    ) -> Result<()> {
        if loaded.game.result.is_some() {
            return Err(ServiceError::Refused("the game is over".into()));
        }
        let actions = self.db.actions(loaded.row.id).await?;
        let batch = last_live_human_batch(&actions)
            .ok_or_else(|| ServiceError::Refused("there is nothing to undo".into()))?;
        if batch.1 != Some(i64::from(seat.0)) {
            return Err(ServiceError::Refused(
                "only your own last command can be undone, before anyone else has acted".into(),
            ));
        }
        if let Some(why) = Self::undo_would_reveal(&loaded.row, &actions, batch.0, seat)? {
            return Err(ServiceError::Refused(format!(
                "your last command can't be taken back: {why}, and taking it back would let you see it again and choose differently"
            )));
        }
        self.db
            .set_undo_request(loaded.row.id, loaded.row.version, Some(user), Some(batch.0))
            .await?;
        let others: Vec<&SeatRow> = loaded.seats.iter().filter(|s| s.user_id != user).collect();
        let name = loaded.game.player(seat).name.clone();
        plan.version = loaded.row.version;
        plan.notice(
            &loaded.seats,
            format!(
                "{name} asks to take back their last command. {}: `allow undo` or `deny undo`.",
                if others.len() > 1 {
                    "Every opponent"
                } else {
                    "Opponent"
                }
            ),
        );
        let mut l = loaded.clone();
        l.row.undo_by = Some(user);
        l.row.undo_batch = Some(batch.0);
        l.row.undo_consents = Vec::new();
        for o in &others {
            if o.is_agent {
                continue;
            }
            plan.pings.push(o.user_id);
            plan.choices.push(Choices {
                user_id: o.user_id,
                version: loaded.row.version,
                options: vec!["allow undo".into(), "deny undo".into()],
            });
        }
        // The random agent always consents.
        for o in others.iter().filter(|o| o.is_agent) {
            let agent_seat = PlayerId(o.seat as u8);
            Box::pin(self.answer_undo(&mut l, o.user_id, agent_seat, true, plan)).await?;
            if l.row.undo_by.is_none() {
                break;
            }
        }
        Ok(())
    }

    async fn answer_undo(
        &self,
        loaded: &mut Loaded,
        user: Id,
        _seat: PlayerId,
        yes: bool,
        plan: &mut Plan,
    ) -> Result<()> {
        let (Some(by), Some(batch)) = (loaded.row.undo_by, loaded.row.undo_batch) else {
            return Err(ServiceError::Refused("nobody has asked to undo".into()));
        };
        if by == user {
            return Err(ServiceError::Refused(
                "your opponents must consent to your undo".into(),
            ));
        }
        if !yes {
            self.db
                .set_undo_request(loaded.row.id, loaded.row.version, None, None)
                .await?;
            loaded.row.undo_by = None;
            plan.version = loaded.row.version;
            plan.notice(&loaded.seats, "Undo refused.".into());
            plan.pings.push(by);
            return Ok(());
        }
        let consents = self
            .db
            .add_undo_consent(
                loaded.row.id,
                loaded.row.version,
                &loaded.row.undo_consents,
                user,
            )
            .await?;
        loaded.row.undo_consents = consents.clone();
        let waiting: Vec<String> = loaded
            .seats
            .iter()
            .filter(|s| s.user_id != by && !consents.contains(&s.user_id))
            .map(|s| loaded.game.player(PlayerId(s.seat as u8)).name.clone())
            .collect();
        if !waiting.is_empty() {
            plan.version = loaded.row.version;
            plan.public.push(format!(
                "Undo: waiting for {} to consent.",
                waiting.join(", ")
            ));
            return Ok(());
        }
        loaded.row.undo_by = None;
        let setup = Self::stored_setup(&loaded.row).map_err(|why| ServiceError::Corrupt {
            id: loaded.row.id,
            why,
        })?;
        let mut actions = self.db.actions(loaded.row.id).await?;
        let seq = loaded.row.version + 1;
        let payload = serde_json::to_string(&UndoRecord { undo_batch: batch })
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        actions.push(ActionRow {
            game_id: loaded.row.id,
            seq,
            batch: loaded.row.version,
            seat: None,
            kind: "undo".into(),
            answer: Some(payload.clone()),
            state_hash: 0,
            created_at: 0,
        });
        let game = replay::replay(&setup, &actions, false)
            .map_err(|d| ServiceError::Refused(format!("cannot undo: {d}")))?;
        loaded.game = game;
        // The undo row carries its payload in the answer column (see `run_and_commit_with`).
        let applied = vec![Applied {
            seat: PlayerId(0),
            answer: Answer::Pass,
            kind: "undo",
            hash: replay::hash_i64(&loaded.game),
        }];
        plan.notice(
            &loaded.seats,
            "Undo accepted: the last command was taken back.".into(),
        );
        self.run_and_commit_with(loaded, applied, plan, Some(payload))
            .await
    }

    /// Reminders and expired deadlines up to now: one plan per game touched.
    pub async fn tick(&self) -> Result<Vec<Plan>> {
        let now = self.now();
        let mut plans = Vec::new();
        // Unanswered challenges expire (once: the status moves from `challenge` only).
        for id in self
            .db
            .challenges_before(now - self.cfg.challenge_secs())
            .await?
        {
            if self.db.set_status(id, "challenge", "expired", now).await? {
                plans.push(Plan {
                    game_id: id,
                    public: vec![format!(
                        "The challenge of game {id} expired: it was not answered within {} h.",
                        self.cfg.deadlines.challenge_hours
                    )],
                    ..Default::default()
                });
            }
        }
        for (id, deadline, reminded) in self.db.games_due(now + self.cfg.reminder_secs()).await? {
            if deadline <= now {
                match self.expire(id).await {
                    Ok(p) => plans.push(p),
                    Err(ServiceError::Storage(StorageError::Conflict { .. })) => continue,
                    Err(e) => tracing::warn!(game_id = id, error = %e, "timeout failed"),
                }
            } else if !reminded {
                let loaded = self.load(id).await?;
                if !self.db.set_reminded(id, loaded.row.version).await? {
                    continue;
                }
                let Some(p) = loaded.game.pending() else {
                    continue;
                };
                let Some(u) = loaded.user_of(p.player) else {
                    continue;
                };
                let hours = (deadline - now + 3599) / 3600;
                plans.push(Plan {
                    game_id: id,
                    version: loaded.row.version,
                    public: vec![format!(
                        "Reminder: {} has about {hours} h left to {}.",
                        loaded.game.player(p.player).name,
                        p.decision.describe()
                    )],
                    pings: vec![u],
                    reminder: true,
                    ..Default::default()
                });
            }
        }
        Ok(plans)
    }

    async fn expire(&self, game_id: Id) -> Result<Plan> {
        let mut loaded = self.load(game_id).await?;
        let Some(p) = loaded.game.pending().map(|p| p.player) else {
            return Err(ServiceError::Refused("nothing pending".into()));
        };
        let seat_row = loaded
            .seats
            .get(p.index())
            .cloned()
            .ok_or(ServiceError::NotAPlayer(game_id))?;
        let timeouts = seat_row.timeouts + 1;
        let forfeit = timeouts >= i64::from(self.cfg.deadlines.max_timeouts);
        let answer = if forfeit {
            Answer::Concede
        } else {
            default_answer(&loaded.game, p)
        };
        let mut game = loaded.game.clone();
        let mut plan = Plan {
            game_id,
            ..Default::default()
        };
        let name = game.player(p).name.clone();
        let events = game
            .submit(p, answer.clone())
            .map_err(|e| ServiceError::Refused(e.to_string()))?;
        plan.notice(
            &loaded.seats,
            if forfeit {
                format!("{name} ran out of time {timeouts} times and forfeits.")
            } else {
                timeout_message(&loaded.game, p, &answer)
            },
        );
        plan.tell(&game, &loaded.seats, None, &events);
        loaded.game = game;
        loaded.seats[p.index()].timeouts = timeouts;
        let applied = vec![Applied {
            seat: p,
            answer,
            kind: "timeout",
            hash: replay::hash_i64(&loaded.game),
        }];
        self.run_and_commit(&mut loaded, applied, &mut plan).await?;
        Ok(plan)
    }

    /// Runs automatic answers (agents, auto-pass, stops), then commits everything applied in
    /// one transaction and describes the new state.
    async fn run_and_commit(
        &self,
        loaded: &mut Loaded,
        applied: Vec<Applied>,
        plan: &mut Plan,
    ) -> Result<()> {
        self.run_and_commit_with(loaded, applied, plan, None).await
    }

    async fn run_and_commit_with(
        &self,
        loaded: &mut Loaded,
        mut applied: Vec<Applied>,
        plan: &mut Plan,
        undo_payload: Option<String>,
    ) -> Result<()> {
        let settings = self.seat_settings(loaded).await?;
        self.run_auto(loaded, &mut applied, plan, &settings, None);
        self.commit(loaded, applied, plan, undo_payload).await
    }

    /// Each seat's stops (the defaults for agents).
    async fn seat_settings(&self, loaded: &Loaded) -> Result<Vec<Settings>> {
        let mut settings = Vec::new();
        for s in &loaded.seats {
            settings.push(if s.is_agent {
                Settings::default()
            } else {
                self.settings(s.user_id).await?
            });
        }
        Ok(settings)
    }

    /// Runs automatic answers (agents, auto-pass, stops) until a human must decide.
    /// `to_combat` (seat, turn): that seat is on its way to declaring attackers this turn,
    /// so its priority with an empty stack in the main phase and the beginning of combat
    /// is passed.
    fn run_auto(
        &self,
        loaded: &mut Loaded,
        applied: &mut Vec<Applied>,
        plan: &mut Plan,
        settings: &[Settings],
        to_combat: Option<(PlayerId, u32)>,
    ) {
        let mut guard = 0;
        while loaded.game.result.is_none() && guard < 100_000 {
            guard += 1;
            let Some(pending) = loaded.game.pending() else {
                break;
            };
            let p = pending.player;
            let on_the_way = to_combat.is_some_and(|(seat, turn)| {
                seat == p
                    && loaded.game.turn == turn
                    && matches!(pending.decision, Decision::Priority)
                    && loaded.game.stack.is_empty()
                    && matches!(loaded.game.step, Step::PrecombatMain | Step::BeginCombat)
            });
            let (answer, kind) = if loaded.is_agent(p) {
                (
                    agent_answer(
                        &loaded.game,
                        p,
                        (loaded.row.version as u64) << 20 | applied.len() as u64,
                    ),
                    "agent",
                )
            } else if on_the_way {
                (Answer::Pass, "auto")
            } else {
                let pass_until = loaded.seats.get(p.index()).and_then(|s| s.pass_until_turn);
                let stops = settings.get(p.index()).cloned().unwrap_or_default();
                match auto_answer(&loaded.game, p, &stops, pass_until) {
                    Some(a) => (a, "auto"),
                    None => break,
                }
            };
            match loaded.game.submit(p, answer.clone()) {
                Ok(events) => {
                    plan.tell(&loaded.game, &loaded.seats, None, &events);
                    applied.push(Applied {
                        seat: p,
                        answer,
                        kind,
                        hash: replay::hash_i64(&loaded.game),
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "automatic answer refused");
                    break;
                }
            }
        }
    }

    /// Commits everything applied in one transaction and describes the new state.
    async fn commit(
        &self,
        loaded: &mut Loaded,
        applied: Vec<Applied>,
        plan: &mut Plan,
        undo_payload: Option<String>,
    ) -> Result<()> {
        let now = self.now();
        let status = if loaded.game.result.is_some() {
            "finished"
        } else {
            "active"
        };
        let deadline = match loaded.game.pending() {
            Some(p) if status == "active" && !loaded.is_agent(p.player) => {
                Some(now + self.cfg.decision_secs())
            }
            _ => None,
        };
        if applied.is_empty() {
            plan.version = loaded.row.version;
        } else {
            let snapshot = loaded
                .game
                .to_json()
                .map_err(|e| ServiceError::Refused(e.to_string()))?;
            let actions = applied
                .iter()
                .map(|a| {
                    let answer = if a.kind == "undo" {
                        undo_payload.clone()
                    } else {
                        serde_json::to_string(&a.answer).ok()
                    };
                    NewAction {
                        seat: (a.kind != "undo").then_some(i64::from(a.seat.0)),
                        kind: a.kind.to_string(),
                        answer,
                        state_hash: a.hash,
                    }
                })
                .collect();
            let timeouts = loaded.seats.iter().map(|s| (s.seat, s.timeouts)).collect();
            let commit = Commit {
                game_id: loaded.row.id,
                expected_version: loaded.row.version,
                actions,
                snapshot,
                status: status.into(),
                deadline,
                timeouts,
                now,
            };
            match self.db.commit(&commit).await {
                Ok(v) => {
                    loaded.row.version = v;
                    loaded.row.status = status.into();
                    loaded.row.deadline = deadline;
                    plan.version = v;
                }
                Err(StorageError::Conflict { expected, actual }) => {
                    let fresh = self.load(loaded.row.id).await?;
                    let mut p = Plan {
                        game_id: loaded.row.id,
                        ..Default::default()
                    };
                    self.describe_state(&fresh, &mut p, false).await?;
                    return Err(ServiceError::Stale {
                        expected,
                        actual: actual.unwrap_or(-1),
                        plan: Box::new(p),
                    });
                }
                Err(e) => return Err(e.into()),
            }
            // A pass-until-end-of-turn request ends with the turn.
            for s in loaded.seats.iter_mut() {
                if s.pass_until_turn
                    .is_some_and(|t| t != i64::from(loaded.game.turn))
                {
                    s.pass_until_turn = None;
                    self.db.set_pass_until(loaded.row.id, s.seat, None).await?;
                }
            }
        }
        self.describe_state(loaded, plan, true).await
    }

    /// Adds to `plan`: the public board, each human player's private view, the ping and the
    /// choices for whoever must decide.
    async fn describe_state(&self, loaded: &Loaded, plan: &mut Plan, ping: bool) -> Result<()> {
        let game = &loaded.game;
        plan.game_id = loaded.row.id;
        plan.version = loaded.row.version;
        plan.board = Some(board_text::board(&game.view(None)));
        plan.finished = game.result.is_some();
        for s in &loaded.seats {
            if s.is_agent {
                continue;
            }
            let p = PlayerId(s.seat as u8);
            let mut text = String::new();
            let events: Vec<engine::Event> = plan.events.iter().map(|e| e.1.clone()).collect();
            for line in board_text::events(game, Some(p), &events) {
                if line.starts_with("You draw") {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            let waited: Vec<engine::Event> = plan
                .events
                .iter()
                .filter(|(by, _)| *by != Some(p))
                .map(|e| e.1.clone())
                .collect();
            if let Some(w) = board_text::summary(game, p, &waited) {
                plan.waited.push(Private {
                    user_id: s.user_id,
                    text: w,
                });
            }
            text.push_str(&board_text::board(&game.view(Some(p))));
            if game.pending().is_some_and(|x| x.player == p) && game.result.is_none() {
                let opts = grammar::options(game, p, false);
                text.push_str(&format!("You may say: {}\n", opts.join(" · ")));
                plan.choices.push(Choices {
                    user_id: s.user_id,
                    version: loaded.row.version,
                    options: opts.into_iter().take(25).collect(),
                });
                if ping && !plan.pings.contains(&s.user_id) {
                    plan.pings.push(s.user_id);
                }
            }
            plan.private.push(Private {
                user_id: s.user_id,
                text,
            });
        }
        Ok(())
    }

    /// What a spectator (or anyone) may see of a game.
    pub async fn spectate(&self, game_id: Id) -> Result<String> {
        let loaded = self.load(game_id).await?;
        Ok(board_text::board(&loaded.game.view(None)))
    }

    /// Open games (challenges and active) of a user.
    pub async fn games_of(&self, user: Id) -> Result<Vec<GameRow>> {
        Ok(self.db.games_of_user(user, true).await?)
    }
}

/// The last command (batch) not undone, and the seat of the human whose command it was
/// (None: only automatic answers, timeouts).
fn last_live_human_batch(actions: &[ActionRow]) -> Option<(i64, Option<i64>)> {
    let mut live: Vec<&ActionRow> = Vec::new();
    for a in actions {
        if a.kind == "undo" {
            if let Some(r) = a
                .answer
                .as_deref()
                .and_then(|t| serde_json::from_str::<UndoRecord>(t).ok())
            {
                live.retain(|x| x.batch != r.undo_batch);
            }
        } else {
            live.push(a);
        }
    }
    let last = live.last()?.batch;
    let human = live
        .iter()
        .find(|a| a.batch == last && a.kind == "answer")
        .and_then(|a| a.seat);
    Some((last, human))
}

#[cfg(test)]
mod tests;

/// Why taking back an answer would let `requester` choose again knowing hidden information,
/// judged from the game after the answer and its `events`: a card was drawn, a library
/// shuffled or a card taken from one, cards of a library were revealed, looked at (scry,
/// fateseal) or are being looked at now (a scry, a put-back or a search waiting for the
/// requester). None when the answer showed nothing hidden.
pub(crate) fn hidden_seen(
    game: &Game,
    requester: PlayerId,
    events: &[engine::Event],
) -> Option<String> {
    use engine::zones::ZoneKind;
    let name = |p: PlayerId| game.player(p).name.clone();
    for e in events {
        let why = match e {
            engine::Event::Drew { player, .. } => format!("{} drew a card since", name(*player)),
            engine::Event::Shuffled(player) => {
                format!("{}'s library was shuffled since", name(*player))
            }
            engine::Event::ZoneChanged {
                from: ZoneKind::Library,
                owner,
                ..
            } => format!("a card left {}'s library since", name(*owner)),
            engine::Event::Scried {
                player, library, ..
            } => format!(
                "{} looked at the top of {}'s library since",
                name(*player),
                name(*library)
            ),
            engine::Event::Revealed { card, .. }
                if game.obj(*card).is_some_and(|o| {
                    o.zone == ZoneKind::Library
                        || (o.zone == ZoneKind::Hand && o.owner != requester)
                }) =>
            {
                format!("{} was revealed since", game.card_name(*card))
            }
            _ => continue,
        };
        return Some(why);
    }
    let pending = game
        .pending()
        .filter(|p| p.player == requester && game.result.is_none())?;
    match &pending.decision {
        Decision::Scry { library, .. } => Some(format!(
            "{} is looking at the top of {}'s library",
            name(requester),
            name(*library)
        )),
        Decision::Search {
            library: Some(lib), ..
        } => Some(format!(
            "{} is looking through {}'s library",
            name(requester),
            name(*lib)
        )),
        Decision::Search { .. } => Some(format!(
            "{} is looking through their library",
            name(requester)
        )),
        _ => None,
    }
}
