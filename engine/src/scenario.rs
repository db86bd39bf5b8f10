//! Scenario files: a board, a script of answers (including answers that must be refused),
//! and the expected outcome. The acceptance-test format of the project; the format is
//! documented in `engine/scenarios/README.md`.
//!
//! [`run_str`] runs one scenario and returns a [`Report`] with every difference found.

use crate::cards::Catalog;
use crate::decision::{Answer, Attack, Block, Decision};
use crate::game::{Game, GameResult};
use crate::ids::{ObjectId, PlayerId};
use crate::mana::Color;
use crate::object::CounterKind;
use crate::ruleset::Ruleset;
use crate::steps::Step;
use crate::targets::Target;
use crate::zones::ZoneKind;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub ruleset: Option<String>,
    /// The mechanic this scenario waits for: it is reported as pending, not run.
    #[serde(default)]
    pub waiting_for: Option<String>,
    pub setup: Setup,
    #[serde(default)]
    pub script: Vec<ScriptLine>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

#[derive(Debug, Deserialize)]
pub struct Setup {
    #[serde(default = "default_players")]
    pub players: Vec<String>,
    #[serde(default)]
    pub active: Option<String>,
    #[serde(default)]
    pub priority: Option<String>,
    #[serde(default)]
    pub step: Option<String>,
    #[serde(default)]
    pub turn: Option<u32>,
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(flatten)]
    pub zones: BTreeMap<String, PlayerZones>,
}

/// The turns of their own a player has begun by game turn `turn` of `players`, the
/// active player having taken the first (a scenario's default: turn 5 of two players gives
/// the active player 3, the other 2).
fn default_turns_begun(turn: u32, players: u32, active: bool) -> u32 {
    let n = players.max(1);
    if active {
        turn.div_ceil(n).max(1)
    } else {
        turn / n
    }
}

fn default_players() -> Vec<String> {
    vec!["alice".into(), "bob".into()]
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlayerZones {
    pub life: Option<i32>,
    /// Poison counters (poisonous, 102.3d / 704.5c).
    pub poison: Option<u32>,
    #[serde(default)]
    pub hand: Vec<String>,
    /// Top first.
    #[serde(default)]
    pub library: Vec<String>,
    #[serde(default)]
    pub graveyard: Vec<String>,
    #[serde(default)]
    pub exile: Vec<ExiledSetup>,
    #[serde(default)]
    pub battlefield: Vec<PermanentSetup>,
    pub mana_pool: Option<String>,
    pub lands_played: Option<u32>,
    /// The turns of their own this player has begun (default: counted from `turn` as if
    /// the players took turns in order from the active player, the active one first).
    pub turns: Option<u32>,
}

/// A card in exile: its name, or `{ card = "Rift Bolt", counters = { time = 1 } }` (a
/// suspended card).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ExiledSetup {
    Name(String),
    Full {
        card: String,
        #[serde(default)]
        counters: BTreeMap<String, u32>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum PermanentSetup {
    Name(String),
    Full {
        card: String,
        #[serde(default)]
        tapped: bool,
        #[serde(default)]
        damage: u32,
        #[serde(default)]
        counters: BTreeMap<String, u32>,
        /// Came under its controller's control this turn.
        #[serde(default)]
        sick: bool,
        /// An Aura: the permanent it enchants (a name on the battlefield, `Name@player`).
        #[serde(default)]
        attached_to: Option<String>,
        /// Face down (cast with morph earlier, or turned face down by Ixidron).
        #[serde(default)]
        face_down: bool,
        /// Its "as it enters, choose ..." answer (`chosen = "green"`, `"bob"`,
        /// `"red Goblin"`: `as_enters.rs`).
        #[serde(default)]
        chosen: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ScriptLine {
    Do(String),
    Expect { expect: Expect },
}

#[derive(Debug, Deserialize, Default, Clone)]
pub struct Expect {
    pub pending: Option<String>,
    pub result: Option<String>,
    pub step: Option<String>,
    pub turn: Option<u32>,
    /// Top first.
    pub stack: Option<Vec<String>>,
    #[serde(default)]
    pub permanent: Vec<PermanentExpect>,
    #[serde(flatten)]
    pub players: BTreeMap<String, PlayerExpect>,
}

#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct PlayerExpect {
    pub life: Option<i32>,
    pub poison: Option<u32>,
    pub hand: Option<Vec<String>>,
    pub hand_count: Option<usize>,
    pub library_count: Option<usize>,
    /// Top first.
    pub library_top: Option<Vec<String>>,
    pub graveyard: Option<Vec<String>>,
    pub exile: Option<Vec<String>>,
    pub battlefield: Option<Vec<String>>,
    pub mana_pool: Option<String>,
    pub lost: Option<bool>,
    pub lands_played: Option<u32>,
}

#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct PermanentExpect {
    pub card: String,
    /// Where to look for the card (default the battlefield): `hand`, `graveyard`,
    /// `library`, `exile`, `stack` (then `card = "Name@owner"` names the owner).
    pub zone: Option<String>,
    pub tapped: Option<bool>,
    pub damage: Option<u32>,
    pub power: Option<i32>,
    pub toughness: Option<i32>,
    pub counters: Option<BTreeMap<String, u32>>,
    pub sick: Option<bool>,
    pub attacking: Option<bool>,
    /// Instances of each named keyword (0: it lacks the keyword), e.g.
    /// `keywords = { Flanking = 2, "First strike" = 0 }`.
    pub keywords: Option<BTreeMap<String, u32>>,
    /// Keywords it must have (`has = ["Double strike"]`) and must not have (`lacks`).
    pub has: Option<Vec<String>>,
    pub lacks: Option<Vec<String>>,
    /// Card types or subtypes it must have (`is = ["Sliver"]`, `is = ["Creature"]`) and
    /// must not have (`is_not`).
    pub is: Option<Vec<String>>,
    pub is_not: Option<Vec<String>>,
    /// Its colours as letters in WUBRG order (`"W"`, `"BR"`, `""` for colourless).
    pub colors: Option<String>,
    /// Whether it is face down.
    pub face_down: Option<bool>,
    /// What it chose as it entered, in player words (`chosen = "green"`; `as_enters.rs`).
    pub chosen: Option<String>,
    /// The card it really is (`printed = "Vesuvan Shapeshifter"`), whatever it copies.
    pub printed: Option<String>,
    /// The player who owns it (`owner = "alice"`; a token's owner, Δ23).
    pub owner: Option<String>,
    /// Its name in each player's view (hidden information): `{ bob = "face-down creature 1" }`.
    pub seen_as: Option<BTreeMap<String, String>>,
    /// What it is attached to: a permanent (`"Squire@bob"`), a player (`"alice"`) or
    /// `"nothing"`.
    pub attached_to: Option<String>,
}

/// The outcome of one scenario.
#[derive(Debug)]
pub struct Report {
    pub name: String,
    pub outcome: Outcome,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// Waiting for a mechanic that is not built yet.
    Pending(String),
    /// Every difference or problem found.
    Failed(Vec<String>),
}

/// A board for tests: Alice's precombat main phase of turn 3, with the players' tables
/// (`[setup.alice]`, `[setup.bob]`) given in scenario syntax.
pub fn board(players: &str) -> Result<Game, String> {
    game_from_str(&format!(
        "name = \"board\"\ndescription = \"\"\nscript = []\n[setup]\nactive = \"alice\"\nstep = \"precombat_main\"\nturn = 3\n{players}"
    ))
}

/// Sets up a scenario's board and plays its script, then returns the game (for tests of
/// front ends that need a game standing at a given decision). Expectations are not checked.
pub fn game_from_str(src: &str) -> Result<Game, String> {
    let sc: Scenario = toml::from_str(src).map_err(|e| e.to_string())?;
    let mut r = Runner::new(&sc)?;
    let problems = r.run(&Scenario { expect: None, ..sc });
    match problems.first() {
        Some(p) => Err(p.clone()),
        None => Ok(r.game),
    }
}

/// Parses and runs a scenario from its TOML text.
pub fn run_str(src: &str) -> Report {
    let sc: Scenario = match toml::from_str(src) {
        Ok(s) => s,
        Err(e) => {
            return Report {
                name: "?".into(),
                outcome: Outcome::Failed(vec![format!(
                    "bad scenario file: {}",
                    e.to_string().replace('\n', " ")
                )]),
            };
        }
    };
    let name = sc.name.clone();
    if let Some(w) = &sc.waiting_for {
        return Report {
            name,
            outcome: Outcome::Pending(w.clone()),
        };
    }
    let outcome = match Runner::new(&sc) {
        Ok(mut r) => {
            let problems = r.run(&sc);
            if problems.is_empty() {
                Outcome::Passed
            } else {
                Outcome::Failed(problems)
            }
        }
        Err(e) => Outcome::Failed(vec![format!("setup: {e}")]),
    };
    Report { name, outcome }
}

struct Runner {
    game: Game,
    names: Vec<String>,
}

fn card_id(name: &str) -> Result<crate::ids::CardId, String> {
    let c = Catalog::builtin();
    c.by_name(name)
        .map(|c| c.id)
        // A split card's half (a spell on the stack: "Boom").
        .or_else(|| {
            c.split_half_by_name(name)
                .map(|(card, h)| card.split_half(h))
        })
        .ok_or_else(|| {
            let s: Vec<String> = Catalog::builtin()
                .suggest(name, 3)
                .iter()
                .map(|c| c.name.clone())
                .collect();
            format!("no card named `{name}` (did you mean {}?)", s.join(", "))
        })
}

impl Runner {
    fn new(sc: &Scenario) -> Result<Runner, String> {
        let ruleset: Ruleset = sc.ruleset.as_deref().unwrap_or("modern").parse()?;
        let names = sc
            .setup
            .players
            .iter()
            .map(|n| n.to_lowercase())
            .collect::<Vec<_>>();
        for k in sc.setup.zones.keys() {
            if !names.contains(&k.to_lowercase()) {
                return Err(format!(
                    "setup names `{k}`, who is not among the players {names:?}"
                ));
            }
        }
        let display: Vec<String> = names.iter().map(|n| capitalise(n)).collect();
        let mut g = Game::empty(ruleset, sc.setup.seed.unwrap_or(1), display, 20);
        let mut r = Runner {
            game: Game::empty(ruleset, 0, vec![], 20),
            names: names.clone(),
        };
        let active = match &sc.setup.active {
            Some(a) => r.player(a)?,
            None => PlayerId(0),
        };
        let turn = sc.setup.turn.unwrap_or(1).max(1);
        g.turn = turn;
        g.active = active;
        g.first_player = active;
        g.step = match &sc.setup.step {
            Some(s) => Step::from_key(s).ok_or_else(|| format!("unknown step `{s}`"))?,
            None => Step::PrecombatMain,
        };
        let mut attachments: Vec<(ObjectId, String)> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let p = PlayerId(i as u8);
            g.players[i].kept = true;
            // Permanents set up without `sick` have been controlled since before any turn
            // (controlled_since 0); every player's last turn start is at least 1.
            g.players[i].turn_started = if p == active { turn } else { (turn - 1).max(1) };
            g.players[i].turns_begun = default_turns_begun(turn, names.len() as u32, p == active);
            // Each other player's turn (the one before) has ended; the active player's
            // turn before that one.
            g.players[i].turn_ended = if p == active {
                turn.saturating_sub(2)
            } else {
                turn.saturating_sub(1)
            };
            let Some(z) = sc.setup.zones.get(name) else {
                continue;
            };
            if let Some(n) = z.poison {
                g.players[i].poison = n;
            }
            if let Some(n) = z.turns {
                g.players[i].turns_begun = n;
            }
            if let Some(l) = z.life {
                g.players[i].life = l;
            }
            for c in z.library.iter().rev() {
                g.create_object(card_id(c)?, p, ZoneKind::Library);
            }
            for c in &z.hand {
                g.create_object(card_id(c)?, p, ZoneKind::Hand);
            }
            for c in &z.graveyard {
                g.create_object(card_id(c)?, p, ZoneKind::Graveyard);
            }
            for c in &z.exile {
                let (name, counters) = match c {
                    ExiledSetup::Name(n) => (n, None),
                    ExiledSetup::Full { card, counters } => (card, Some(counters)),
                };
                let id = g.create_object(card_id(name)?, p, ZoneKind::Exile);
                for (k, n) in counters.into_iter().flatten() {
                    let kind: crate::object::CounterKind = k.parse()?;
                    if let Some(o) = g.obj_mut(id) {
                        o.counters.add(kind, *n);
                    }
                    g.has_suspended_cards = true;
                }
            }
            for perm in &z.battlefield {
                set_up_permanent(&mut g, perm, p, turn, &mut attachments)?;
            }
            if let Some(pool) = &z.mana_pool {
                let cost: crate::mana::ManaCost = pool.parse()?;
                for s in cost.symbols {
                    match s {
                        crate::mana::ManaSymbol::Colored(c) => {
                            g.players[i].pool.add(crate::mana::ManaType::Colored(c), 1)
                        }
                        crate::mana::ManaSymbol::Generic(n) => {
                            g.players[i].pool.add(crate::mana::ManaType::Colorless, n)
                        }
                        _ => {
                            return Err(format!(
                                "mana pool `{pool}`: only coloured and colorless mana"
                            ));
                        }
                    }
                }
            }
            if let Some(n) = z.lands_played {
                g.players[i].lands_played = n;
            }
        }
        r.game = g;
        for (aura, target) in attachments {
            // `attached_to = "alice"`: an Aura enchanting a player (Paradox Haze).
            if let Ok(p) = r.player(&target) {
                r.game.objects[aura.slot()].attached_player = Some(p);
                continue;
            }
            let t = r.find(&target, &[ZoneKind::Battlefield], None)?;
            r.game.objects[aura.slot()].attached_to = Some(t);
        }
        let mut g = std::mem::replace(&mut r.game, Game::empty(ruleset, 0, Vec::new(), 0));
        let prio = match &sc.setup.priority {
            Some(p) => r.player(p)?,
            None => active,
        };
        // The setup changed objects directly (faces, attachments): caches keyed on the
        // timestamp start afresh.
        g.layer_cache = Default::default();
        g.grant_sources = Default::default();
        g.give_priority(prio);
        g.events.clear();
        r.game = g;
        Ok(r)
    }

    fn player(&self, name: &str) -> Result<PlayerId, String> {
        let n = name.trim().to_lowercase();
        self.names
            .iter()
            .position(|x| *x == n)
            .map(|i| PlayerId(i as u8))
            .ok_or_else(|| format!("no player named `{name}`"))
    }

    fn run(&mut self, sc: &Scenario) -> Vec<String> {
        let mut problems = Vec::new();
        for (i, line) in sc.script.iter().enumerate() {
            let res = match line {
                ScriptLine::Do(s) => self.step(s),
                ScriptLine::Expect { expect } => {
                    let p = self.check(expect);
                    if p.is_empty() {
                        Ok(())
                    } else {
                        Err(p.join("\n    "))
                    }
                }
            };
            if let Err(e) = res {
                problems.push(format!("script line {}: {e}", i + 1));
                return problems;
            }
        }
        if let Some(e) = &sc.expect {
            problems.extend(self.check(e));
        }
        problems
    }

    /// One script line: `alice: cast Lightning Axe`, `reject bob: pass => not your decision`,
    /// `pass`, `resolve`, `goto declare_attackers`.
    fn step(&mut self, line: &str) -> Result<(), String> {
        let line = line.trim();
        if line == "pass" {
            let p = self.game.pending().ok_or("nothing is pending")?.player;
            return self
                .game
                .submit(p, Answer::Pass)
                .map(|_| ())
                .map_err(|e| format!("`pass` refused: {e}"));
        }
        if line == "resolve" {
            // Everyone passes until the object now on top of the stack has resolved (or
            // left the stack); anything put on the stack meanwhile stays there.
            let Some(top) = self.game.stack.last().cloned() else {
                return Err("`resolve`: the stack is empty".into());
            };
            let depth = self.game.stack.len();
            let mut guard = 0;
            while self.game.stack.get(depth - 1) == Some(&top) {
                let p = self
                    .game
                    .pending()
                    .ok_or("`resolve`: the game stopped")?
                    .clone();
                if p.decision != Decision::Priority {
                    break;
                }
                self.game
                    .submit(p.player, Answer::Pass)
                    .map_err(|e| e.to_string())?;
                guard += 1;
                if guard > 50 {
                    return Err("`resolve` did not resolve anything".into());
                }
            }
            return Ok(());
        }
        if let Some(n) = line.strip_prefix("keep passing ") {
            // Up to N decisions: pass at priority, give the only legal answer elsewhere; stops
            // early at any other decision with a choice to make, or when the game ends (an
            // endless loop's draw).
            let n: u32 = n
                .trim()
                .parse()
                .map_err(|_| format!("`keep passing {n}`: not a number"))?;
            for _ in 0..n {
                let Some(p) = self.game.pending().cloned() else {
                    break;
                };
                let answer = if p.decision == Decision::Priority {
                    Answer::Pass
                } else {
                    let mut answers = self.game.legal_answers(p.player);
                    if answers.len() != 1 {
                        break;
                    }
                    answers.remove(0)
                };
                self.game
                    .submit(p.player, answer)
                    .map_err(|e| format!("`keep passing`: {e}"))?;
            }
            return Ok(());
        }
        if let Some(target) = line.strip_prefix("goto ") {
            let want =
                Step::from_key(target.trim()).ok_or_else(|| format!("unknown step `{target}`"))?;
            let mut guard = 0;
            // Everyone passes until the first decision in that step (a later turn's, if the
            // game is already in it).
            let start_turn = self.game.turn;
            let mut left_start = self.game.step != want;
            while !(left_start && self.game.step == want) {
                let p = self
                    .game
                    .pending()
                    .ok_or("`goto`: the game stopped")?
                    .clone();
                if p.decision != Decision::Priority {
                    return Err(format!(
                        "`goto {target}`: stopped at a {} decision for {} in the {}",
                        p.decision.kind_name(),
                        self.game.player(p.player).name,
                        self.game.step
                    ));
                }
                self.game
                    .submit(p.player, Answer::Pass)
                    .map_err(|e| e.to_string())?;
                left_start |= self.game.step != want || self.game.turn != start_turn;
                guard += 1;
                if guard > 200 {
                    return Err(format!("`goto {target}` never got there"));
                }
            }
            return Ok(());
        }
        let (reject, body) = match line.strip_prefix("reject ") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (body, reason) = match body.split_once("=>") {
            Some((b, r)) => (b.trim(), Some(r.trim().to_lowercase())),
            None => (body, None),
        };
        let (who, text) = body
            .split_once(':')
            .ok_or_else(|| format!("expected `player: answer`, found `{body}`"))?;
        let player = self.player(who)?;
        let answer = self.parse_answer(player, text.trim())?;
        let before = self.game.to_json().map_err(|e| e.to_string())?;
        match (self.game.submit(player, answer.clone()), reject) {
            (Ok(_), false) => Ok(()),
            (Err(e), false) => Err(format!("`{body}` was refused: {e}")),
            (Ok(_), true) => Err(format!(
                "`{body}` should have been refused but was accepted"
            )),
            (Err(e), true) => {
                let after = self.game.to_json().map_err(|e| e.to_string())?;
                if after != before {
                    return Err(format!("`{body}` was refused but the game changed"));
                }
                match reason {
                    Some(r) if !e.to_string().to_lowercase().contains(&r) => Err(format!(
                        "`{body}` was refused with \"{e}\", which does not mention \"{r}\""
                    )),
                    _ => Ok(()),
                }
            }
        }
    }

    /// Finds an object: `Name`, `Name@owner`, `Name#2` (second match), in the given zones.
    fn find(
        &self,
        spec: &str,
        zones: &[ZoneKind],
        default_owner: Option<PlayerId>,
    ) -> Result<ObjectId, String> {
        let (rest, nth) = match spec.rsplit_once('#') {
            Some((r, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                (r, n.parse::<usize>().unwrap_or(1))
            }
            _ => (spec, 1),
        };
        let (name, owner) = match rest.rsplit_once('@') {
            Some((n, o)) => (n.trim(), Some(self.player(o)?)),
            None => (rest.trim(), None),
        };
        let card = card_id(name)?;
        // A token may share a real card's name (Urza's Factory's Assembly-Worker).
        let token = Catalog::builtin().token_by_name(name).map(|d| d.id);
        let g = &self.game;
        let mut found = Vec::new();
        for z in zones {
            let ids: Vec<ObjectId> = match z {
                ZoneKind::Battlefield => g.battlefield.clone(),
                ZoneKind::Stack => g.stack.iter().rev().filter_map(|s| s.object()).collect(),
                ZoneKind::Exile => g.exile.clone(),
                ZoneKind::Hand => g.players.iter().flat_map(|p| p.hand.clone()).collect(),
                ZoneKind::Graveyard => g
                    .players
                    .iter()
                    .flat_map(|p| p.graveyard.iter().rev().copied().collect::<Vec<_>>())
                    .collect(),
                ZoneKind::Library => g
                    .players
                    .iter()
                    .flat_map(|p| p.library.iter().rev().copied().collect::<Vec<_>>())
                    .collect(),
            };
            for id in ids {
                let Some(o) = g.obj(id) else { continue };
                let who = if o.zone == ZoneKind::Battlefield || o.zone == ZoneKind::Stack {
                    o.controller
                } else {
                    o.owner
                };
                // The runner knows what a face-down object is; a copy is found by what it
                // copies or by the card it really is.
                if (o.face_up() == card || o.card == card || Some(o.card) == token)
                    && owner
                        .or(if *z == ZoneKind::Battlefield || *z == ZoneKind::Stack {
                            None
                        } else {
                            default_owner
                        })
                        .is_none_or(|w| w == who)
                {
                    found.push(id);
                }
            }
        }
        found
            .get(nth - 1)
            .copied()
            .ok_or_else(|| format!("no {spec} in {:?}", zones))
    }

    /// The split card and half a card spec names ("Boom", "Boom#2", "Boom@bob").
    fn split_half_named(&self, spec: &str) -> Option<(crate::ids::CardId, u8)> {
        let name = spec.split(['#', '@']).next().unwrap_or(spec).trim();
        Catalog::builtin().split_half_by_name(name)
    }

    fn parse_answer(&self, player: PlayerId, text: &str) -> Result<Answer, String> {
        let (verb, rest) = text
            .split_once(' ')
            .map_or((text, ""), |(a, b)| (a, b.trim()));
        use ZoneKind::*;
        Ok(match verb {
            "keep" => Answer::Keep,
            "pay_to_avoid" => Answer::PayToAvoid(
                rest.trim()
                    .parse::<u8>()
                    .map_err(|_| "pay_to_avoid N: the number of the delayed ability (1, 2...)")?
                    .saturating_sub(1),
            ),
            "yes" => Answer::Yes,
            "no" => Answer::No,
            "creature_type" => Answer::CreatureType(rest.trim().to_string()),
            "card_name" => Answer::CardName(rest.trim().to_string()),
            "mulligan" => Answer::Mulligan,
            "pass" => Answer::Pass,
            "concede" => Answer::Concede,
            "autopay" => Answer::AutoPay,
            "cancel" => Answer::Cancel,
            // A land in the hand, or one an effect lets the player play from exile
            // (`play Island@bob`: Grinning Totem).
            "play" => Answer::PlayLand(self.find(rest, &[Hand, Exile], Some(player))?),
            "cast" => {
                if let Some(card) = rest.strip_prefix("face down ") {
                    Answer::CastFaceDown(self.find(card, &[Hand], Some(player))?)
                } else if let Some(card) = rest.strip_prefix("flashback ") {
                    // `cast flashback Ancient Grudge`: the card in the graveyard.
                    Answer::Cast(self.find(card, &[Graveyard], Some(player))?)
                } else if let Some((card, half)) = self.split_half_named(rest) {
                    // `cast Boom`: that half of a split card in the hand (505.2 / 708.2).
                    let suffix = rest.find(['#', '@']).map_or("", |i| &rest[i..]);
                    let spec = format!("{}{suffix}", Catalog::builtin().get(card).name);
                    let card = self.find(&spec, &[Hand, Graveyard, Exile], Some(player))?;
                    Answer::CastSplit { card, half }
                } else {
                    Answer::Cast(self.find(rest, &[Hand, Graveyard, Exile], Some(player))?)
                }
            }
            "suspend" => Answer::Suspend(self.find(rest, &[Hand], Some(player))?),
            "transmute" | "forecast" => {
                // `transmute Tolaria West`, `forecast Spirit en-Dal`: its ability that works
                // from the hand (other than cycling).
                let card = self.find(rest, &[Hand], Some(player))?;
                let ability = self
                    .game
                    .hand_abilities(card)
                    .into_iter()
                    .find(|i| !self.game.is_cycling_ability(card, *i))
                    .unwrap_or(0);
                Answer::Activate {
                    source: card,
                    ability,
                }
            }
            "cycle" => {
                // `cycle Twisted Abomination`: its first cycling ability (own or granted);
                // a card without one is asked for its first ability (and refused).
                let card = self.find(rest, &[Hand], Some(player))?;
                let ability = self
                    .game
                    .hand_abilities(card)
                    .into_iter()
                    .find(|i| self.game.is_cycling_ability(card, *i))
                    .unwrap_or(0);
                Answer::Activate {
                    source: card,
                    ability,
                }
            }
            "turn" => match rest.strip_prefix("face up ") {
                Some(card) => Answer::TurnFaceUp(self.find(card, &[Battlefield, Stack], None)?),
                None => return Err(format!("`turn face up NAME`, not `turn {rest}`")),
            },
            "mode" => Answer::Mode(
                rest.parse::<u8>()
                    .map_err(|_| format!("bad mode `{rest}`"))?
                    .saturating_sub(1),
            ),
            "x" => Answer::X(rest.parse().map_err(|_| format!("bad X `{rest}`"))?),
            "option" => Answer::CostOption(
                rest.parse::<u8>()
                    .map_err(|_| format!("bad option `{rest}`"))?
                    .saturating_sub(1),
            ),
            "activate" => {
                let (card, n) = split_index(rest);
                // A permanent's ability, or one that works from the graveyard (Chronosavant)
                // or from exile while suspended (Greater Gargadon).
                let source = self.find(card, &[Battlefield, Graveyard, Exile], None)?;
                Answer::Activate {
                    source,
                    ability: self.nth_ability(source, n),
                }
            }
            "mana" => return self.parse_mana_answer(rest),
            "scry" => return self.parse_scry_answer(rest),
            _ => return self.parse_object_answer(player, verb, rest),
        })
    }

    /// The index of the n-th (0-based) ability of `source`: its card's own in printed order,
    /// then those static abilities grant it now ("All Slivers have ..."); `n` itself past
    /// the end.
    fn nth_ability(&self, source: ObjectId, n: u8) -> u8 {
        let own = self.game.def(source).map_or(0, |d| d.abilities.len());
        if (n as usize) < own {
            return n;
        }
        self.game
            .abilities_of(source)
            .filter(|(i, _)| {
                *i >= crate::cards::GRANTED_ABILITY && *i < crate::cards::GRANTED_CYCLING_ABILITY
            })
            .nth(n as usize - own)
            .map_or(n, |(i, _)| i)
    }

    /// `scry top Island, Swamp bottom Forest` (scry and fateseal): the names among the
    /// cards looked at, each list in order (top: the first listed on top; bottom: the last
    /// listed at the bottom); a name names the first such card not named yet.
    fn parse_scry_answer(&self, rest: &str) -> Result<Answer, String> {
        let Some(Decision::Scry { cards, .. }) = self.game.pending().map(|p| &p.decision) else {
            return Err("`scry ...` answers a scry or fateseal question".into());
        };
        let rest = format!(" {rest}");
        let (top, bottom) = match rest.split_once(" bottom") {
            Some((t, b)) => (t, b),
            None => (rest.as_str(), ""),
        };
        let top = top.trim().strip_prefix("top").unwrap_or(top.trim());
        let mut used: Vec<ObjectId> = Vec::new();
        let mut pick = |names: &str| -> Result<Vec<ObjectId>, String> {
            let mut v = Vec::new();
            for name in answer_list(names) {
                let card = card_id(&name)?;
                let is = |c: &ObjectId| self.game.objects[c.slot()].card == card;
                // A card named twice, or one not looked at, is given to the engine to refuse.
                let found = cards
                    .iter()
                    .copied()
                    .find(|c| is(c) && !used.contains(c))
                    .or_else(|| cards.iter().copied().find(is))
                    .or_else(|| {
                        self.game
                            .players
                            .iter()
                            .flat_map(|p| p.library.iter().copied())
                            .find(is)
                    })
                    .ok_or_else(|| format!("{name} is not among the cards looked at"))?;
                used.push(found);
                v.push(found);
            }
            Ok(v)
        };
        let top = pick(top)?;
        let bottom = pick(bottom)?;
        Ok(Answer::Scry { top, bottom })
    }

    /// `mana Gemstone Mine G`, `mana Prismatic Lens#1 #2 G`; several colour letters: an X
    /// mana ability (`mana Calciform Pools #3 W U`).
    fn parse_mana_answer(&self, rest: &str) -> Result<Answer, String> {
        // `mana Gemstone Mine G` or `mana Prismatic Lens#1 #2 G`; several colour
        // letters: an X mana ability (`mana Calciform Pools #3 W U`)
        let mut words: Vec<&str> = rest.split_whitespace().collect();
        let letters = words
            .iter()
            .rev()
            .take_while(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()))
            .count();
        if letters >= 2 {
            let colors = words[words.len() - letters..]
                .iter()
                .map(|w| {
                    w.chars()
                        .next()
                        .and_then(Color::from_letter)
                        .ok_or_else(|| format!("bad colour `{w}`"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let joined = words[..words.len() - letters].join(" ");
            let (card, ability) = split_index(&joined);
            let source = self.find(card, &[ZoneKind::Battlefield], None)?;
            return Ok(Answer::ActivateManaX {
                source,
                ability,
                colors,
            });
        }
        let color = words.last().and_then(|w| {
            if w.len() == 1 {
                Color::from_letter(w.chars().next()?)
            } else {
                None
            }
        });
        if color.is_some() {
            words.pop();
        }
        let joined = words.join(" ");
        let (card, ability) = split_index(&joined);
        let source = self.find(card, &[ZoneKind::Battlefield], None)?;
        let ability = if rest.contains(" #") {
            self.nth_ability(source, ability)
        } else {
            self.game
                .abilities_of(source)
                .into_iter()
                .find(|(_, a)| a.is_mana_ability())
                .map_or(0, |(i, _)| i)
        };
        let x_ability = self.game.abilities_of(source).into_iter().any(|(i, a)| {
            i == ability && matches!(a.mana, Some(crate::cards::ManaProduce::XCombination(_)))
        });
        if x_ability {
            return Ok(Answer::ActivateManaX {
                source,
                ability,
                colors: color.into_iter().collect(),
            });
        }
        Ok(Answer::ActivateMana {
            source,
            ability,
            color,
        })
    }

    /// Whether the pending decision is a target that is an ability on the stack (Trickbind).
    fn choosing_ability_target(&self) -> bool {
        matches!(
            self.game.pending().map(|p| &p.decision),
            Some(Decision::ChooseTarget { spec, .. }) if spec.kind.is_ability()
        )
    }

    /// `target Benalish Cavalry` at an ability target: the topmost ability on the stack
    /// whose source has that name (`target Benalish Cavalry #2`: the second from the top).
    fn ability_target(&self, rest: &str) -> Result<Target, String> {
        let (name, nth) = match rest.rsplit_once(" #") {
            Some((n, k)) => (
                n,
                k.parse::<usize>()
                    .map_err(|_| format!("bad index in `{rest}`"))?,
            ),
            None => (rest, 1),
        };
        // Willbender's "target spell or ability": a spell of that name too.
        let spells_too = matches!(
            self.game.pending().map(|p| &p.decision),
            Some(Decision::ChooseTarget { spec, .. })
                if spec.kind == crate::targets::TargetKind::SingleTargetSpellOrAbility
        );
        self.game
            .stack
            .iter()
            .rev()
            .filter(|s| {
                (s.serial.is_some() || (spells_too && s.is_spell()))
                    && self.game.catalog().get(s.card).name == name
            })
            .nth(nth.saturating_sub(1))
            .and_then(|s| {
                s.serial
                    .map(Target::Ability)
                    .or(s.object().map(Target::Object))
            })
            .ok_or_else(|| format!("no ability of {name} on the stack"))
    }

    /// The answers that name objects or players: targets, orders, assignments, choices,
    /// attacks and blocks.
    fn parse_object_answer(
        &self,
        player: PlayerId,
        verb: &str,
        rest: &str,
    ) -> Result<Answer, String> {
        use ZoneKind::*;
        Ok(match verb {
            "target" if self.choosing_ability_target() => {
                Answer::Target(self.ability_target(rest)?)
            }
            "target" => Answer::Target(match self.player(rest) {
                Ok(p) => Target::Player(p),
                Err(_) => Target::Object(self.find(
                    rest,
                    &[Battlefield, Stack, Graveyard, Exile],
                    None,
                )?),
            }),
            "order"
                if matches!(
                    self.game.pending().map(|p| &p.decision),
                    Some(Decision::OrderTriggers { .. } | Decision::OrderReplacements { .. })
                ) =>
            {
                // `order 2, 1`: the triggers as numbered in the decision, first on the stack first.
                let mut v = Vec::new();
                for item in answer_list(rest) {
                    let n: u8 = item
                        .parse()
                        .map_err(|_| format!("order triggers by number, found `{item}`"))?;
                    v.push(n.saturating_sub(1));
                }
                Answer::Order(v)
            }
            "assign" => {
                // `assign Squire 2, Ashcoat Bear 1, bob 1`
                let mut v = Vec::new();
                for item in answer_list(rest) {
                    let (who, n) = item
                        .rsplit_once(' ')
                        .ok_or_else(|| format!("assign as `Recipient N`, found `{item}`"))?;
                    let n: u32 = n.parse().map_err(|_| format!("bad amount in `{item}`"))?;
                    let t = match self.player(who) {
                        Ok(p) => Target::Player(p),
                        Err(_) => Target::Object(self.find(who, &[Battlefield], None)?),
                    };
                    v.push((t, n));
                }
                Answer::AssignDamage(v)
            }
            "choose" | "discard" | "sacrifice" | "search" | "order" => {
                let zones: &[ZoneKind] = match self.game.pending().map(|p| &p.decision) {
                    Some(Decision::Search { .. } | Decision::SeparatePiles { .. }) => &[Library],
                    Some(Decision::AuraSwap { .. }) => &[Hand],
                    Some(Decision::ChooseCostObjects {
                        part: crate::costs::CostPart::RemoveCounterFromYours(_),
                    }) => &[Battlefield, Exile],
                    Some(Decision::Sacrifice { .. })
                    | Some(Decision::ReturnToHand { .. })
                    | Some(Decision::SacrificeForDamage { .. })
                    | Some(Decision::ChooseCostObjects {
                        part:
                            crate::costs::CostPart::TapUntapped(..)
                            | crate::costs::CostPart::ReturnToHand(..)
                            | crate::costs::CostPart::Convoke(_),
                    })
                    | Some(Decision::KeepLegend { .. })
                    | Some(Decision::OrderBlockers { .. }) => &[Battlefield],
                    Some(Decision::ChooseCostObjects {
                        part: crate::costs::CostPart::Sacrifice(..),
                    }) => &[Battlefield],
                    Some(Decision::ChooseCopy { .. }) => &[Battlefield],
                    Some(Decision::Dredge { .. }) => &[Graveyard],
                    Some(Decision::ChooseCostObjects {
                        part:
                            crate::costs::CostPart::ExileFromGraveyard(..)
                            | crate::costs::CostPart::Delve(_),
                    }) => &[Graveyard],
                    _ => &[Hand],
                };
                // A copy may copy anyone's land; a cost may exile from any graveyard.
                let owner = match self.game.pending().map(|p| &p.decision) {
                    Some(Decision::ChooseCopy { .. }) => None,
                    // A search of another player's library (Grinning Totem).
                    Some(Decision::Search {
                        library: Some(lib), ..
                    }) => Some(*lib),
                    Some(Decision::ChooseCostObjects {
                        part: crate::costs::CostPart::ExileFromGraveyard(..),
                    }) => None,
                    _ => Some(player),
                };
                let mut v = Vec::new();
                for item in answer_list(rest) {
                    v.push(self.find(&item, zones, owner)?);
                }
                Answer::Objects(v)
            }
            "attack" => {
                let mut v = Vec::new();
                for item in answer_list(rest) {
                    let (who, at) = match item.split_once("->") {
                        Some((a, d)) => (a.trim().to_string(), Some(self.player(d)?)),
                        None => (item.clone(), None),
                    };
                    let attacker = self.find(&who, &[Battlefield], None)?;
                    let defender = at.unwrap_or_else(|| self.game.next_player_after(player));
                    v.push(Attack { attacker, defender });
                }
                Answer::Attack(v)
            }
            "block" => {
                let mut v = Vec::new();
                for item in answer_list(rest) {
                    let (b, a) = item
                        .split_once("->")
                        .ok_or_else(|| format!("block as `Blocker -> Attacker`, found `{item}`"))?;
                    v.push(Block {
                        blocker: self.find(b.trim(), &[Battlefield], None)?,
                        attacker: self.find(a.trim(), &[Battlefield], None)?,
                    });
                }
                Answer::Block(v)
            }
            other => return Err(format!("unknown answer `{other}`")),
        })
    }

    fn names_of(&self, ids: &[ObjectId]) -> Vec<String> {
        let mut v: Vec<String> = ids
            .iter()
            .map(|id| {
                // Face-down objects by their card's name (the runner sees everything).
                let card = self.game.objects[id.slot()].face_up();
                self.game.catalog().get(card).name.clone()
            })
            .collect();
        v.sort();
        v
    }

    fn check(&self, e: &Expect) -> Vec<String> {
        let mut out = Vec::new();
        self.check_game(e, &mut out);
        self.check_players(e, &mut out);
        self.check_permanents(e, &mut out);
        out
    }

    /// The game-wide expectations: the decision pending, the result, step, turn, stack.
    fn check_game(&self, e: &Expect, out: &mut Vec<String>) {
        let g = &self.game;
        if let Some(p) = &e.pending {
            let got = match g.pending() {
                Some(x) => format!(
                    "{}: {}",
                    self.names[x.player.index()],
                    x.decision.kind_name()
                ),
                None => "none".into(),
            };
            diff_into(out, "pending decision".into(), p.to_lowercase(), got);
        }
        if let Some(r) = &e.result {
            let got = match &g.result {
                Some(GameResult::Won(p)) => format!("{} wins", self.names[p.index()]),
                // "draw" is any draw; "draw by loop" only an endless mandatory loop's.
                Some(GameResult::Draw)
                    if r.eq_ignore_ascii_case("draw by loop")
                        && g.draw_reason == Some(crate::loops::DrawReason::MandatoryLoop) =>
                {
                    "draw by loop".into()
                }
                Some(GameResult::Draw) => "draw".into(),
                None => "none".into(),
            };
            diff_into(out, "result".into(), r.to_lowercase(), got);
        }
        if let Some(s) = &e.step {
            diff_into(out, "step".into(), s.clone(), g.step.key().to_string());
        }
        if let Some(t) = e.turn {
            diff_into(out, "turn".into(), t.to_string(), g.turn.to_string());
        }
        if let Some(st) = &e.stack {
            let got: Vec<String> = g.view(None).stack.into_iter().map(|s| s.name).collect();
            diff_into(
                out,
                "stack (top first)".into(),
                format!("{st:?}"),
                format!("{got:?}"),
            );
        }
    }

    /// The expectations about each player.
    fn check_players(&self, e: &Expect, out: &mut Vec<String>) {
        let g = &self.game;
        for (name, pe) in &e.players {
            let Ok(p) = self.player(name) else {
                out.push(format!("expectation for unknown player `{name}`"));
                continue;
            };
            let pl = g.player(p);
            let sorted = |v: &Vec<String>| {
                let mut v = v.clone();
                v.sort();
                format!("{v:?}")
            };
            if let Some(l) = pe.life {
                diff_into(
                    out,
                    format!("{name}.life"),
                    l.to_string(),
                    pl.life.to_string(),
                );
            }
            if let Some(n) = pe.poison {
                diff_into(
                    out,
                    format!("{name}.poison"),
                    n.to_string(),
                    pl.poison.to_string(),
                );
            }
            if let Some(h) = &pe.hand {
                diff_into(
                    out,
                    format!("{name}.hand"),
                    sorted(h),
                    format!("{:?}", self.names_of(&pl.hand)),
                );
            }
            if let Some(n) = pe.hand_count {
                diff_into(
                    out,
                    format!("{name}.hand_count"),
                    n.to_string(),
                    pl.hand.len().to_string(),
                );
            }
            if let Some(n) = pe.library_count {
                diff_into(
                    out,
                    format!("{name}.library_count"),
                    n.to_string(),
                    pl.library.len().to_string(),
                );
            }
            if let Some(top) = &pe.library_top {
                let got: Vec<String> = pl
                    .library
                    .iter()
                    .rev()
                    .take(top.len())
                    .map(|id| g.card_name(*id).to_string())
                    .collect();
                diff_into(
                    out,
                    format!("{name}.library_top"),
                    format!("{top:?}"),
                    format!("{got:?}"),
                );
            }
            if let Some(gy) = &pe.graveyard {
                diff_into(
                    out,
                    format!("{name}.graveyard"),
                    sorted(gy),
                    format!("{:?}", self.names_of(&pl.graveyard)),
                );
            }
            if let Some(ex) = &pe.exile {
                let mine: Vec<ObjectId> = g
                    .exile
                    .iter()
                    .copied()
                    .filter(|id| g.obj(*id).is_some_and(|o| o.owner == p))
                    .collect();
                diff_into(
                    out,
                    format!("{name}.exile"),
                    sorted(ex),
                    format!("{:?}", self.names_of(&mine)),
                );
            }
            if let Some(bf) = &pe.battlefield {
                let mine: Vec<ObjectId> = g.battlefield_of(p).map(|o| o.id).collect();
                diff_into(
                    out,
                    format!("{name}.battlefield"),
                    sorted(bf),
                    format!("{:?}", self.names_of(&mine)),
                );
            }
            if let Some(m) = &pe.mana_pool {
                diff_into(
                    out,
                    format!("{name}.mana_pool"),
                    m.clone(),
                    pl.pool.to_string(),
                );
            }
            if let Some(l) = pe.lost {
                diff_into(
                    out,
                    format!("{name}.lost"),
                    l.to_string(),
                    pl.lost.is_some().to_string(),
                );
            }
            if let Some(n) = pe.lands_played {
                diff_into(
                    out,
                    format!("{name}.lands_played"),
                    n.to_string(),
                    pl.lands_played.to_string(),
                );
            }
        }
    }

    /// The expectations about each object named.
    /// What `o` is attached to, in the words `want` uses when it is that (`expect.permanent`'s
    /// `attached_to`): a permanent, a player or `nothing`.
    fn attached_words(&self, o: &crate::object::Object, want: &str) -> String {
        let same = match (o.attached_to, o.attached_player) {
            (Some(to), _) => self.find(want, &[ZoneKind::Battlefield], None).ok() == Some(to),
            (None, Some(p)) => self.player(want).ok() == Some(p),
            (None, None) => want == "nothing",
        };
        if same {
            return want.to_string();
        }
        match (o.attached_to, o.attached_player) {
            (Some(to), _) => self.game.card_name(to).to_string(),
            (None, Some(p)) => self.names.get(p.index()).cloned().unwrap_or_default(),
            (None, None) => "nothing".into(),
        }
    }

    /// An object's name in player `who`'s view: a permanent, or a card in exile (face down:
    /// Magus of the Jar).
    fn seen_as(&self, who: &str, id: ObjectId) -> String {
        match self.player(who) {
            Ok(p) => {
                let v = self.game.view(Some(p));
                v.battlefield
                    .into_iter()
                    .find(|v| v.id == id)
                    .map(|v| v.name)
                    .or_else(|| v.exile.into_iter().find(|c| c.id == id).map(|c| c.name))
                    .unwrap_or_else(|| "(not in the view)".to_string())
            }
            Err(e) => e,
        }
    }

    fn check_permanents(&self, e: &Expect, out: &mut Vec<String>) {
        let g = &self.game;
        for pe in &e.permanent {
            let zone = match pe.zone.as_deref() {
                None | Some("battlefield") => ZoneKind::Battlefield,
                Some("hand") => ZoneKind::Hand,
                Some("graveyard") => ZoneKind::Graveyard,
                Some("library") => ZoneKind::Library,
                Some("exile") => ZoneKind::Exile,
                Some("stack") => ZoneKind::Stack,
                Some(z) => {
                    out.push(format!("permanent {}: unknown zone `{z}`", pe.card));
                    continue;
                }
            };
            let id = match self.find(&pe.card, &[zone], None) {
                Ok(id) => id,
                Err(err) => {
                    out.push(format!("permanent {}: {err}", pe.card));
                    continue;
                }
            };
            let Some(o) = g.obj(id) else { continue };
            let c = &pe.card;
            let mut d = |what: &str, want: String, got: String| {
                diff_into(out, format!("{c}.{what}"), want, got)
            };
            if let Some(t) = pe.tapped {
                d("tapped", t.to_string(), o.tapped.to_string());
            }
            if let Some(f) = pe.face_down {
                d("face_down", f.to_string(), o.face_down.to_string());
            }
            if let Some(w) = &pe.chosen {
                let got = g.chosen_words(o.id).unwrap_or_else(|| "nothing".into());
                // Player names print capitalised ("Bob"); scripts name them in lower case.
                let got = if got.eq_ignore_ascii_case(w) {
                    w.clone()
                } else {
                    got
                };
                d("chosen", w.clone(), got);
            }
            if let Some(p) = &pe.printed {
                d("printed", p.clone(), g.catalog().get(o.card).name.clone());
            }
            if let Some(w) = &pe.attached_to {
                d("attached_to", w.clone(), self.attached_words(o, w));
            }
            if let Some(w) = &pe.owner {
                let got = self.names.get(o.owner.index()).cloned().unwrap_or_default();
                d("owner", w.trim().to_lowercase(), got);
            }
            for (who, want) in pe.seen_as.iter().flatten() {
                let got = self.seen_as(who, id);
                d(&format!("seen by {who}"), want.clone(), got);
            }
            if let Some(n) = pe.damage {
                d("damage", n.to_string(), o.damage.to_string());
            }
            if let Some(p) = pe.power {
                d("power", p.to_string(), g.power(id).to_string());
            }
            if let Some(t) = pe.toughness {
                d("toughness", t.to_string(), g.toughness(id).to_string());
            }
            if let Some(s) = pe.sick {
                d(
                    "sick",
                    s.to_string(),
                    (!g.controlled_since_turn_start(id)).to_string(),
                );
            }
            if let Some(a) = pe.attacking {
                d(
                    "attacking",
                    a.to_string(),
                    g.combat
                        .as_ref()
                        .is_some_and(|c| c.is_attacking(id))
                        .to_string(),
                );
            }
            if let Some(ks) = &pe.keywords {
                for (name, want) in ks {
                    match name.parse::<crate::keywords::Keyword>() {
                        Ok(k) => d(
                            &format!("keywords.{name}"),
                            want.to_string(),
                            g.keyword_instances(id, k).to_string(),
                        ),
                        Err(e) => d(&format!("keywords.{name}"), "a known keyword".into(), e),
                    }
                }
            }
            for (list, want) in [(&pe.has, true), (&pe.lacks, false)] {
                for k in list.iter().flatten() {
                    match k.parse::<crate::keywords::Keyword>() {
                        Ok(kw) => d(
                            &format!("has {k}"),
                            want.to_string(),
                            g.has_keyword(id, kw).to_string(),
                        ),
                        Err(e) => out_err(&mut d, k, &e),
                    }
                }
            }
            if let Some(want) = &pe.colors {
                let have = g.colors(id);
                let got: String = crate::mana::Color::ALL
                    .into_iter()
                    .filter(|c| have.contains(*c))
                    .map(|c| c.letter())
                    .collect();
                d("colors", want.clone(), got);
            }
            for (list, want) in [(&pe.is, true), (&pe.is_not, false)] {
                for s in list.iter().flatten() {
                    // A card type (`Creature`, `Land`) or a subtype.
                    let got = match s.parse::<crate::types::CardType>() {
                        Ok(t) => g.has_type(id, t),
                        Err(_) => g.has_subtype(id, s),
                    };
                    d(&format!("is {s}"), want.to_string(), got.to_string());
                }
            }
            if let Some(cs) = &pe.counters {
                let want: BTreeMap<String, u32> = cs
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| (k.clone(), *n))
                    .collect();
                let got: BTreeMap<String, u32> = o
                    .counters
                    .0
                    .iter()
                    .map(|(k, n)| (k.to_string(), *n))
                    .collect();
                d("counters", format!("{want:?}"), format!("{got:?}"));
            }
        }
    }
}

fn diff_into(out: &mut Vec<String>, what: String, want: String, got: String) {
    if want != got {
        out.push(format!("{what}: expected {want}, got {got}"));
    }
}

fn out_err(d: &mut impl FnMut(&str, String, String), k: &str, e: &str) {
    d(&format!("has {k}"), "a keyword".into(), e.to_string());
}

fn split_index(s: &str) -> (&str, u8) {
    match s.rsplit_once(" #") {
        Some((card, n)) => (
            card.trim(),
            n.trim().parse::<u8>().unwrap_or(1).saturating_sub(1),
        ),
        None => (s.trim(), 0),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The items of a list answer, split at commas; a card name with a comma ("Dralnu, Lich
/// Lord") stays one item.
fn answer_list(s: &str) -> Vec<String> {
    // A card name with a comma ("Dralnu, Lich Lord") stays one item.
    let bare = |x: &str| -> String {
        let x = x.split(['@', '#']).next().unwrap_or(x).trim();
        x.rsplit_once(' ')
            .filter(|(_, n)| n.parse::<u32>().is_ok())
            .map_or(x, |(b, _)| b)
            .to_string()
    };
    let known = |x: &str| Catalog::builtin().by_name(&bare(x)).is_some();
    let mut out: Vec<String> = Vec::new();
    // In `Blocker -> Attacker` and `Attacker -> player`, the name a comma splits is the one
    // just before the comma (after the last `->`) and the one just after it (before the first).
    let tail = |x: &str| x.rsplit("->").next().unwrap_or(x).to_string();
    let head = |x: &str| x.split("->").next().unwrap_or(x).to_string();
    for piece in s.split(',').map(str::trim) {
        if let Some(last) = out.last_mut() {
            let joined = format!("{last}, {piece}");
            let name = format!("{}, {}", tail(last).trim(), head(piece).trim());
            if !known(&tail(last)) && known(&name) {
                *last = joined;
                continue;
            }
        }
        out.push(piece.to_string());
    }
    out.retain(|x| !x.is_empty() && x != "nothing");
    out
}

/// One permanent of a scenario's setup, on the battlefield under `p` (its Aura attachment
/// noted for when every permanent exists).
fn set_up_permanent(
    g: &mut Game,
    perm: &PermanentSetup,
    p: PlayerId,
    turn: u32,
    attachments: &mut Vec<(ObjectId, String)>,
) -> Result<(), String> {
    let (card, tapped, damage, counters, sick, attached, face_down) = match perm {
        PermanentSetup::Name(n) => (n.as_str(), false, 0, BTreeMap::new(), false, None, false),
        PermanentSetup::Full {
            card,
            tapped,
            damage,
            counters,
            sick,
            attached_to,
            face_down,
            ..
        } => (
            card.as_str(),
            *tapped,
            *damage,
            counters.clone(),
            *sick,
            attached_to.clone(),
            *face_down,
        ),
    };
    let id = g.create_object(card_id(card)?, p, ZoneKind::Battlefield);
    if let PermanentSetup::Full {
        chosen: Some(words),
        ..
    } = perm
    {
        let options = g.enter_choice_options(g.objects[id.slot()].card, p);
        let Some((_, c)) = options.iter().find(|(w, _)| w.eq_ignore_ascii_case(words)) else {
            let all: Vec<&str> = options.iter().map(|(w, _)| w.as_str()).collect();
            return Err(format!(
                "{card}: `chosen = \"{words}\"` is not one of: {}",
                all.join(", ")
            ));
        };
        g.objects[id.slot()].chosen = Some(*c);
    }
    if let Some(t) = attached {
        attachments.push((id, t));
    }
    let def = g.catalog().get(g.objects[id.slot()].card);
    g.objects[id.slot()].face_down = face_down;
    // A permanent set up face down entered face down: no "enters with".
    let enters_with = if face_down {
        Vec::new()
    } else {
        def.enters_with_counters.clone()
    };
    let is_token = def.support == crate::cards::Support::Token;
    if is_token {
        g.tokens_created = true;
    }
    let o = &mut g.objects[id.slot()];
    // A token definition on the battlefield is a token (it ceases to exist
    // elsewhere, 216.3 / S8).
    o.token = is_token;
    o.tapped = tapped;
    o.damage = damage;
    o.controlled_since = if sick { turn } else { 0 };
    // A permanent set up "sick" entered the battlefield this turn; any other, before it.
    o.entered_turn = if sick { turn } else { 0 };
    // A permanent set up "sick" came under its controller's control this turn
    // (after every earlier upkeep); any other, long before.
    if !sick {
        o.control_clock = 0;
    }
    if counters.is_empty() {
        for (k, n) in enters_with {
            o.counters.add(k, n);
        }
    }
    for (k, n) in counters {
        o.counters.add(k.parse::<CounterKind>()?, n);
    }
    Ok(())
}
