//! The words a player types, turned into engine answers.
//!
//! `play Forest`, `cast Lightning Axe on Grizzly Bears discarding Forest`, `attack with all`,
//! `block Bear with Wall`, `pass`, `keep`, `mulligan`, `yes`, `choose 2`, `x 3`, `target Bob`.
//! Card names match fuzzily among the objects the answer can name. A typed command may need
//! several answers (casting asks for targets, costs and mana in turn): [`parse_answers`]
//! plays them on a copy of the game and returns the whole sequence, or a helpful error
//! ("Lightning Axe needs a target: one of Grizzly Bears, Bob").
//!
//! [`describe`] names an answer with the same words, so the options offered (buttons,
//! autocomplete) parse back to the same answers.

use engine::decision::Decision;
use engine::mana::Color;
use engine::{Answer, Attack, Block, Game, ObjectId, PlayerId, Target};
use std::fmt;

mod abilities;
mod counted;
mod pregame;
mod scry;

pub use counted::numbered;

/// What a player said, beyond game answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Answers to submit in order.
    Answers(Vec<Answer>),
    /// `concede`: asks for confirmation first.
    ConcedeAsk,
    /// `concede yes`: concedes the game.
    Concede,
    /// Ask the opponents to take back your last command.
    Undo,
    /// Consent (or refuse) to an opponent's undo request.
    AllowUndo(bool),
    /// Pass priority until the end of this turn (stops still apply to your decisions
    /// other than priority).
    PassTurn,
    /// Show the board again.
    Board,
    /// List what you can say now.
    Help,
    /// Change your stops: `stop my upkeep`, `unstop their end step`, `stop none`,
    /// `stop default` (the words after `stop`; `unstop ...` comes as `-...`).
    Stops(String),
    /// List your stops (`stops`).
    ListStops,
    /// `help stop`: the step names and how stops work.
    HelpStops,
    /// A card's text, type, cost, P/T and rulings (`card NAME`).
    Card(String),
    /// `go to combat` or `attack with X` at priority in your precombat main phase: pass
    /// to combat and (with the words) declare those attackers.
    ToCombat(Option<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrammarError {
    Empty,
    NotYourDecision(String),
    NoDecision,
    /// The words do not fit the decision; with what would.
    Unknown {
        said: String,
        hint: String,
    },
    /// A name matched nothing the answer can name.
    NoMatch {
        what: String,
        said: String,
        options: Vec<String>,
    },
    Ambiguous {
        said: String,
        options: Vec<String>,
    },
    /// A spell or ability needs more information.
    Needs {
        card: String,
        what: String,
        options: Vec<String>,
    },
    /// The engine refused (the message is the engine's).
    Refused(String),
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrammarError::Empty => write!(f, "say something: try `help`"),
            GrammarError::NotYourDecision(w) => write!(f, "it is not your decision: {w}"),
            GrammarError::NoDecision => {
                write!(f, "nothing is waiting for an answer (the game may be over)")
            }
            GrammarError::Unknown { said, hint } => {
                write!(f, "I did not understand `{}`: {hint}", short(said))
            }
            GrammarError::NoMatch {
                what,
                said,
                options,
            } => {
                let said = short(said);
                if options.is_empty() {
                    write!(f, "no {what} matches `{said}`, and there is none to choose")
                } else {
                    write!(f, "no {what} matches `{said}`: one of {}", join_or(options))
                }
            }
            GrammarError::Ambiguous { said, options } => {
                write!(
                    f,
                    "`{}` could be {}: say which",
                    short(said),
                    join_or(options)
                )
            }
            GrammarError::Needs {
                card,
                what,
                options,
            } => {
                if options.is_empty() {
                    write!(f, "{card} needs {what}")
                } else {
                    write!(f, "{card} needs {what}: one of {}", join_or(options))
                }
            }
            GrammarError::Refused(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for GrammarError {}

fn join_or(v: &[String]) -> String {
    let mut v: Vec<&String> = v.iter().collect();
    v.dedup();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        _ => format!(
            "{} or {}",
            v[..v.len() - 1]
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            v[v.len() - 1]
        ),
    }
}

/// `s` cut to 60 characters (with `…`) for echoing what a player typed.
pub fn short(s: &str) -> String {
    const MAX: usize = 60;
    let s = s.trim();
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}

/// Lower case, straight apostrophes, single spaces, no trailing punctuation.
pub fn norm(s: &str) -> String {
    let s = s
        .trim()
        .to_lowercase()
        .replace(['’', '‘'], "'")
        .replace('æ', "ae");
    let s = s.trim_end_matches(['.', '!', '?']).to_string();
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A label's name: lower case, without what is in brackets (`Saproling (tapped)`).
fn base(l: &str) -> String {
    let l = norm(l);
    match l.find(" (") {
        Some(i) => l[..i].to_string(),
        None => l,
    }
}

enum Miss {
    None,
    Ambiguous(Vec<String>),
}

/// Picks the candidate whose label best matches `query`: exact label, exact card name,
/// prefix, substring, then small typos. Candidates with the same label are interchangeable
/// (the first is taken).
fn pick<T: Clone>(query: &str, cands: &[(String, T)]) -> Result<T, Miss> {
    let q = norm(query);
    if q.is_empty() {
        return Err(Miss::None);
    }
    let base = |l: &str| base(&counted::split_count(l).0);
    let tiers: [&dyn Fn(&str) -> bool; 5] = [
        &|l| norm(l) == q,
        &|l| base(l) == q,
        &|l| base(l) == base(&q),
        &|l| base(l).starts_with(&q) || base(l).split(' ').any(|w| w == q),
        &|l| norm(l).contains(&q),
    ];
    for t in tiers {
        let hits: Vec<&(String, T)> = cands.iter().filter(|(l, _)| t(l)).collect();
        if let Some(first) = hits.first() {
            let mut labels: Vec<String> = hits.iter().map(|(l, _)| l.clone()).collect();
            labels.dedup();
            let mut bases: Vec<String> = hits.iter().map(|(l, _)| base(l)).collect();
            bases.sort();
            bases.dedup();
            if labels.len() == 1
                || (bases.len() == 1
                    && labels.iter().all(|l| norm(l) != q)
                    && t(&first.0)
                    && hits.iter().all(|(l, _)| l == &first.0))
            {
                return Ok(first.1.clone());
            }
            return Err(Miss::Ambiguous(labels));
        }
    }
    let limit = 1 + q.chars().count() / 5;
    let mut best: Option<(usize, Vec<&(String, T)>)> = None;
    for c in cands {
        let d = edit_distance(&base(&c.0), &q);
        if d <= limit {
            match &mut best {
                Some((bd, v)) if *bd == d => v.push(c),
                Some((bd, _)) if *bd < d => {}
                _ => best = Some((d, vec![c])),
            }
        }
    }
    match best {
        Some((_, v)) => {
            let mut labels: Vec<String> = v.iter().map(|(l, _)| l.clone()).collect();
            labels.dedup();
            if labels.len() == 1 {
                Ok(v[0].1.clone())
            } else {
                Err(Miss::Ambiguous(labels))
            }
        }
        None => Err(Miss::None),
    }
}

fn pick_or<T: Clone>(query: &str, cands: &[(String, T)], what: &str) -> Result<T, GrammarError> {
    pick(query, cands).map_err(|m| match m {
        Miss::None => GrammarError::NoMatch {
            what: what.into(),
            said: query.trim().into(),
            options: uniq(cands.iter().map(|c| c.0.clone())),
        },
        Miss::Ambiguous(options) => GrammarError::Ambiguous {
            said: query.trim().into(),
            options,
        },
    })
}

/// A candidate's object, for words that say whose it is or what state it is in.
/// An ability on the stack answers for its source (`my Prodigal Sorcerer's ability`).
pub trait ObjectOf {
    fn object_of(&self, game: &Game) -> Option<ObjectId>;

    /// The object whose count (`Saproling 3 of 6`) a label carries: none for an ability on
    /// the stack (its count is among the abilities, not its source's).
    fn counted_object(&self, game: &Game) -> Option<ObjectId> {
        self.object_of(game)
    }
}

impl ObjectOf for ObjectId {
    fn object_of(&self, _: &Game) -> Option<ObjectId> {
        Some(*self)
    }
}

impl ObjectOf for Target {
    fn object_of(&self, game: &Game) -> Option<ObjectId> {
        match self {
            Target::Object(id) => Some(*id),
            Target::Ability(s) => abilities::ability_source(game, *s),
            Target::Player(_) => None,
        }
    }

    fn counted_object(&self, game: &Game) -> Option<ObjectId> {
        match self {
            Target::Ability(_) => None,
            other => other.object_of(game),
        }
    }
}

impl ObjectOf for Answer {
    fn object_of(&self, game: &Game) -> Option<ObjectId> {
        match self {
            Answer::PlayLand(id)
            | Answer::Cast(id)
            | Answer::CastFaceDown(id)
            | Answer::TurnFaceUp(id)
            | Answer::Activate { source: id, .. }
            | Answer::ActivateMana { source: id, .. } => Some(*id),
            Answer::Target(t) => t.object_of(game),
            _ => None,
        }
    }

    fn counted_object(&self, game: &Game) -> Option<ObjectId> {
        match self {
            Answer::Target(t) => t.counted_object(game),
            other => other.object_of(game),
        }
    }
}

/// What words before a name say of the object: whose it is (`my`, `his`, `their`,
/// `opponent's`, `Bob's`) and its state (`tapped`, `untapped`, `attacking`, `blocking`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Qualifiers {
    /// Some(true): the speaker's; Some(false): another player's.
    mine: Option<bool>,
    /// A particular other player's (`Bob's`).
    owner: Option<PlayerId>,
    tapped: Option<bool>,
    attacking: bool,
    blocking: bool,
}

impl Qualifiers {
    fn is_empty(&self) -> bool {
        *self == Qualifiers::default()
    }

    fn accepts(&self, game: &Game, viewer: PlayerId, id: ObjectId) -> bool {
        let Some(o) = game.obj(id) else {
            return false;
        };
        if let Some(mine) = self.mine
            && (o.controller == viewer) != mine
        {
            return false;
        }
        if self.owner.is_some_and(|p| o.controller != p) {
            return false;
        }
        if self.tapped.is_some_and(|t| o.tapped != t) {
            return false;
        }
        if !self.attacking && !self.blocking {
            return true;
        }
        let combat = game.view(Some(viewer));
        let seen = combat.battlefield.iter().find(|x| x.id == id);
        if self.attacking && seen.is_none_or(|x| x.attacking.is_none()) {
            return false;
        }
        if self.blocking && seen.is_none_or(|x| x.blocking.is_none()) {
            return false;
        }
        true
    }

    /// `what` with these words, for an error: "tapped creature of yours".
    fn phrase(&self, game: &Game, what: &str) -> String {
        let mut v = Vec::new();
        match self.tapped {
            Some(true) => v.push("tapped".to_string()),
            Some(false) => v.push("untapped".to_string()),
            None => {}
        }
        if self.attacking && !what.starts_with("attacking") {
            v.push("attacking".into());
        }
        if self.blocking {
            v.push("blocking".into());
        }
        v.push(what.to_string());
        match (self.mine, self.owner) {
            (_, Some(p)) => v.push(format!("of {}'s", game.player(p).name)),
            (Some(true), _) if !what.contains("of yours") => v.push("of yours".into()),
            (Some(false), _) => v.push("of an opponent's".into()),
            _ => {}
        }
        v.join(" ")
    }
}

/// Strips the qualifying words at the start of `query` (normalised); the rest is the name.
fn qualifiers(game: &Game, viewer: PlayerId, query: &str) -> (Qualifiers, String) {
    let mut q = Qualifiers::default();
    let mut rest = norm(query);
    let others: Vec<(String, PlayerId)> = game
        .player_ids()
        .map(|p| (format!("{}'s ", norm(&game.player(p).name)), p))
        .collect();
    loop {
        let before = rest.clone();
        for (w, f) in [
            ("my ", 0u8),
            ("mine ", 0),
            ("his ", 1),
            ("her ", 1),
            ("their ", 1),
            ("the opponent's ", 1),
            ("opponent's ", 1),
            ("opponents ", 1),
            ("opponent ", 1),
            ("enemy ", 1),
            ("tapped ", 2),
            ("untapped ", 3),
            ("attacking ", 4),
            ("blocking ", 5),
            ("the ", 6),
            ("a ", 6),
            ("an ", 6),
        ] {
            if let Some(r) = rest.strip_prefix(w) {
                match f {
                    0 => q.mine = Some(true),
                    1 => q.mine = Some(false),
                    2 => q.tapped = Some(true),
                    3 => q.tapped = Some(false),
                    4 => q.attacking = true,
                    5 => q.blocking = true,
                    _ => {}
                }
                rest = r.to_string();
            }
        }
        for (w, p) in &others {
            if let Some(r) = rest.strip_prefix(w.as_str()) {
                if *p == viewer {
                    q.mine = Some(true);
                } else {
                    q.owner = Some(*p);
                }
                rest = r.to_string();
            }
        }
        if rest == before {
            break;
        }
    }
    (q, rest)
}

/// [`pick_or`] for candidates that are objects, understanding `my bear`, `his tapped
/// magus`, `Bob's treefolk`, `attacking bear`. A name that itself starts with such a word
/// is matched as written first.
fn pick_in<T: Clone + ObjectOf>(
    game: &Game,
    viewer: PlayerId,
    query: &str,
    cands: &[(String, T)],
    what: &str,
) -> Result<T, GrammarError> {
    // `Saproling 3 of 6`: that one, never a guess.
    if let Some(r) = counted::counted_pick(game, viewer, query, cands, what) {
        return r;
    }
    // No count said: same-named objects in the same state are interchangeable.
    let plain = counted::uncounted(game, cands);
    let cands = plain.as_slice();
    let (q, rest) = qualifiers(game, viewer, query);
    let literal = norm(query);
    if rest.is_empty() || rest == literal || cands.iter().any(|(l, _)| norm(l) == literal) {
        return pick_or(query, cands, what);
    }
    if q.is_empty() {
        // Only articles: `the bear`, `a forest`.
        return pick_or(query, cands, what).or_else(|e| pick_or(&rest, cands, what).map_err(|_| e));
    }
    let fit: Vec<(String, T)> = cands
        .iter()
        .filter(|(_, t)| {
            t.object_of(game)
                .is_some_and(|id| q.accepts(game, viewer, id))
        })
        .cloned()
        .collect();
    if fit.is_empty() {
        return Err(GrammarError::NoMatch {
            what: q.phrase(game, what),
            said: query.trim().into(),
            options: uniq(cands.iter().map(|c| c.0.clone())),
        });
    }
    pick_or(&rest, &fit, &q.phrase(game, what)).map_err(|e| match e {
        GrammarError::NoMatch { what, options, .. } => GrammarError::NoMatch {
            what,
            said: query.trim().into(),
            options,
        },
        other => other,
    })
}

fn uniq(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for s in it {
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v
}

/// Labels for objects as `viewer` sees them: the card name, with `(yours)` / `(Bob's)` and
/// `(tapped)` added only where two candidates would otherwise share a name.
pub fn object_labels(game: &Game, viewer: PlayerId, ids: &[ObjectId]) -> Vec<String> {
    // Face-down objects by number, with the card only for their controller.
    let name = |id: ObjectId| game.seen_name(id, Some(viewer));
    let labels = ids
        .iter()
        .map(|&id| {
            let n = name(id);
            let same: Vec<ObjectId> = ids.iter().copied().filter(|o| name(*o) == n).collect();
            if same.len() < 2 {
                return n;
            }
            let mut extra = Vec::new();
            let me = game.obj(id);
            let ctl = me.map(|o| o.controller);
            if same
                .iter()
                .any(|o| game.obj(*o).map(|x| x.controller) != ctl)
                && let Some(c) = ctl
            {
                extra.push(if c == viewer {
                    "yours".to_string()
                } else {
                    format!("{}'s", game.player(c).name)
                });
            }
            let tapped = me.is_some_and(|o| o.tapped);
            if tapped && same.iter().any(|o| game.obj(*o).is_some_and(|x| !x.tapped)) {
                extra.push("tapped".into());
            }
            // A card in a graveyard (flashback) beside one elsewhere of the same name.
            let zone = me.map(|o| o.zone);
            if zone == Some(engine::zones::ZoneKind::Graveyard)
                && same.iter().any(|o| game.obj(*o).map(|x| x.zone) != zone)
            {
                extra.push("in graveyard".into());
            }
            if extra.is_empty() {
                n
            } else {
                format!("{n} ({})", extra.join(") ("))
            }
        })
        .collect();
    // Still the same: told apart by count (`Saproling 3 of 6`).
    counted::counted_labels(game, viewer, ids, labels)
}

/// Labels of `ids` as [`describe`] writes them (unique among every object the legal
/// answers name).
fn labels_in(game: &Game, viewer: PlayerId, ids: &[ObjectId], legal: &[Answer]) -> Vec<String> {
    let among = answer_objects(legal);
    ids.iter()
        .map(|id| object_label(game, viewer, *id, &among))
        .collect()
}

fn object_label(game: &Game, viewer: PlayerId, id: ObjectId, among: &[ObjectId]) -> String {
    let labels = object_labels(game, viewer, among);
    among
        .iter()
        .position(|o| *o == id)
        .map_or_else(|| game.seen_name(id, Some(viewer)), |i| labels[i].clone())
}

/// Whether the object is a card in a graveyard (a `Cast` of it is flashback).
fn is_in_graveyard(game: &Game, id: ObjectId) -> bool {
    game.obj(id)
        .is_some_and(|o| o.zone == engine::zones::ZoneKind::Graveyard)
}

fn player_label(game: &Game, viewer: PlayerId, p: PlayerId) -> String {
    if p == viewer {
        "me".to_string()
    } else {
        game.player(p).name.clone()
    }
}

fn color_word(c: Color) -> char {
    c.letter()
}

/// Every object named by any of `answers` (for labels that are unique in context).
fn answer_objects(answers: &[Answer]) -> Vec<ObjectId> {
    let mut v = Vec::new();
    let mut push = |id: ObjectId| {
        if !v.contains(&id) {
            v.push(id)
        }
    };
    for a in answers {
        match a {
            Answer::PlayLand(id)
            | Answer::Cast(id)
            | Answer::CastFaceDown(id)
            | Answer::TurnFaceUp(id)
            | Answer::Suspend(id) => push(*id),
            Answer::Activate { source, .. } | Answer::ActivateMana { source, .. } => push(*source),
            Answer::Target(Target::Object(id)) => push(*id),
            Answer::Objects(ids) => ids.iter().for_each(|i| push(*i)),
            Answer::Attack(at) => at.iter().for_each(|a| push(a.attacker)),
            Answer::Block(bl) => bl.iter().for_each(|b| {
                push(b.blocker);
                push(b.attacker)
            }),
            Answer::AssignDamage(v) => v.iter().for_each(|(t, _)| {
                if let Target::Object(id) = t {
                    push(*id)
                }
            }),
            _ => {}
        }
    }
    v
}

fn objects_phrase(game: &Game, viewer: PlayerId, ids: &[ObjectId], among: &[ObjectId]) -> String {
    ids.iter()
        .map(|id| object_label(game, viewer, *id, among))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The words for `answer` in the current decision of `viewer` (what [`parse_answers`]
/// understands).
pub fn describe(game: &Game, viewer: PlayerId, answer: &Answer) -> String {
    describe_among(game, viewer, answer, &game.legal_answers(viewer))
}

/// The mana abilities among `legal`, each with the words that name it ("Forest for G").
fn mana_choices(game: &Game, player: PlayerId, legal: &[Answer]) -> Vec<(String, Answer)> {
    legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Answer::ActivateMana { .. } | Answer::ActivateManaX { .. }
            )
        })
        .map(|a| {
            (
                describe_among(game, player, a, legal)
                    .trim_start_matches("tap ")
                    .to_string(),
                a.clone(),
            )
        })
        .collect()
}

/// [`describe`] with the legal answers already at hand (`legal` must be
/// `game.legal_answers(viewer)`).
pub fn describe_among(game: &Game, viewer: PlayerId, answer: &Answer, legal: &[Answer]) -> String {
    let among = answer_objects(legal);
    let decision = game.pending().map(|p| p.decision.clone());
    let abilities_of = |source: ObjectId| {
        game.def(source).map_or(0, |d| {
            d.abilities.iter().filter(|a| !a.is_mana_ability()).count()
        })
    };
    match answer {
        Answer::Keep => "keep".into(),
        Answer::Mulligan => "mulligan".into(),
        Answer::Pass => "pass".into(),
        Answer::Concede => "concede".into(),
        Answer::PlayLand(id) => format!("play {}", object_label(game, viewer, *id, &among)),
        Answer::Cast(id) if is_in_graveyard(game, *id) => {
            format!("flashback {}", object_label(game, viewer, *id, &among))
        }
        Answer::Cast(id) => format!("cast {}", object_label(game, viewer, *id, &among)),
        Answer::CastFaceDown(id) => {
            format!("cast {} face down", object_label(game, viewer, *id, &among))
        }
        Answer::TurnFaceUp(id) => {
            format!("turn {} face up", object_label(game, viewer, *id, &among))
        }
        Answer::Suspend(id) => format!("suspend {}", object_label(game, viewer, *id, &among)),
        Answer::CastSplit { card, half } => {
            let name = game
                .def(*card)
                .and_then(|d| d.split.as_ref())
                .map(|s| s.names[usize::from(*half).min(1)].clone())
                .unwrap_or_else(|| object_label(game, viewer, *card, &among));
            format!("cast {name}")
        }
        Answer::Scry { top, bottom } => {
            // The names the decision shows its player (library cards are hidden otherwise).
            let shown = |id: &ObjectId| match &decision {
                Some(Decision::Scry { cards, names, .. }) => cards
                    .iter()
                    .position(|c| c == id)
                    .and_then(|i| names.get(i).cloned())
                    .unwrap_or_else(|| game.seen_name(*id, Some(viewer))),
                _ => game.seen_name(*id, Some(viewer)),
            };
            let names =
                |v: &[ObjectId]| -> String { v.iter().map(shown).collect::<Vec<_>>().join(", ") };
            match (top.is_empty(), bottom.is_empty()) {
                (false, true) => format!("top {}", names(top)),
                (true, false) => format!("bottom {}", names(bottom)),
                (true, true) => "top".into(),
                (false, false) => format!("top {} bottom {}", names(top), names(bottom)),
            }
        }
        Answer::Activate { source, ability } => {
            let name = object_label(game, viewer, *source, &among);
            // Abilities that work from the hand say what they do: `cycle Street Wraith`,
            // `forecast Spirit en-Dal`, `transmute Tolaria West`.
            let in_hand = game
                .obj(*source)
                .is_some_and(|o| o.zone == engine::zones::ZoneKind::Hand);
            if let Some(a) = game.ability(*source, *ability).filter(|_| in_hand) {
                let verb = if a.cycling {
                    "cycle"
                } else if a.forecast {
                    "forecast"
                } else {
                    "transmute"
                };
                return format!("{verb} {name}");
            }
            if abilities_of(*source) > 1 {
                format!("activate {name} ability {}", ability + 1)
            } else {
                format!("activate {name}")
            }
        }
        Answer::ActivateMana {
            source,
            ability,
            color,
        } => {
            // Mana from identical sources is the same: said without their counts.
            let name = counted::split_count(&object_label(game, viewer, *source, &among)).0;
            // "Add three mana of any one color" (Lotus Bloom): `for RRR`.
            let times = match game
                .ability(*source, *ability)
                .and_then(|a| a.mana.as_ref())
            {
                Some(engine::cards::ManaProduce::AnyOneColor(n)) => (*n).max(1) as usize,
                _ => 1,
            };
            match color {
                Some(c) => format!(
                    "tap {name} for {}",
                    color_word(*c).to_string().repeat(times)
                ),
                None => format!("tap {name}"),
            }
        }
        Answer::ActivateManaX { source, colors, .. } => {
            let name = counted::split_count(&object_label(game, viewer, *source, &among)).0;
            let letters: String = colors.iter().map(|c| color_word(*c)).collect();
            format!("tap {name} for {letters}")
        }
        Answer::X(n) => format!("x {n}"),
        Answer::CostOption(i) => format!("choose {}", i + 1),
        Answer::Mode(i) => format!("mode {}", i + 1),
        Answer::Target(Target::Player(p)) => format!("target {}", player_label(game, viewer, *p)),
        Answer::Target(Target::Object(id)) => {
            format!("target {}", object_label(game, viewer, *id, &among))
        }
        Answer::Target(Target::Ability(s)) => format!(
            "target {}",
            abilities::ability_label(game, viewer, *s, &abilities::ability_serials(game, legal))
        ),
        Answer::Objects(ids) if matches!(decision, Some(Decision::PregameAction { .. })) => {
            pregame::describe(game, viewer, decision.as_ref(), ids, &among)
        }
        Answer::Objects(ids) => {
            let verb = match decision {
                Some(Decision::Discard { .. }) => "discard",
                Some(Decision::Sacrifice { .. } | Decision::SacrificeForDamage { .. }) => {
                    "sacrifice"
                }
                Some(Decision::Search { .. }) => "find",
                Some(Decision::ReturnToHand { .. }) => "return",
                Some(Decision::AuraSwap { .. }) => "swap for",
                Some(Decision::PutFromHand { .. }) => "put",
                Some(Decision::SeparatePiles { .. }) => "pile",
                Some(Decision::KeepLegend { .. }) => "keep",
                Some(Decision::OrderBlockers { .. }) => "order",
                Some(Decision::ChooseCopy { .. }) => "copy",
                _ => "choose",
            };
            if ids.is_empty() {
                "nothing".into()
            } else {
                format!("{verb} {}", objects_phrase(game, viewer, ids, &among))
            }
        }
        Answer::AutoPay => "pay".into(),
        Answer::Cancel => "cancel".into(),
        Answer::Attack(at) => {
            if at.is_empty() {
                return "no attack".into();
            }
            let all = legal
                .iter()
                .filter_map(|a| {
                    if let Answer::Attack(v) = a {
                        Some(v.len())
                    } else {
                        None
                    }
                })
                .max()
                .unwrap_or(0);
            let multi_def = game.opponents(viewer).len() > 1;
            if at.len() == all && at.len() > 1 && !multi_def {
                return "attack with all".into();
            }
            let parts: Vec<String> = at
                .iter()
                .map(|a| {
                    let n = object_label(game, viewer, a.attacker, &among);
                    if multi_def {
                        format!("{n} at {}", game.player(a.defender).name)
                    } else {
                        n
                    }
                })
                .collect();
            format!("attack with {}", parts.join(", "))
        }
        Answer::Block(bl) => {
            if bl.is_empty() {
                return "no blocks".into();
            }
            bl.iter()
                .map(|b| {
                    format!(
                        "block {} with {}",
                        object_label(game, viewer, b.attacker, &among),
                        object_label(game, viewer, b.blocker, &among)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
        Answer::AssignDamage(v) => {
            let parts: Vec<String> = v
                .iter()
                .map(|(t, n)| match t {
                    Target::Player(p) => format!("{n} to {}", player_label(game, viewer, *p)),
                    Target::Object(id) => {
                        format!("{n} to {}", object_label(game, viewer, *id, &among))
                    }
                    Target::Ability(_) => format!("{n} to {}", game.describe_target(*t)),
                })
                .collect();
            format!("assign {}", parts.join(", "))
        }
        Answer::PayToAvoid(i) => match game.delayed.get(usize::from(*i)) {
            Some(engine::triggers::DelayedTrigger {
                when: engine::triggers::DelayedWhen::NextDrawStepUnlessPaid { pay, .. },
                card,
                ..
            }) => format!("pay {{{pay}}} for {}", game.catalog().get(*card).name),
            _ => "pay".into(),
        },
        Answer::Yes => "yes".into(),
        Answer::No => "no".into(),
        Answer::CreatureType(t) => t.clone(),
        Answer::CardName(n) => format!("name {n}"),
        Answer::Order(v) => format!(
            "order {}",
            v.iter()
                .map(|i| (u32::from(*i) + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // An answer kind this front end does not know yet: its engine name.
        #[allow(unreachable_patterns)]
        other => other.kind_name().to_string(),
    }
}

/// What `player` may say now, one phrase per distinct legal answer (labels for buttons
/// and autocomplete; mana abilities at priority are left out unless `with_mana`).
pub fn options(game: &Game, player: PlayerId, with_mana: bool) -> Vec<String> {
    let legal = game.legal_answers(player);
    let decision = game.pending().map(|p| &p.decision);
    let is_priority = matches!(decision, Some(Decision::Priority));
    // Orders and damage assignments have a default (the first legal answer): `default`
    // accepts it (a button in the game's thread).
    let default = matches!(
        decision,
        Some(
            Decision::OrderBlockers { .. }
                | Decision::AssignCombatDamage { .. }
                | Decision::OrderTriggers { .. }
                | Decision::OrderReplacements { .. }
        )
    ) && !legal.is_empty();
    // Cards put back on top in any order (Sage of Epityr): every order of up to four cards.
    if let Some(orders) = scry::top_only_orders(game, player) {
        return orders;
    }
    uniq(
        default.then(|| DEFAULT.to_string()).into_iter().chain(
            legal
                .iter()
                .filter(|a| {
                    with_mana
                        || !is_priority
                        || !matches!(
                            a,
                            Answer::ActivateMana { .. } | Answer::ActivateManaX { .. }
                        )
                })
                .map(|a| describe_among(game, player, a, &legal)),
        ),
    )
}

/// What `/mtg play` offers while `partial` is typed: a command that needs a target,
/// completed with each of its targets (`cast Lightning Axe on Ashcoat Bear`, also once
/// `cast Lightning Axe on ash` is typed), then the phrases of [`options`] that contain the
/// words typed.
pub fn completions(game: &Game, player: PlayerId, partial: &str) -> Vec<String> {
    let typed = norm(partial);
    let all = options(game, player, true);
    let mut out = Vec::new();
    // The command typed so far and the target's words after `on` (if any).
    let (head, tail) = match [" on ", " targeting ", " target "]
        .iter()
        .filter_map(|w| typed.rfind(w).map(|i| (i, w.len())))
        .max()
    {
        Some((i, n)) => (typed[..i].to_string(), typed[i + n..].to_string()),
        None => (
            typed.strip_suffix(" on").unwrap_or(&typed).to_string(),
            String::new(),
        ),
    };
    // Said as the options say it (`cast Lightning Axe`), else as typed.
    let head = all
        .iter()
        .find(|o| norm(o) == head)
        .cloned()
        .unwrap_or(head);
    if !head.is_empty()
        && let Err(GrammarError::Needs { what, options, .. }) = parse_answers(game, player, &head)
        && what.starts_with("a target")
    {
        out.extend(
            options
                .iter()
                .filter(|o| norm(o).contains(&tail))
                .map(|o| format!("{head} on {o}")),
        );
    }
    out.extend(all.into_iter().filter(|o| norm(o).contains(&typed)));
    uniq(out.into_iter())
}

/// The phrase that accepts the default order or damage assignment.
pub const DEFAULT: &str = "default";

/// The commands that are fixed words (not game answers): `concede`, `undo`, `board`,
/// `help`, `stop ...`; None for anything else.
pub fn fixed_command(text: &str) -> Option<Command> {
    let t = norm(text);
    Some(match t.as_str() {
        "concede" | "i concede" | "resign" | "forfeit" | "gg" => Command::ConcedeAsk,
        "concede yes" | "yes concede" | "concede confirm" | "confirm concede" | "concede now"
        | "yes, concede" | "concede, yes" | "resign yes" | "forfeit yes" => Command::Concede,
        "undo" | "take back" | "undo please" => Command::Undo,
        "allow undo" | "accept undo" | "ok undo" => Command::AllowUndo(true),
        "deny undo" | "refuse undo" | "no undo" => Command::AllowUndo(false),
        "pass turn" | "pass until end of turn" | "pass to end of turn" | "f6" | "end turn" => {
            Command::PassTurn
        }
        "board" | "show" | "state" | "look" => Command::Board,
        "help" | "?" | "options" | "what can i do" => Command::Help,
        "stops" | "my stops" | "show stops" | "list stops" => Command::ListStops,
        "help stop" | "help stops" | "stop help" | "stops help" | "help step" | "help steps" => {
            Command::HelpStops
        }
        _ => {
            if let Some(rest) = strip_any(&t, &["card ", "show card ", "what is ", "what does "])
                && !rest.is_empty()
            {
                let rest = rest.strip_suffix(" do").unwrap_or(rest);
                return Some(Command::Card(rest.to_string()));
            }
            if let Some(rest) = t
                .strip_prefix("unstop ")
                .or_else(|| t.strip_prefix("no stop "))
            {
                return Some(Command::Stops(format!("-{rest}")));
            }
            let rest = t
                .strip_prefix("stops ")
                .or_else(|| t.strip_prefix("stop "))?;
            Command::Stops(rest.to_string())
        }
    })
}

/// `go to combat`, `combat`, `attack`, `attack with X` at priority in your precombat main
/// phase (or beginning of combat) with an empty stack; the names are checked against your
/// creatures before anything moves. None: not such words or not at priority.
fn combat_words(game: &Game, player: PlayerId, t: &str) -> Option<Result<Command, GrammarError>> {
    let pending = game.pending()?;
    if pending.player != player || !matches!(pending.decision, Decision::Priority) {
        return None;
    }
    let attack = match t {
        "go to combat" | "to combat" | "combat" | "move to combat" | "attack" | "go to attack" => {
            None
        }
        _ => Some(strip_any(t, &["attack with ", "attack "])?.to_string()),
    };
    let refuse = |m: &str| Some(Err(GrammarError::Refused(m.to_string())));
    if game.active != player {
        return refuse("you attack only in your own turn");
    }
    if !game.stack.is_empty() {
        return refuse(
            "the stack must be empty before you move to combat: pass to let it resolve, or respond",
        );
    }
    if !matches!(
        game.step,
        engine::Step::PrecombatMain | engine::Step::BeginCombat
    ) {
        return refuse(
            if matches!(
                game.step,
                engine::Step::Untap | engine::Step::Upkeep | engine::Step::Draw
            ) {
                "your main phase comes first: pass until it, then move to combat"
            } else {
                "combat is over for this turn"
            },
        );
    }
    if let Some(words) = &attack
        && !matches!(
            words.as_str(),
            "all" | "everything" | "everyone" | "all creatures"
        )
    {
        let mine: Vec<ObjectId> = game
            .battlefield
            .iter()
            .copied()
            .filter(|id| {
                game.obj(*id)
                    .is_some_and(|o| o.controller == player && !o.tapped)
                    && game.is_creature(*id)
            })
            .collect();
        let cands: Vec<(String, ObjectId)> = object_labels(game, player, &mine)
            .into_iter()
            .zip(mine.iter().copied())
            .collect();
        for part in split_list(words) {
            let who = part.rsplit_once(" at ").map_or(part.as_str(), |x| x.0);
            if let Err(e) = pick_in(game, player, who, &cands, "untapped creature of yours") {
                return Some(Err(e));
            }
        }
    }
    Some(Ok(Command::ToCombat(attack)))
}

/// Parses a line into a [`Command`] for `player` (answers are checked on a copy of `game`).
pub fn parse_command(game: &Game, player: PlayerId, text: &str) -> Result<Command, GrammarError> {
    if norm(text).is_empty() {
        return Err(GrammarError::Empty);
    }
    if let Some(c) = fixed_command(text) {
        return Ok(c);
    }
    if let Some(c) = combat_words(game, player, &norm(text)) {
        return c;
    }
    parse_answers(game, player, text).map(Command::Answers)
}

/// `cast X face down`, `cast face down X`, `morph X`: the card's words.
fn face_down_words(t: &str) -> Option<&str> {
    if let Some(r) = strip_any(t, &["cast face down ", "morph ", "play face down "]) {
        return Some(r);
    }
    ["cast ", "play "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .and_then(|r| r.strip_suffix(" face down"))
}

/// `turn X face up`, `turn face up X`, `turn up X`, `unmorph X` (and alone, for the only
/// one): the permanent's words.
/// Why `suspend NAME` can't be done now, in player words: the engine's own reason for the
/// named card in hand, or that nothing in hand can be suspended.
fn suspend_refusal(game: &Game, player: PlayerId, name: &str) -> String {
    let hand = &game.player(player).hand;
    let named = hand.iter().find(|id| {
        game.def(**id)
            .is_some_and(|d| !name.is_empty() && d.name.to_lowercase().starts_with(name))
    });
    if let Some(&id) = named {
        let mut probe = game.clone();
        if let Err(e) = probe.submit(player, Answer::Suspend(id)) {
            return e.to_string();
        }
    }
    if hand
        .iter()
        .any(|id| game.def(*id).is_some_and(|d| d.suspend.is_some()))
    {
        "you can't suspend a card now (suspending needs the timing you could cast it with, and its suspend cost)".into()
    } else {
        "no card in your hand has suspend".into()
    }
}

/// `turn X face up`, `turn face up X`, `unmorph X`: X with any clauses that follow
/// (`turn X face up discarding Y` gives `X discarding Y`).
fn face_up_words(t: &str) -> Option<String> {
    if let Some(r) = strip_any(t, &["turn face up ", "turn up ", "unmorph ", "flip up "]) {
        return Some(r.to_string());
    }
    let r = t.strip_prefix("turn ")?;
    let padded = format!("{r} ");
    let at = padded.find(" face up ")?;
    Some(
        format!("{}{}", &r[..at], &padded[at + " face up".len()..])
            .trim_end()
            .to_string(),
    )
}

fn strip_any<'a>(t: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes.iter().find_map(|p| {
        if t == p.trim_end() {
            Some("")
        } else {
            t.strip_prefix(p)
        }
    })
}

/// Cuts a list of names at commas, `and` and `&`, keeping whole the card names that hold
/// a separator themselves (`Dralnu, Lich Lord, Island` is two names, `Life and Limb` one).
fn split_list(s: &str) -> Vec<String> {
    rejoin_names(cut_list(s))
}

/// `s` cut at its commas only (`block A with B, block C with D`), names with commas kept.
fn split_commas(s: &str) -> Vec<String> {
    rejoin_names(
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect(),
    )
}

/// Joins back the pieces that a cut made of a card name holding a separator.
fn rejoin_names(pieces: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(pieces.len());
    let mut i = 0;
    while i < pieces.len() {
        match joined_name_at(&pieces[i..]) {
            Some((n, whole)) => {
                out.push(whole);
                i += n;
            }
            None => {
                out.push(pieces[i].clone());
                i += 1;
            }
        }
    }
    out
}

fn cut_list(s: &str) -> Vec<String> {
    s.replace(" and ", ",")
        .replace('&', ",")
        .split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// The card names with a list separator inside, each as the pieces [`cut_list`] cuts it
/// into (in [`norm`]'s lower case) and the whole name.
fn names_with_separators() -> &'static [(Vec<String>, String)] {
    static NAMES: std::sync::OnceLock<Vec<(Vec<String>, String)>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        engine::Catalog::builtin()
            .cards()
            .iter()
            .map(|d| norm(&d.name))
            .filter_map(|n| {
                let parts = cut_list(&n);
                (parts.len() > 1).then_some((parts, n))
            })
            .collect()
    })
}

/// When `pieces` begin with a name that the cut split (the first piece ending with its
/// first part, as in `my dralnu` + `lich lord (bob's)`), how many pieces it takes and the
/// pieces joined back into one.
fn joined_name_at(pieces: &[String]) -> Option<(usize, String)> {
    names_with_separators().iter().find_map(|(parts, whole)| {
        let n = parts.len();
        if pieces.len() < n {
            return None;
        }
        let first = pieces[0].to_lowercase();
        let head = first.strip_suffix(parts[0].as_str())?;
        if !(head.is_empty() || head.ends_with(' ')) {
            return None;
        }
        let middle_fits = (1..n - 1).all(|k| pieces[k].to_lowercase() == parts[k]);
        let last = pieces[n - 1].to_lowercase();
        let tail = last.strip_prefix(parts[n - 1].as_str())?;
        if !middle_fits || !(tail.is_empty() || tail.starts_with(' ')) {
            return None;
        }
        Some((n, format!("{head}{whole}{tail}")))
    })
}

/// Parses `text` into the answers it stands for, checked on a copy of `game`.
pub fn parse_answers(
    game: &Game,
    player: PlayerId,
    text: &str,
) -> Result<Vec<Answer>, GrammarError> {
    let t = norm(text);
    if t.is_empty() {
        return Err(GrammarError::Empty);
    }
    let pending = game.pending().cloned().ok_or(GrammarError::NoDecision)?;
    if game.result.is_some() {
        return Err(GrammarError::NoDecision);
    }
    if pending.player != player {
        return Err(GrammarError::NotYourDecision(format!(
            "waiting for {} to {}",
            game.player(pending.player).name,
            pending.decision.describe()
        )));
    }
    let legal = game.legal_answers(player);
    if !matches!(pending.decision, Decision::Priority)
        && let Some(r) = strip_any(&t, &["cast ", "play ", "activate ", "flashback "])
        && !r.is_empty()
    {
        // A name no card has is said first: "not now" alone would suggest it works later.
        let cat = game.catalog();
        let unknown = cat.by_name(r).is_none()
            && !cat
                .suggest(r, 1)
                .iter()
                .any(|d| norm(&d.name).starts_with(r));
        let no_such = if unknown {
            format!("there is no card called `{}`; and ", short(r))
        } else {
            String::new()
        };
        return Err(GrammarError::Refused(format!(
            "{no_such}not now: first {} (spells and abilities wait until you have priority)",
            pending.decision.describe()
        )));
    }
    let unknown = |hint: String| GrammarError::Unknown {
        said: text.trim().to_string(),
        hint,
    };
    let opts = || options(game, player, false).join(", ");
    let is_no = |t: &str| {
        matches!(
            t,
            "pass" | "p" | "no" | "n" | "ok" | "done" | "none" | "nothing" | "skip" | "go"
        )
    };

    let first: Answer = match &pending.decision {
        Decision::Mulligan { .. } => match t.as_str() {
            "keep" | "yes" | "y" | "k" | "keep hand" => Answer::Keep,
            "mulligan" | "mull" | "no" | "n" | "m" | "mulligan hand" => Answer::Mulligan,
            _ => return Err(unknown("say `keep` or `mulligan`".into())),
        },
        Decision::Priority => {
            if is_no(&t) {
                Answer::Pass
            } else {
                return priority_words(game, player, &t, text, &legal);
            }
        }
        Decision::ChooseX => {
            let n = t
                .trim_start_matches("x")
                .trim_start_matches(['=', ' '])
                .trim();
            match n.parse::<u32>() {
                Ok(n) => Answer::X(n),
                Err(_) if t == "cancel" => Answer::Cancel,
                Err(_) => return Err(unknown("say `x 3` (a number for X) or `cancel`".into())),
            }
        }
        Decision::ChooseMode { options: names } => {
            if t == "cancel" {
                Answer::Cancel
            } else {
                let rest = strip_any(&t, &["mode ", "choose ", "option "]).unwrap_or(&t);
                match rest.parse::<u8>() {
                    Ok(n) if n >= 1 && (n as usize) <= names.len() => Answer::Mode(n - 1),
                    _ => {
                        let c: Vec<(String, Answer)> = names
                            .iter()
                            .enumerate()
                            .map(|(i, n)| (n.clone(), Answer::Mode(i as u8)))
                            .collect();
                        pick_or(rest, &c, "mode")?
                    }
                }
            }
        }
        Decision::ChooseCostOption { options: names, .. } => {
            if t == "cancel" {
                Answer::Cancel
            } else {
                let rest = strip_any(&t, &["choose ", "option "]).unwrap_or(&t);
                match rest.parse::<u8>() {
                    Ok(n) if n >= 1 && (n as usize) <= names.len() => Answer::CostOption(n - 1),
                    _ => {
                        let c: Vec<(String, Answer)> = names
                            .iter()
                            .enumerate()
                            .map(|(i, n)| (n.clone(), Answer::CostOption(i as u8)))
                            .collect();
                        pick_or(rest, &c, "cost option")?
                    }
                }
            }
        }
        Decision::EnchantAsItEnters { .. } => {
            let rest = strip_any(&t, &["enchant ", "target ", "on ", "attach to "]).unwrap_or(&t);
            pick_in(
                game,
                player,
                rest,
                &target_cands(game, player, &legal),
                "permanent or player to enchant",
            )?
        }
        Decision::ChooseTarget { .. } => {
            if t == "cancel" {
                Answer::Cancel
            } else if says_no_target(&t) && legal.contains(&Answer::Objects(Vec::new())) {
                // "Up to one target": choosing none.
                Answer::Objects(Vec::new())
            } else {
                let rest = strip_any(&t, &["target ", "on ", "at "]).unwrap_or(&t);
                pick_in(
                    game,
                    player,
                    rest,
                    &target_cands(game, player, &legal),
                    "target",
                )?
            }
        }
        Decision::PayMana { .. } => {
            if matches!(t.as_str(), "pay" | "autopay" | "auto" | "yes" | "y" | "ok") {
                Answer::AutoPay
            } else if t == "cancel" {
                Answer::Cancel
            } else if let Some(rest) = strip_any(&t, &["tap "]) {
                mana_pick(game, player, rest, &legal, "mana source")?
            } else {
                return Err(unknown(
                    "say `pay` (automatic), `tap Forest for G` or `cancel`".into(),
                ));
            }
        }
        Decision::DivideDamage { .. } => {
            if t == "cancel" && legal.contains(&Answer::Cancel) {
                Answer::Cancel
            } else {
                let rest = strip_any(&t, &["assign ", "divide ", "deal "]).unwrap_or(&t);
                Answer::AssignDamage(damage_from(game, player, rest, &legal)?)
            }
        }
        Decision::ChooseCostObjects { .. }
        | Decision::SacrificeForDamage { .. }
        | Decision::Discard { .. }
        | Decision::Sacrifice { .. }
        | Decision::ReturnToHand { .. }
        | Decision::Search { .. }
        | Decision::KeepLegend { .. }
        | Decision::Reveal { .. }
        | Decision::Dredge { .. }
        | Decision::AuraSwap { .. }
        | Decision::PutFromHand { .. }
        | Decision::SeparatePiles { .. }
        | Decision::ChooseCopy { .. } => {
            if matches!(pending.decision, Decision::Dredge { .. })
                && matches!(
                    t.as_str(),
                    "draw" | "no" | "n" | "nothing" | "none" | "don't"
                )
            {
                Answer::Objects(Vec::new())
            } else if t == "cancel" && legal.contains(&Answer::Cancel) {
                Answer::Cancel
            } else if matches!(
                t.as_str(),
                "nothing" | "none" | "no" | "itself" | "as itself"
            ) && legal.contains(&Answer::Objects(Vec::new()))
            {
                Answer::Objects(Vec::new())
            } else {
                let rest = strip_any(
                    &t,
                    &[
                        "choose ",
                        "discard ",
                        "discarding ",
                        "sacrifice ",
                        "sacrificing ",
                        "return ",
                        "find ",
                        "search ",
                        "search for ",
                        "keep ",
                        "exile ",
                        "copy ",
                        "reveal ",
                        "dredge ",
                        "swap for ",
                        "swap ",
                        "put ",
                        "first pile ",
                        "pile ",
                        "exchange for ",
                        "exchange with ",
                    ],
                )
                .unwrap_or(&t);
                Answer::Objects(
                    objects_from(game, player, rest, &legal).map_err(|e| {
                        needs_objects(game, player, &pending.decision, text, &legal, e)
                    })?,
                )
            }
        }
        Decision::DeclareAttackers => {
            if is_no(&t) || matches!(t.as_str(), "no attack" | "no attacks" | "don't attack") {
                Answer::Attack(Vec::new())
            } else {
                let rest = strip_any(&t, &["attack with ", "attack "])
                    .ok_or_else(|| unknown(format!("you may say: {}", opts())))?;
                Answer::Attack(attack_from(game, player, rest, &legal)?)
            }
        }
        Decision::DeclareBlockers => {
            if is_no(&t) || matches!(t.as_str(), "no blocks" | "no block" | "don't block") {
                Answer::Block(Vec::new())
            } else {
                Answer::Block(blocks_from(game, player, &t, &legal)?)
            }
        }
        Decision::OrderBlockers { .. } => {
            if is_no(&t) || matches!(t.as_str(), "default" | "any" | "keep order") {
                legal
                    .first()
                    .cloned()
                    .ok_or_else(|| unknown("there is nothing to order".into()))?
            } else {
                let rest = strip_any(&t, &["order "]).unwrap_or(&t);
                Answer::Objects(objects_from(game, player, rest, &legal)?)
            }
        }
        Decision::AssignCombatDamage { .. } => {
            if is_no(&t) || matches!(t.as_str(), "default" | "auto" | "assign") {
                legal
                    .first()
                    .cloned()
                    .ok_or_else(|| unknown("there is no damage to assign".into()))?
            } else {
                let rest = strip_any(&t, &["assign "]).unwrap_or(&t);
                Answer::AssignDamage(damage_from(game, player, rest, &legal)?)
            }
        }
        Decision::Scry {
            cards,
            names,
            top_only,
            ..
        } => scry_answer(game, player, &t, cards, names, *top_only)?,
        Decision::PregameAction { name, .. } => pregame::parse(game, player, &t, name, &legal)?,
        Decision::YesNo { .. } => match t.as_str() {
            "yes" | "y" | "ok" | "do it" => Answer::Yes,
            "no" | "n" | "pass" | "skip" | "don't" => Answer::No,
            // A question asked while a spell is being cast (kicker, buyback...) can still
            // take the whole cast back.
            "cancel" if legal.contains(&Answer::Cancel) => Answer::Cancel,
            _ if legal.contains(&Answer::Cancel) => {
                return Err(unknown("say `yes`, `no` or `cancel`".into()));
            }
            _ => return Err(unknown("say `yes` or `no`".into())),
        },
        Decision::ChooseCreatureType { .. } => {
            let rest = strip_any(&t, &["choose ", "type "]).unwrap_or(&t).trim();
            match game.catalog().creature_type(rest) {
                Some(ct) => Answer::CreatureType(ct.to_string()),
                None => {
                    let near: Vec<&str> = game
                        .catalog()
                        .creature_types()
                        .iter()
                        .filter(|c| {
                            let c = c.to_lowercase();
                            !rest.is_empty() && (c.starts_with(rest) || c.contains(rest))
                        })
                        .take(5)
                        .map(String::as_str)
                        .collect();
                    return Err(unknown(if near.is_empty() {
                        format!("`{rest}` is not a creature type (for example Goblin, Elf, Sliver)")
                    } else {
                        format!(
                            "`{rest}` is not a creature type; did you mean {}?",
                            near.join(", ")
                        )
                    }));
                }
            }
        }
        Decision::NameCard { .. } => {
            let rest = strip_any(&t, &["name ", "choose "]).unwrap_or(&t).trim();
            match game.catalog().card_name(rest) {
                Some(n) => Answer::CardName(n.to_string()),
                None => {
                    let near: Vec<String> = game
                        .catalog()
                        .suggest(rest, 5)
                        .iter()
                        .map(|d| d.name.clone())
                        .collect();
                    return Err(unknown(if near.is_empty() || rest.is_empty() {
                        "say the name of a card (for example `name Lightning Axe`)".to_string()
                    } else {
                        format!(
                            "`{rest}` is not the name of a card; did you mean {}?",
                            near.join(", ")
                        )
                    }));
                }
            }
        }
        Decision::OrderTriggers { descriptions }
        | Decision::OrderReplacements { descriptions, .. } => {
            if is_no(&t) || matches!(t.as_str(), "default" | "any" | "keep order") {
                legal
                    .first()
                    .cloned()
                    .ok_or_else(|| unknown("there is nothing to order".into()))?
            } else if matches!(t.as_str(), "reverse" | "reversed" | "reverse order") {
                Answer::Order((0..descriptions.len() as u8).rev().collect())
            } else {
                let rest = strip_any(&t, &["order "]).unwrap_or(&t);
                let mut order = Vec::new();
                for w in rest.split([',', ' ']).filter(|w| !w.is_empty()) {
                    match w.parse::<u8>() {
                        Ok(n) if n >= 1 && usize::from(n) <= descriptions.len() => {
                            order.push(n - 1)
                        }
                        _ => {
                            return Err(unknown(format!(
                                "say `default`, `reverse` or the order of the {} abilities or effects as numbers, e.g. `order {}`",
                                descriptions.len(),
                                (1..=descriptions.len())
                                    .rev()
                                    .map(|i| i.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )));
                        }
                    }
                }
                Answer::Order(order)
            }
        }
        // A decision this front end does not know yet: the words of one of its answers.
        #[allow(unreachable_patterns)]
        _ => {
            let c: Vec<(String, Answer)> = legal
                .iter()
                .map(|a| (describe_among(game, player, a, &legal), a.clone()))
                .collect();
            pick_or(&t, &c, "answer")?
        }
    };
    let mut probe = game.clone();
    probe
        .submit(player, first.clone())
        .map_err(|e| GrammarError::Refused(e.to_string()))?;
    Ok(vec![first])
}

/// Words at priority other than `pass`: play, cast, activate, tap for mana, a special
/// action, or a bare card name; a refusal says why in player words.
fn priority_words(
    game: &Game,
    player: PlayerId,
    t: &str,
    text: &str,
    legal: &[Answer],
) -> Result<Vec<Answer>, GrammarError> {
    let among = answer_objects(legal);
    let labeled = |f: &dyn Fn(&Answer) -> Option<ObjectId>| -> Vec<(String, Answer)> {
        legal
            .iter()
            .filter_map(|a| f(a).map(|id| (object_label(game, player, id, &among), a.clone())))
            .collect()
    };
    let unknown = |hint: String| GrammarError::Unknown {
        said: text.trim().to_string(),
        hint,
    };
    let opts = || options(game, player, false).join(", ");
    if t == "pay" || t.starts_with("pay ") {
        // A special action: pay what a delayed ability asks (Glass Asp).
        let c: Vec<(String, Answer)> = legal
            .iter()
            .filter(|a| matches!(a, Answer::PayToAvoid(_)))
            .map(|a| (describe_among(game, player, a, legal), a.clone()))
            .collect();
        if c.is_empty() {
            return Err(GrammarError::Refused(
                "there is nothing you can pay for now".into(),
            ));
        }
        if t == "pay" && c.len() == 1 {
            return Ok(vec![c[0].1.clone()]);
        }
        return pick_or(t, &c, "payment").map(|a| vec![a]);
    } else if let Some(rest) = face_down_words(t) {
        // Morph: `cast X face down`, `cast face down X`, `morph X`.
        let c = labeled(&|a| match a {
            Answer::CastFaceDown(id) => Some(*id),
            _ => None,
        });
        return cast_sequence(game, player, rest, &c, "card you can cast face down");
    } else if let Some(rest) = face_up_words(t).as_deref() {
        // The special action: `turn X face up`, `turn face up X`, `unmorph X`.
        let c = labeled(&|a| match a {
            Answer::TurnFaceUp(id) => Some(*id),
            _ => None,
        });
        if c.is_empty() {
            return Err(GrammarError::Refused(
                "you control no face-down permanent you can turn face up now".into(),
            ));
        }
        if rest.is_empty() && c.len() == 1 {
            return cast_sequence(game, player, &c[0].0.clone(), &c, "face-down permanent");
        }
        return cast_sequence(
            game,
            player,
            rest,
            &c,
            "face-down permanent you can turn face up",
        );
    } else if let Some(rest) = strip_any(t, &["suspend "]) {
        // Suspend (502.59a / 702.61a): the special action from your hand, then its cost
        // (`suspend Rift Bolt`).
        let c = labeled(&|a| match a {
            Answer::Suspend(id) => Some(*id),
            _ => None,
        });
        if c.is_empty() {
            return Err(GrammarError::Refused(suspend_refusal(game, player, rest)));
        }
        return cast_sequence(game, player, rest, &c, "card you can suspend now");
    } else if let Some((verb, rest)) = ["cycle ", "forecast ", "transmute "]
        .iter()
        .find_map(|v| strip_any(t, &[v]).map(|r| (v.trim(), r)))
    {
        // Abilities that work from the hand (cycling 502.18 / 702.28, forecast, transmute):
        // `cycle Street Wraith`.
        let c = labeled(&|a| match a {
            Answer::Activate { source, ability } => {
                let in_hand = game
                    .obj(*source)
                    .is_some_and(|o| o.zone == engine::zones::ZoneKind::Hand);
                let ab = game.ability(*source, *ability).filter(|_| in_hand)?;
                let kind = if ab.cycling {
                    "cycle"
                } else if ab.forecast {
                    "forecast"
                } else {
                    "transmute"
                };
                (kind == verb).then_some(*source)
            }
            _ => None,
        });
        if c.is_empty() {
            return Err(GrammarError::Refused(format!(
                "you have no card in hand you can {verb} now"
            )));
        }
        return cast_sequence(game, player, rest, &c, &format!("card you can {verb} now"));
    } else if let Some(rest) = strip_any(t, &["play "]) {
        let lands = labeled(&|a| match a {
            Answer::PlayLand(id) => Some(*id),
            _ => None,
        });
        let casts = labeled(&|a| match a {
            Answer::Cast(id) if !is_in_graveyard(game, *id) => Some(*id),
            _ => None,
        });
        if matches!(rest, "land" | "a land" | "my land" | "") && !lands.is_empty() {
            // `play land`: the only land you can play (one name), else say which.
            let names = uniq(lands.iter().map(|c| c.0.clone()));
            if names.len() == 1 {
                return Ok(vec![lands[0].1.clone()]);
            }
            return Err(GrammarError::Ambiguous {
                said: text.trim().into(),
                options: names.into_iter().map(|n| format!("play {n}")).collect(),
            });
        }
        // `play` a spell is casting it.
        if !casts.is_empty() && pick_in(game, player, &split_clauses(rest).0, &casts, "").is_ok() {
            return cast_sequence(game, player, rest, &casts, "spell you can cast");
        }
        if lands.is_empty() {
            return Err(why_not(game, player, rest, Verb::Play)
                .unwrap_or_else(|| GrammarError::Refused(land_refusal(game, player))));
        }
        return pick_in(game, player, rest, &lands, "land you can play")
            .map(|a| vec![a])
            .map_err(|e| why_not(game, player, rest, Verb::Play).unwrap_or(e));
    } else if let Some(rest) = strip_any(t, &["flashback ", "cast flashback "]) {
        // Flashback: a card in your graveyard (`flashback Ancient Grudge`).
        let c = labeled(&|a| match a {
            Answer::Cast(id) if is_in_graveyard(game, *id) => Some(*id),
            _ => None,
        });
        return cast_sequence(
            game,
            player,
            rest,
            &c,
            "card in your graveyard you can cast with flashback",
        );
    } else if let Some(rest) = strip_any(t, &["cast "]) {
        let mut c = labeled(&|a| match a {
            Answer::Cast(id) => Some(*id),
            _ => None,
        });
        // A split card's halves by their own names (`cast Boom`, `cast Bust`).
        c.extend(
            legal
                .iter()
                .filter(|a| matches!(a, Answer::CastSplit { .. }))
                .map(|a| {
                    (
                        describe_among(game, player, a, legal)
                            .trim_start_matches("cast ")
                            .to_string(),
                        a.clone(),
                    )
                }),
        );
        return cast_sequence(game, player, rest, &c, "spell you can cast").map_err(|e| match e {
            GrammarError::NoMatch { .. } | GrammarError::Refused(_)
                if !names_a_candidate(game, player, rest, &c) =>
            {
                why_not(game, player, rest, Verb::Cast).unwrap_or(e)
            }
            e => e,
        });
    } else if let Some(rest) = strip_any(t, &["activate ", "use "]) {
        let c: Vec<(String, Answer)> = legal
            .iter()
            .filter_map(|a| match a {
                Answer::Activate { .. } => Some((
                    describe_among(game, player, a, legal)
                        .trim_start_matches("activate ")
                        .to_string(),
                    a.clone(),
                )),
                _ => None,
            })
            .collect();
        return cast_sequence(game, player, rest, &c, "ability you can activate");
    } else if let Some(rest) = strip_any(t, &["tap ", "mana "]) {
        return mana_pick(game, player, rest, legal, "mana source you can tap").map(|a| vec![a]);
    }
    // A bare card name: play it if it is a land, cast it otherwise.
    let c: Vec<(String, Answer)> = labeled(&|a| match a {
        Answer::PlayLand(id) | Answer::Cast(id) => Some(*id),
        _ => None,
    });
    match pick_in(game, player, &split_clauses(t).0, &c, "card") {
        Ok(Answer::PlayLand(id)) => Ok(vec![Answer::PlayLand(id)]),
        Ok(_) => cast_sequence(game, player, t, &c, "card"),
        Err(_) => Err(why_not(game, player, t, Verb::Bare)
            .unwrap_or_else(|| unknown(format!("you may say: {}", opts())))),
    }
}

/// A mana ability by the words `Forest`, `Forest for G`, `Gemstone Mine for red`,
/// `Mountain for mana` (the colour only where the source has a choice).
fn mana_pick(
    game: &Game,
    player: PlayerId,
    rest: &str,
    legal: &[Answer],
    what: &str,
) -> Result<Answer, GrammarError> {
    let mut rest = rest.strip_suffix(" for mana").unwrap_or(rest).to_string();
    for (w, l) in [
        ("white", "w"),
        ("blue", "u"),
        ("black", "b"),
        ("red", "r"),
        ("green", "g"),
    ] {
        if let Some(r) = rest.strip_suffix(&format!(" for {w}")) {
            rest = format!("{r} for {l}");
        }
    }
    if let Some(a) = mana_x_pick(game, player, &rest, legal)? {
        return Ok(a);
    }
    let c = mana_choices(game, player, legal);
    if let Ok(a) = pick(&rest, &c) {
        return Ok(a);
    }
    // `Lotus Bloom for R` also names `Lotus Bloom for RRR` (one colour, several mana).
    let collapsed: Vec<(String, Answer)> = c
        .iter()
        .filter_map(|(l, a)| {
            let (n, letters) = l.rsplit_once(" for ")?;
            let first = letters.chars().next()?;
            (letters.chars().count() > 1 && letters.chars().all(|x| x == first))
                .then(|| (format!("{n} for {first}"), a.clone()))
        })
        .collect();
    if let Ok(a) = pick(&rest, &collapsed) {
        return Ok(a);
    }
    let names: Vec<(String, Answer)> = c
        .iter()
        .map(|(l, a)| (l.split(" for ").next().unwrap_or(l).to_string(), a.clone()))
        .collect();
    let (name, asked) = match rest.rsplit_once(" for ") {
        Some((n, l)) => (n, Some(l)),
        None => (rest.as_str(), None),
    };
    let picked = pick_in(game, player, name, &names, what)?;
    // `Forest for R`: a colour the source can't make is refused, not silently replaced.
    if let (
        Some(letters),
        Answer::ActivateMana {
            source, ability, ..
        },
    ) = (asked, &picked)
        && let Some(asked) = letters.chars().next().and_then(Color::from_letter)
        && letters.chars().count() == 1
        && let Some(engine::cards::ManaProduce::Fixed(types)) = game
            .ability(*source, *ability)
            .and_then(|a| a.mana.as_ref())
        && !types.contains(&engine::mana::ManaType::Colored(asked))
    {
        let makes: String = types.iter().map(|t| t.to_string()).collect();
        return Err(GrammarError::Refused(format!(
            "{} makes {makes}, not {{{}}}",
            game.seen_name(*source, Some(player)),
            asked.letter()
        )));
    }
    Ok(picked)
}

/// A storage land's X mana by its letters (`Calciform Pools for UUU`, A21): X is the
/// number of letters, any X its counters allow (the legal answers list only the small ones).
/// None when `rest` does not name such a source with colour letters.
fn mana_x_pick(
    game: &Game,
    player: PlayerId,
    rest: &str,
    legal: &[Answer],
) -> Result<Option<Answer>, GrammarError> {
    let Some((name, letters)) = rest.rsplit_once(" for ") else {
        return Ok(None);
    };
    let colors: Option<Vec<Color>> = letters
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '{' && *c != '}')
        .map(|c| Color::from_letter(c.to_ascii_uppercase()))
        .collect();
    let Some(colors) = colors.filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    // Every X-mana source the player controls, listed now or not (its cost may need mana
    // first: the engine's refusal says so).
    let ids: Vec<ObjectId> = game.battlefield_of(player).map(|o| o.id).collect();
    let mut sources: Vec<(String, (ObjectId, u8))> = Vec::new();
    for id in &ids {
        for (i, a) in game.abilities_of(*id) {
            if matches!(a.mana, Some(engine::cards::ManaProduce::XCombination(_))) {
                sources.push((object_label(game, player, *id, &ids), (*id, i)));
            }
        }
    }
    let Ok((source, ability)) = pick(name, &sources) else {
        return Ok(None);
    };
    let answer = Answer::ActivateManaX {
        source,
        ability,
        colors,
    };
    if !legal.contains(&answer) {
        game.clone()
            .submit(player, answer.clone())
            .map_err(|e| GrammarError::Refused(e.to_string()))?;
    }
    Ok(Some(answer))
}

/// Scry's and fateseal's words (701.18 / 701.19): `top A, B bottom C` (the first named on
/// top; the last named at the bottom), `bottom all`, `top` (all where they are, in order).
/// Every card looked at must be placed once.
fn scry_answer(
    game: &Game,
    player: PlayerId,
    t: &str,
    cards: &[ObjectId],
    names: &[String],
    top_only: bool,
) -> Result<Answer, GrammarError> {
    if top_only {
        return scry::top_only_answer(game, player, t, cards, names);
    }
    let hint = || {
        GrammarError::Unknown {
        said: t.to_string(),
        hint: "say where each card goes: `top A, B bottom C`, `top` (all on top in this order) or `bottom all`".into(),
    }
    };
    match t {
        "top" | "keep" | "top all" | "all top" | "all on top" => {
            return Ok(Answer::Scry {
                top: cards.to_vec(),
                bottom: Vec::new(),
            });
        }
        "bottom" | "bottom all" | "all bottom" | "all on the bottom" => {
            return Ok(Answer::Scry {
                top: Vec::new(),
                bottom: cards.to_vec(),
            });
        }
        _ => {}
    }
    let (top_part, bottom_part) = match t.split_once("bottom") {
        Some((a, b)) => (a, b),
        None => (t, ""),
    };
    let top_part = top_part
        .trim()
        .strip_prefix("top")
        .unwrap_or(top_part)
        .trim();
    let labels = names.to_vec();
    let mut cands: Vec<(String, ObjectId)> =
        labels.into_iter().zip(cards.iter().copied()).collect();
    let mut take = |part: &str| -> Result<Vec<ObjectId>, GrammarError> {
        let mut out = Vec::new();
        for name in split_list(part) {
            let id = pick_in(game, player, &name, &cands, "card you are looking at")?;
            out.push(id);
            if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
                cands.remove(i);
            }
        }
        Ok(out)
    };
    let top = take(top_part)?;
    let bottom = take(bottom_part.trim())?;
    if top.len() + bottom.len() != cards.len() {
        return Err(hint());
    }
    Ok(Answer::Scry { top, bottom })
}

/// How a refused card was named.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Play,
    Cast,
    Bare,
}

/// Whether `text`'s name part names one of `cands`.
fn names_a_candidate(
    game: &Game,
    player: PlayerId,
    text: &str,
    cands: &[(String, Answer)],
) -> bool {
    !cands.is_empty() && pick_in(game, player, &split_clauses(text).0, cands, "").is_ok()
}

/// Why the card `text` names can't be played or cast now, in player words: not a card of
/// the block, not playable yet, not in your hand (and where it is), or the engine's reason
/// for a card in your hand (timing, no legal target, mana: with what is missing). None
/// when `text` names no card at all (a bare word that is no card: not understood).
fn why_not(game: &Game, player: PlayerId, text: &str, verb: Verb) -> Option<GrammarError> {
    let (name, _) = split_clauses(text);
    let (_, name) = qualifiers(game, player, &name);
    if name.is_empty() {
        return None;
    }
    let refused = |m: String| Some(GrammarError::Refused(m));
    // A card in your hand: the engine says why it can't be cast or played.
    let hand: Vec<(String, ObjectId)> = game
        .player(player)
        .hand
        .iter()
        .map(|id| (game.seen_name(*id, Some(player)), *id))
        .collect();
    if let Ok(id) = pick(&name, &hand) {
        let card = game.card_name(id).to_string();
        let is_land = game
            .def(id)
            .is_some_and(|d| d.has_type(engine::cards::CardType::Land));
        if is_land {
            return refused(format!(
                "you can't play {card} now: {}",
                land_refusal(game, player)
            ));
        }
        let mut probe = game.clone();
        return match probe.submit(player, Answer::Cast(id)) {
            Err(e) => {
                let e = e.to_string();
                let short = if e.contains("can't pay") {
                    game.def(id)
                        .and_then(|d| d.mana_cost.as_ref())
                        .map(|c| format!(" ({})", mana_shortfall(game, player, &c.to_payable(0))))
                        .unwrap_or_default()
                } else {
                    String::new()
                };
                refused(format!("you can't cast {card} now: {e}{short}"))
            }
            Ok(_) => None,
        };
    }
    let cat = game.catalog();
    let def = cat.by_name(&name).or_else(|| {
        cat.suggest(&name, 1)
            .into_iter()
            .find(|d| edit_distance(&norm(&d.name), &name) <= 1 + name.chars().count() / 5)
    });
    let Some(def) = def else {
        if verb == Verb::Bare {
            return None;
        }
        let near: Vec<String> = cat
            .suggest(&name, 3)
            .into_iter()
            .map(|d| d.name.clone())
            .collect();
        return refused(if near.is_empty() {
            format!(
                "there is no card called `{}` in the Time Spiral block",
                short(&name)
            )
        } else {
            format!(
                "there is no card called `{}` in the Time Spiral block (did you mean {}?)",
                short(&name),
                join_or(&near)
            )
        });
    };
    if let engine::cards::Support::Unsupported(why) = &def.support {
        return refused(format!(
            "{} is not playable yet: the rules engine does not support it ({why})",
            def.name
        ));
    }
    // Where your copy is, when it is not in your hand.
    let mine = |ids: &[ObjectId]| ids.iter().any(|id| game.card_name(*id) == def.name);
    let p = game.player(player);
    let mut where_ = "";
    if game.battlefield.iter().any(|id| {
        game.obj(*id).is_some_and(|o| o.controller == player) && game.card_name(*id) == def.name
    }) {
        where_ = " (yours is on the battlefield)";
    } else if mine(&p.graveyard) {
        where_ = " (it is in your graveyard)";
    }
    refused(format!("{} is not in your hand{where_}", def.name))
}

/// What mana is missing for `cost`: the mana you could make now (pool and each untapped
/// source, tried on a copy of the game) against what the cost asks.
fn mana_shortfall(game: &Game, player: PlayerId, cost: &engine::mana::PayableCost) -> String {
    use engine::mana::ManaType;
    let pool = game.player(player).pool.clone();
    let mut sources: Vec<(ObjectId, Vec<ManaType>)> = Vec::new();
    for a in game.legal_answers(player) {
        let Answer::ActivateMana { source, .. } = a else {
            continue;
        };
        let mut g = game.clone();
        if g.submit(player, a.clone()).is_err() {
            continue;
        }
        let after = &g.player(player).pool;
        let made: Vec<ManaType> = Color::ALL
            .iter()
            .map(|c| ManaType::Colored(*c))
            .chain([ManaType::Colorless])
            .filter(|t| after.get(*t) > pool.get(*t))
            .collect();
        match sources.iter_mut().find(|s| s.0 == source) {
            Some(s) => s.1.extend(made),
            None => sources.push((source, made)),
        }
    }
    let have = sources.len() as u32 + pool.total();
    let mut short = Vec::new();
    if cost.total() > have {
        short.push(format!("{} mana short", cost.total() - have));
    }
    for c in Color::ALL {
        let need = cost.colored[c as usize];
        let t = ManaType::Colored(c);
        let can = sources.iter().filter(|s| s.1.contains(&t)).count() as u32 + pool.get(t);
        if need > can {
            short.push(format!("{} {} short", need - can, c.name()));
        }
    }
    let mut s = format!(
        "it costs {cost}; you have {have} mana available ({} untapped source{}{})",
        sources.len(),
        if sources.len() == 1 { "" } else { "s" },
        if pool.total() > 0 {
            format!(" and {} in your pool", pool.total())
        } else {
            String::new()
        }
    );
    if !short.is_empty() {
        s.push_str(&format!(": {}", short.join(", ")));
    }
    s
}

/// A choice of cards or permanents given something else: what the decision needs, the
/// words for it and what may be chosen.
fn needs_objects(
    game: &Game,
    player: PlayerId,
    decision: &Decision,
    text: &str,
    legal: &[Answer],
    e: GrammarError,
) -> GrammarError {
    let GrammarError::NoMatch { options, .. } = &e else {
        return e;
    };
    let example = legal
        .iter()
        .find(|a| matches!(a, Answer::Objects(v) if !v.is_empty()))
        .map(|a| describe_among(game, player, a, legal));
    let mut hint = format!("you need to {}", decision.describe());
    if let Some(x) = example {
        hint.push_str(&format!(", for example `{x}`"));
    }
    if !options.is_empty() {
        hint.push_str(&format!(" (from {})", join_or(options)));
    }
    GrammarError::Unknown {
        said: text.trim().to_string(),
        hint,
    }
}

fn land_refusal(game: &Game, player: PlayerId) -> String {
    let p = game.player(player);
    if game.active != player {
        "you can play a land only in your own turn".into()
    } else if !game.step.is_main() || !game.stack.is_empty() {
        "you can play a land only in a main phase with an empty stack".into()
    } else if p.lands_played > 0 {
        "you have already played a land this turn".into()
    } else {
        "you have no land in hand".into()
    }
}

fn target_cands(game: &Game, player: PlayerId, legal: &[Answer]) -> Vec<(String, Answer)> {
    let among = answer_objects(legal);
    let serials = abilities::ability_serials(game, legal);
    let mut out: Vec<(String, Answer)> = abilities::ability_labels(game, player, &serials)
        .into_iter()
        .zip(serials)
        .map(|(l, s)| (l, Answer::Target(Target::Ability(s))))
        .collect();
    for a in legal {
        match a {
            Answer::Target(Target::Object(id)) => {
                out.push((object_label(game, player, *id, &among), a.clone()))
            }
            Answer::Target(Target::Player(p)) => {
                out.push((game.player(*p).name.clone(), a.clone()));
                if *p == player {
                    for w in ["me", "myself", "you", "self"] {
                        out.push((w.to_string(), a.clone()));
                    }
                } else {
                    for w in ["opponent", "them", "him", "her", "face"] {
                        out.push((w.to_string(), a.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The objects any `Objects` answer offers, labelled.
fn objects_from(
    game: &Game,
    player: PlayerId,
    rest: &str,
    legal: &[Answer],
) -> Result<Vec<ObjectId>, GrammarError> {
    let ids = offered_objects(legal);
    let labels = labels_in(game, player, &ids, legal);
    let mut cands: Vec<(String, ObjectId)> = labels.into_iter().zip(ids.iter().copied()).collect();
    // `NAME 2 of 3` (the menus' numbering, see [`object_choices`]) counts among all the offered
    // objects, whichever were named before it.
    let full = cands.clone();
    let mut out = Vec::new();
    for part in split_list(rest) {
        let id = match counted::counted_pick(game, player, &part, &full, "card") {
            Some(r) => r?,
            None => pick_in(game, player, &part, &cands, "card")?,
        };
        out.push(id);
        // Each object once: the next mention of the same name takes the next copy.
        if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
            cands.remove(i);
        }
    }
    Ok(out)
}

/// A decision that takes several objects at once (discard or sacrifice N, N > 1): the
/// verb, how many, and each object that may be chosen, as [`parse_answers`] reads them back
/// after the verb (identical ones numbered: `Forest 2 of 4`). A menu of these with exactly
/// `count` choices reaches every combination (the legal answers list only a few of them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectChoices {
    pub verb: &'static str,
    pub count: u32,
    pub labels: Vec<String>,
}

pub fn object_choices(game: &Game, player: PlayerId) -> Option<ObjectChoices> {
    let pending = game.pending().filter(|p| p.player == player)?;
    let (verb, count) = match pending.decision {
        Decision::Discard { count } if count > 1 => ("discard", count),
        Decision::Sacrifice { count, .. } if count > 1 => ("sacrifice", count),
        _ => return None,
    };
    let legal = game.legal_answers(player);
    let ids = offered_objects(&legal);
    if ids.len() < count as usize {
        return None;
    }
    Some(ObjectChoices {
        verb,
        count,
        labels: numbered(&labels_in(game, player, &ids, &legal)),
    })
}

/// Each creature that may attack, as `attack with ...` names it (identical ones numbered).
pub fn attack_choices(game: &Game, player: PlayerId) -> Vec<String> {
    let legal = game.legal_answers(player);
    let mut attackers: Vec<ObjectId> = Vec::new();
    for a in &legal {
        if let Answer::Attack(v) = a
            && v.len() == 1
            && !attackers.contains(&v[0].attacker)
        {
            attackers.push(v[0].attacker);
        }
    }
    numbered(&labels_in(game, player, &attackers, &legal))
}

/// Each legal block of one attacker by one blocker, as `block A with B` (identical
/// creatures numbered).
/// The single blocks among `legal`, with the attackers and blockers they name (each once,
/// in order).
fn block_pairs(legal: &[Answer]) -> (Vec<Block>, Vec<ObjectId>, Vec<ObjectId>) {
    // Every pair of any legal declaration: some pairs are legal only together (a creature
    // that can't be blocked except by two or more, Two-Headed Sliver).
    let mut pairs: Vec<Block> = Vec::new();
    for a in legal {
        if let Answer::Block(v) = a {
            for b in v {
                if !pairs.contains(b) {
                    pairs.push(*b);
                }
            }
        }
    }
    let mut attackers: Vec<ObjectId> = Vec::new();
    let mut blockers: Vec<ObjectId> = Vec::new();
    for p in &pairs {
        if !attackers.contains(&p.attacker) {
            attackers.push(p.attacker);
        }
        if !blockers.contains(&p.blocker) {
            blockers.push(p.blocker);
        }
    }
    (pairs, attackers, blockers)
}

pub fn block_choices(game: &Game, player: PlayerId) -> Vec<String> {
    let legal = game.legal_answers(player);
    let (pairs, attackers, blockers) = block_pairs(&legal);
    let att = numbered(&labels_in(game, player, &attackers, &legal));
    let blk = numbered(&labels_in(game, player, &blockers, &legal));
    let label = |ids: &[ObjectId], names: &[String], id: ObjectId| {
        ids.iter()
            .position(|x| *x == id)
            .and_then(|i| names.get(i).cloned())
            .unwrap_or_default()
    };
    pairs
        .iter()
        .map(|p| {
            format!(
                "block {} with {}",
                label(&attackers, &att, p.attacker),
                label(&blockers, &blk, p.blocker)
            )
        })
        .collect()
}

fn attack_from(
    game: &Game,
    player: PlayerId,
    rest: &str,
    legal: &[Answer],
) -> Result<Vec<Attack>, GrammarError> {
    let mut eligible: Vec<Attack> = Vec::new();
    // Every attack of any legal declaration: some creatures can attack only beside others.
    for a in legal {
        if let Answer::Attack(v) = a {
            for at in v {
                if !eligible.contains(at) {
                    eligible.push(*at);
                }
            }
        }
    }
    let mut attackers: Vec<ObjectId> = Vec::new();
    for e in &eligible {
        if !attackers.contains(&e.attacker) {
            attackers.push(e.attacker);
        }
    }
    if attackers.is_empty() {
        return Err(GrammarError::Refused(
            "you have no creature that can attack".into(),
        ));
    }
    let default_defender = |id: ObjectId| {
        eligible
            .iter()
            .find(|e| e.attacker == id)
            .map(|e| e.defender)
    };
    if matches!(
        rest,
        "all" | "everything" | "everyone" | "all creatures" | "with all"
    ) {
        return Ok(attackers
            .iter()
            .filter_map(|id| {
                default_defender(*id).map(|d| Attack {
                    attacker: *id,
                    defender: d,
                })
            })
            .collect());
    }
    let labels = labels_in(game, player, &attackers, legal);
    let mut cands: Vec<(String, ObjectId)> =
        labels.into_iter().zip(attackers.iter().copied()).collect();
    let full = cands.clone();
    let mut out = Vec::new();
    for part in split_list(rest) {
        let (who, at) = match part.rsplit_once(" at ") {
            Some((w, p)) => (w.to_string(), Some(p.to_string())),
            None => (part.clone(), None),
        };
        let what = "creature that can attack";
        let id = match counted::counted_pick(game, player, &who, &full, what) {
            Some(r) => r?,
            None => pick_in(game, player, &who, &cands, what)?,
        };
        let defender = match at {
            None => default_defender(id),
            Some(p) => {
                let defs: Vec<(String, PlayerId)> = eligible
                    .iter()
                    .filter(|e| e.attacker == id)
                    .map(|e| (game.player(e.defender).name.clone(), e.defender))
                    .collect();
                Some(pick_or(&p, &defs, "player to attack")?)
            }
        };
        if let Some(d) = defender {
            out.push(Attack {
                attacker: id,
                defender: d,
            });
        }
        if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
            cands.remove(i);
        }
    }
    Ok(out)
}

fn blocks_from(
    game: &Game,
    player: PlayerId,
    t: &str,
    legal: &[Answer],
) -> Result<Vec<Block>, GrammarError> {
    let (pairs, attackers, blockers) = block_pairs(legal);
    if blockers.is_empty() {
        return Err(GrammarError::Refused(
            "you have no creature that can block".into(),
        ));
    }
    let att: Vec<(String, ObjectId)> = labels_in(game, player, &attackers, legal)
        .into_iter()
        .zip(attackers.iter().copied())
        .collect();
    let mut blk: Vec<(String, ObjectId)> = labels_in(game, player, &blockers, legal)
        .into_iter()
        .zip(blockers.iter().copied())
        .collect();
    let blk_full = blk.clone();
    let mut out = Vec::new();
    for clause in split_commas(t) {
        let c = clause.strip_prefix("and ").unwrap_or(&clause);
        let (a, b) = if let Some(rest) = c.strip_prefix("block ") {
            match rest.split_once(" with ") {
                Some((a, b)) => (a.to_string(), b.to_string()),
                None => {
                    return Err(GrammarError::Unknown {
                        said: clause.clone(),
                        hint: "say `block ATTACKER with BLOCKER`".into(),
                    });
                }
            }
        } else if let Some((b, a)) = c.split_once(" blocks ") {
            (a.to_string(), b.to_string())
        } else {
            return Err(GrammarError::Unknown {
                said: clause.clone(),
                hint: "say `block ATTACKER with BLOCKER` or `no blocks`".into(),
            });
        };
        let attacker = pick_in(game, player, &a, &att, "attacking creature")?;
        let what = "creature that can block";
        let blocker = match counted::counted_pick(game, player, &b, &blk_full, what) {
            Some(r) => r?,
            None => pick_in(game, player, &b, &blk, what)?,
        };
        if !pairs.contains(&Block { blocker, attacker }) {
            return Err(GrammarError::Refused(format!(
                "{} cannot block {}",
                game.card_name(blocker),
                game.card_name(attacker)
            )));
        }
        out.push(Block { blocker, attacker });
        if let Some(i) = blk.iter().position(|(_, o)| *o == blocker) {
            blk.remove(i);
        }
    }
    Ok(out)
}

/// `3 to Grizzly Bears, 2 to Bob`: recipients among those the legal assignments name.
fn damage_from(
    game: &Game,
    player: PlayerId,
    rest: &str,
    legal: &[Answer],
) -> Result<Vec<(Target, u32)>, GrammarError> {
    let mut recipients: Vec<Target> = Vec::new();
    for a in legal {
        if let Answer::AssignDamage(v) = a {
            for (t, _) in v {
                if !recipients.contains(t) {
                    recipients.push(*t);
                }
            }
        }
    }
    let among = answer_objects(legal);
    let mut cands: Vec<(String, Target)> = Vec::new();
    for t in &recipients {
        match t {
            Target::Player(p) => {
                cands.push((game.player(*p).name.clone(), *t));
                cands.push((player_label(game, player, *p), *t));
                if *p != player {
                    cands.push(("player".into(), *t));
                    cands.push(("opponent".into(), *t));
                }
            }
            Target::Object(id) => cands.push((object_label(game, player, *id, &among), *t)),
            // Damage is never assigned to an ability.
            Target::Ability(_) => {}
        }
    }
    let mut out = Vec::new();
    for part in split_list(rest) {
        let Some((n, who)) = part.split_once(" to ") else {
            return Err(GrammarError::Unknown {
                said: part.clone(),
                hint: "say `assign 3 to Grizzly Bears, 2 to Bob`".into(),
            });
        };
        let n: u32 = n.trim().parse().map_err(|_| GrammarError::Unknown {
            said: part.clone(),
            hint: "each share starts with a number".into(),
        })?;
        // Same-named recipients (two Squires blocking) are each named in turn: a name
        // means the next one not yet given damage.
        let left: Vec<(String, Target)> = cands
            .iter()
            .filter(|(_, t)| !out.iter().any(|(u, _)| u == t))
            .cloned()
            .collect();
        out.push((
            pick_in(
                game,
                player,
                who,
                &left,
                "creature or player receiving damage",
            )?,
            n,
        ));
    }
    Ok(out)
}

/// Clauses after the card name of a `cast` / `activate` command.
#[derive(Default, Debug)]
struct Clauses {
    targets: Vec<String>,
    objects: Vec<String>,
    /// The verb of the objects clause (`discarding`, `sacrificing`, `exiling`).
    object_verb: Option<String>,
    x: Option<String>,
    option: Option<String>,
    mode: Option<String>,
    /// `kicked` / `unkicked`: the answer to every kicker question (502.xx / 702.32).
    kick: Option<bool>,
    /// `with buyback` / `without buyback` (702.25).
    buyback: Option<bool>,
}

impl Clauses {
    /// Whether a clause is still waiting for the decision it answers.
    fn left(&self) -> bool {
        !self.targets.is_empty()
            || !self.objects.is_empty()
            || self.x.is_some()
            || self.option.is_some()
            || self.mode.is_some()
    }
}

/// The optional-cost words of a cast (`cast Desolation Giant kicked`, `cast Reiterate with
/// buyback`): each phrase, whether it says yes, and which cost it answers (true: kicker).
const OPTIONAL_COST_WORDS: &[(&str, bool, bool)] = &[
    (" without kicker ", false, true),
    (" not kicked ", false, true),
    (" unkicked ", false, true),
    (" with kicker ", true, true),
    (" kicked ", true, true),
    (" without buyback ", false, false),
    (" with buyback ", true, false),
];

/// Takes the optional-cost words out of `s`: the rest, and the kicker and buyback answers.
fn optional_cost_words(s: &str) -> (String, Option<bool>, Option<bool>) {
    let mut padded = format!(" {s} ");
    let (mut kick, mut buyback) = (None, None);
    for (w, yes, is_kicker) in OPTIONAL_COST_WORDS {
        while let Some(i) = padded.find(w) {
            padded.replace_range(i..i + w.len(), " ");
            if *is_kicker {
                kick = Some(*yes);
            } else {
                buyback = Some(*yes);
            }
        }
    }
    (padded.trim().to_string(), kick, buyback)
}

const CLAUSE_WORDS: &[(&str, u8)] = &[
    (" on ", 0),
    (" targeting ", 0),
    (" target ", 0),
    (" at ", 0),
    (" discarding ", 1),
    (" sacrificing ", 1),
    (" exiling ", 1),
    (" tapping ", 1),
    (" paying with ", 1),
    (" choosing ", 3),
    (" mode ", 4),
    (" with x ", 2),
    (" x=", 2),
    (" x ", 2),
    (" for x ", 2),
];

/// Splits `lightning axe on grizzly bears discarding forest` into the name and clauses.
fn split_clauses(s: &str) -> (String, Clauses) {
    let (s, kick, buyback) = optional_cost_words(s);
    let padded = format!("{s} ");
    let mut cuts: Vec<(usize, usize, u8)> = Vec::new();
    for (w, k) in CLAUSE_WORDS {
        let mut from = 0;
        while let Some(i) = padded[from..].find(w) {
            let at = from + i;
            if !cuts.iter().any(|(s, e, _)| at < *e && at + w.len() > *s) {
                cuts.push((at, at + w.len(), *k));
            }
            from = at + w.len();
        }
    }
    cuts.sort();
    let name_end = cuts.first().map_or(padded.len(), |c| c.0);
    let mut cl = Clauses::default();
    for (i, (start, end, k)) in cuts.iter().enumerate() {
        let stop = cuts.get(i + 1).map_or(padded.len(), |c| c.0);
        let text = padded[*end..stop].trim().to_string();
        match k {
            0 => cl.targets.push(text),
            1 => {
                cl.object_verb = Some(padded[*start..*end].trim().to_string());
                cl.objects.extend(split_list(&text));
            }
            2 => cl.x = Some(text),
            3 => cl.option = Some(text),
            _ => cl.mode = Some(text),
        }
    }
    cl.kick = kick;
    cl.buyback = buyback;
    (padded[..name_end].trim().to_string(), cl)
}

/// The words for choosing no target of an "up to one" target.
fn says_no_target(t: &str) -> bool {
    matches!(t, "nothing" | "none" | "no target" | "no targets")
}

/// A target named by the command's next `on` clause, or what the player must add.
fn target_answer(
    probe: &Game,
    player: PlayerId,
    card: &str,
    spec: &engine::targets::TargetSpec,
    c: &[(String, Answer)],
    cl: &mut Clauses,
) -> Result<Answer, GrammarError> {
    let Some(said) = cl.targets.pop() else {
        return Err(GrammarError::Needs {
            card: card.to_string(),
            what: format!("a target ({})", spec.describe()),
            options: uniq(
                c.iter()
                    .filter(|(l, _)| {
                        ![
                            "me", "myself", "you", "self", "opponent", "them", "him", "her", "face",
                        ]
                        .contains(&l.as_str())
                    })
                    .map(|x| x.0.clone()),
            ),
        });
    };
    pick_in(probe, player, &said, c, "legal target")
}

/// `cast NAME [on TARGET].. [discarding CARD].. [x N] [choosing OPTION]`: the first answer,
/// then every casting decision answered from the clauses on a copy of the game.
fn cast_sequence(
    game: &Game,
    player: PlayerId,
    text: &str,
    cands: &[(String, Answer)],
    what: &str,
) -> Result<Vec<Answer>, GrammarError> {
    if cands.is_empty() {
        return Err(GrammarError::Refused(format!("there is no {what} now")));
    }
    // The whole text as a name first (a card name may contain a clause word).
    let (first, mut cl) = match pick(text, cands) {
        Ok(a)
            if norm(text).split(' ').count() > 1
                && cands.iter().any(|(l, _)| norm(l) == norm(text)) =>
        {
            (a, Clauses::default())
        }
        _ => {
            let (name, cl) = split_clauses(text);
            (pick_in(game, player, &name, cands, what)?, cl)
        }
    };
    let card = match &first {
        Answer::Cast(id)
        | Answer::CastSplit { card: id, .. }
        | Answer::CastFaceDown(id)
        | Answer::TurnFaceUp(id)
        | Answer::Suspend(id)
        | Answer::Activate { source: id, .. } => game.seen_name(*id, Some(player)),
        _ => "that".into(),
    };
    let mut probe = game.clone();
    let mut out = vec![first.clone()];
    probe
        .submit(player, first)
        .map_err(|e| GrammarError::Refused(e.to_string()))?;
    cl.targets.reverse();
    cl.objects.reverse();
    let (mut kick_asked, mut buyback_asked) = (false, false);
    for _ in 0..64 {
        let Some(p) = probe.pending().cloned() else {
            break;
        };
        if p.player != player || probe.result.is_some() {
            break;
        }
        let legal = probe.legal_answers(player);
        let answer = match &p.decision {
            Decision::ChooseTarget { spec, .. } => {
                let c = target_cands(&probe, player, &legal);
                let none = Answer::Objects(Vec::new());
                let said_none = cl.targets.last().is_some_and(|t| says_no_target(t));
                // "Up to one": `on nothing`, or no word at all when nothing can be chosen.
                if legal.contains(&none) && (said_none || (cl.targets.is_empty() && c.is_empty())) {
                    if said_none {
                        cl.targets.pop();
                    }
                    none
                } else {
                    target_answer(&probe, player, &card, spec, &c, &mut cl)?
                }
            }
            Decision::ChooseX => {
                let Some(x) = cl.x.take() else {
                    return Err(GrammarError::Needs {
                        card: card.clone(),
                        what: "a value for X (add `x 3`)".into(),
                        options: Vec::new(),
                    });
                };
                let n: u32 = x.trim_start_matches('=').trim().parse().map_err(|_| {
                    GrammarError::Unknown {
                        said: x.clone(),
                        hint: "X must be a number".into(),
                    }
                })?;
                Answer::X(n)
            }
            Decision::ChooseCostOption { options, .. } => {
                let c: Vec<(String, Answer)> = options
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (n.clone(), Answer::CostOption(i as u8)))
                    .collect();
                let payable: Vec<u8> = legal
                    .iter()
                    .filter_map(|a| {
                        if let Answer::CostOption(i) = a {
                            Some(*i)
                        } else {
                            None
                        }
                    })
                    .collect();
                let Some(said) = cl.option.take() else {
                    // Inferred: the only payable option, or the one the clauses describe
                    // (`discarding X` picks the discard option).
                    let stem =
                        |v: &str| v.trim_end_matches("ing").trim_end_matches('e').to_string();
                    let wants_objects = cl.object_verb.as_deref().map(stem);
                    let fits: Vec<u8> = payable
                        .iter()
                        .copied()
                        .filter(|i| {
                            let o = options[*i as usize].to_lowercase();
                            let object_cost = ["discard", "sacrific", "exil"]
                                .iter()
                                .any(|w| o.contains(w));
                            match &wants_objects {
                                Some(v) => o.contains(v.as_str()),
                                None => !object_cost,
                            }
                        })
                        .collect();
                    let pick = if payable.len() == 1 {
                        payable.first().copied()
                    } else if fits.len() == 1 {
                        fits.first().copied()
                    } else {
                        None
                    };
                    let Some(i) = pick else {
                        return Err(GrammarError::Needs {
                            card: card.clone(),
                            what: "a choice of additional cost (add `choosing 1`, or `discarding CARD`)".into(),
                            options: payable.iter().map(|i| format!("{} ({})", i + 1, options[*i as usize])).collect(),
                        });
                    };
                    probe
                        .submit(player, Answer::CostOption(i))
                        .map_err(|e| GrammarError::Refused(format!("{card}: {e}")))?;
                    out.push(Answer::CostOption(i));
                    continue;
                };
                match said.parse::<u8>() {
                    Ok(n) if n >= 1 && (n as usize) <= options.len() => Answer::CostOption(n - 1),
                    _ => pick_or(&said, &c, "cost option")?,
                }
            }
            Decision::ChooseMode { options } => {
                let payable: Vec<u8> = legal
                    .iter()
                    .filter_map(|a| {
                        if let Answer::Mode(i) = a {
                            Some(*i)
                        } else {
                            None
                        }
                    })
                    .collect();
                match cl.mode.take() {
                    Some(said) => match said.parse::<u8>() {
                        Ok(n) if n >= 1 && (n as usize) <= options.len() => Answer::Mode(n - 1),
                        _ => {
                            let c: Vec<(String, Answer)> = options
                                .iter()
                                .enumerate()
                                .map(|(i, n)| (n.clone(), Answer::Mode(i as u8)))
                                .collect();
                            pick_or(&said, &c, "mode")?
                        }
                    },
                    None if payable.len() == 1 => Answer::Mode(payable[0]),
                    None => {
                        return Err(GrammarError::Needs {
                            card: card.clone(),
                            what: "a mode (add `mode 1`)".into(),
                            options: payable
                                .iter()
                                .map(|i| format!("{} ({})", i + 1, options[*i as usize]))
                                .collect(),
                        });
                    }
                }
            }
            Decision::YesNo { question }
                if question.starts_with("pay kicker ") || question.starts_with("pay buyback ") =>
            {
                let is_kicker = question.starts_with("pay kicker ");
                let said = if is_kicker {
                    kick_asked = true;
                    cl.kick
                } else {
                    buyback_asked = true;
                    cl.buyback
                };
                match said {
                    Some(true) => Answer::Yes,
                    Some(false) => Answer::No,
                    // Clauses wait behind the question: say how to answer it in the command.
                    None if cl.left() => {
                        return Err(GrammarError::Needs {
                            card: card.clone(),
                            what: if is_kicker {
                                "whether you pay its kicker (add `kicked` or `unkicked`)".into()
                            } else {
                                "whether you pay its buyback (add `with buyback` or `without buyback`)"
                                    .into()
                            },
                            options: Vec::new(),
                        });
                    }
                    None => break,
                }
            }
            Decision::ChooseCostObjects {
                part: engine::costs::CostPart::Delve(max),
            } => delve_answer(&probe, player, &card, &mut cl, &legal, *max)?,
            Decision::ChooseCostObjects { part } => {
                let ids = offered_objects(&legal);
                let labels = labels_in(&probe, player, &ids, &legal);
                let n = match part {
                    engine::costs::CostPart::Discard(n)
                    | engine::costs::CostPart::Sacrifice(_, n)
                    | engine::costs::CostPart::TapUntapped(_, n)
                    | engine::costs::CostPart::ExileFromGraveyard(_, n)
                    | engine::costs::CostPart::ReturnToHand(_, n) => *n as usize,
                    _ => 1,
                };
                if cl.objects.len() < n {
                    let verb = match part {
                        engine::costs::CostPart::Discard(_) => {
                            "a card to discard (add `discarding ...`)"
                        }
                        engine::costs::CostPart::Sacrifice(..) => {
                            "a permanent to sacrifice (add `sacrificing ...`)"
                        }
                        engine::costs::CostPart::ExileFromGraveyard(..) => {
                            "a card in a graveyard to exile (add `exiling ...`)"
                        }
                        engine::costs::CostPart::TapUntapped(..) => {
                            "creatures to tap (add `tapping ...`)"
                        }
                        _ => "a choice of what to pay with (add `paying with ...`)",
                    };
                    return Err(GrammarError::Needs {
                        card: card.clone(),
                        what: verb.into(),
                        options: uniq(labels.into_iter()),
                    });
                }
                let mut cands: Vec<(String, ObjectId)> =
                    labels.into_iter().zip(ids.iter().copied()).collect();
                let mut chosen = Vec::new();
                for _ in 0..n {
                    let said = cl.objects.pop().unwrap_or_default();
                    let id = pick_in(&probe, player, &said, &cands, "card")?;
                    chosen.push(id);
                    if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
                        cands.remove(i);
                    }
                }
                Answer::Objects(chosen)
            }
            Decision::PayMana { cost } => {
                if !legal.contains(&Answer::AutoPay) {
                    return Err(GrammarError::Refused(format!(
                        "you cannot pay {cost} for {card}"
                    )));
                }
                Answer::AutoPay
            }
            _ => break,
        };
        probe
            .submit(player, answer.clone())
            .map_err(|e| GrammarError::Refused(format!("{card}: {e}")))?;
        out.push(answer);
    }
    if cl.kick == Some(true) && !kick_asked {
        return Err(GrammarError::Refused(format!(
            "{card} has no kicker to pay"
        )));
    }
    if cl.buyback == Some(true) && !buyback_asked {
        return Err(GrammarError::Refused(format!(
            "{card} has no buyback to pay"
        )));
    }
    Ok(out)
}

/// Every object any `Objects` answer among `legal` names, each once, in order.
fn offered_objects(legal: &[Answer]) -> Vec<ObjectId> {
    let mut ids: Vec<ObjectId> = Vec::new();
    for a in legal {
        if let Answer::Objects(v) = a {
            for id in v {
                if !ids.contains(id) {
                    ids.push(*id);
                }
            }
        }
    }
    ids
}

/// Delve's cards (702.65): every card the `exiling` clause names (`exiling nothing` for
/// none), at most `max`.
fn delve_answer(
    probe: &Game,
    player: PlayerId,
    card: &str,
    cl: &mut Clauses,
    legal: &[Answer],
    max: u32,
) -> Result<Answer, GrammarError> {
    let ids = offered_objects(legal);
    let labels = labels_in(probe, player, &ids, legal);
    if cl.objects.is_empty() {
        return Err(GrammarError::Needs {
            card: card.to_string(),
            what: format!(
                "the cards to exile for delve, up to {max} (add `exiling CARD, CARD` or `exiling nothing`)"
            ),
            options: uniq(labels.into_iter()),
        });
    }
    let said: Vec<String> = std::mem::take(&mut cl.objects).into_iter().rev().collect();
    if said.len() == 1 && matches!(said[0].as_str(), "nothing" | "none" | "no cards") {
        return Ok(Answer::Objects(Vec::new()));
    }
    if said.len() > max as usize {
        return Err(GrammarError::Refused(format!(
            "{card}: delve can exile at most {max} cards here, not {}",
            said.len()
        )));
    }
    let mut cands: Vec<(String, ObjectId)> = labels.into_iter().zip(ids).collect();
    let mut chosen = Vec::new();
    for s in &said {
        let id = pick_in(probe, player, s, &cands, "card in your graveyard")?;
        chosen.push(id);
        if let Some(i) = cands.iter().position(|(_, o)| *o == id) {
            cands.remove(i);
        }
    }
    Ok(Answer::Objects(chosen))
}

#[cfg(test)]
pub(crate) mod tests;
