//! `spellstack bench`: seeded random-agent games with throughput and size figures.
//!
//! Each game i is seeded `seed + i`; both players use the same bench deck (`pool`: two
//! random two-colour decks of playable cards per game, `engine::agent::bench_decks`);
//! modern rules, 20 life. The games are played twice:
//! - the **timed pass** plays them with nothing else in the loop (the engine's `quickbench`
//!   loop: setting each game up, the agent's choices and the engine's answers); every rate
//!   of the report comes from its timer alone;
//! - the **counting pass** plays the same games again, untimed, with the bookkeeping:
//!   decision kinds, an extra `legal_answers` per decision for the multi-option counts,
//!   the state's JSON size at every decision, the cards used and the first refused answer.
//!
//! Bookkeeping never runs between timed steps, so none of its reads (which fill the
//! engine's derived caches) can shorten the timed work. Both passes must end in the same
//! final states (the same hash), or the run fails: a seeded game is deterministic.

use engine::agent::{Ending, Played, Unwatched, Watch, peak_rss_kib, play_bench_game};
use engine::{Answer, Catalog, Game, GameSetup, PlayerId, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub deck: String,
    pub games: u64,
    pub seed: u64,
    /// Wall time of the whole run: both passes, bookkeeping included.
    pub seconds_wall: f64,
    /// Time in the games of the timed pass alone (the timer behind every rate below).
    pub seconds_games: f64,
    pub games_per_sec: f64,
    pub turns_per_game: f64,
    pub decisions: u64,
    pub decisions_per_sec: f64,
    /// Decisions with two or more legal answers, mana abilities counted as answers.
    pub multi_option_decisions: u64,
    pub multi_option_decisions_per_sec: f64,
    /// The same without mana abilities (the figure other engines report).
    pub multi_option_decisions_without_mana: u64,
    pub multi_option_decisions_without_mana_per_sec: f64,
    pub mean_decisions_per_game_by_kind: BTreeMap<String, f64>,
    pub share_damage: f64,
    pub share_decking: f64,
    pub share_other_end: f64,
    /// Games drawn by an endless loop of mandatory actions (104.4b), not by the cap.
    pub share_loop_draw: f64,
    pub share_capped: f64,
    pub share_engine_error: f64,
    pub state_bytes_start: usize,
    pub state_bytes_end_mean: usize,
    pub state_bytes_end_max: usize,
    /// The largest state JSON at any decision of any game (what a save stores).
    pub state_bytes_max: usize,
    /// The process's peak resident set after the timed pass (catalog and games alone), KiB
    /// (Linux `VmHWM`; absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_kib_games: Option<u64>,
    /// The same at the end of the run (the counting pass's bookkeeping included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_kib: Option<u64>,
    pub final_state_hash: String,
    /// `pool` only: the playable nonland cards of the block that no game of the run cast,
    /// suspended or activated (a soak run's coverage), by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards_never_used: Option<Vec<String>>,
    /// The first answer the engine refused (its game's seed, the decision, the answer and
    /// the reason), to reproduce it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_engine_error: Option<String>,
}

/// What the games of a run added up to (the counting pass's bookkeeping).
#[derive(Default)]
struct Tally {
    decisions: u64,
    multi: u64,
    multi_without_mana: u64,
    turns: u64,
    by_kind: BTreeMap<&'static str, u64>,
    damage: u64,
    decking: u64,
    other: u64,
    loop_draws: u64,
    capped: u64,
    errors: u64,
    start_bytes: usize,
    end_bytes_total: usize,
    end_bytes_max: usize,
    bytes_max: usize,
    hash: u64,
    /// Cards cast, suspended or activated.
    used: std::collections::HashSet<engine::CardId>,
    /// The answer being submitted, kept until the first refusal is worded.
    last_answer: Option<Answer>,
    first_error: Option<String>,
}

impl Watch for Tally {
    /// Counts one decision: its kind, how many answers it lists (with and without mana
    /// abilities) and the size of the state that asks it.
    fn before(&mut self, g: &Game, player: PlayerId) {
        if let Some(p) = g.pending() {
            *self.by_kind.entry(p.decision.kind_name()).or_default() += 1;
        }
        let legal = g.legal_answers(player);
        if legal.len() >= 2 {
            self.multi += 1;
        }
        let without = legal
            .iter()
            .filter(|a| {
                !matches!(
                    a,
                    Answer::ActivateMana { .. } | Answer::ActivateManaX { .. }
                )
            })
            .count();
        if without >= 2 {
            self.multi_without_mana += 1;
        }
        let bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        self.bytes_max = self.bytes_max.max(bytes);
    }

    fn answer(&mut self, a: &Answer) {
        if self.first_error.is_none() {
            self.last_answer = Some(a.clone());
        }
    }

    /// Notes the cards an answer's events show used.
    fn events(&mut self, events: &[engine::Event]) {
        for e in events {
            match e {
                engine::Event::SpellCast { card, .. }
                | engine::Event::Suspended { card, .. }
                | engine::Event::AbilityActivated { card, .. } => {
                    self.used.insert(*card);
                }
                _ => {}
            }
        }
    }
}

impl Tally {
    /// The playable nonland cards of the block none of the games used.
    fn never_used(&self) -> Vec<String> {
        let mut v: Vec<String> = engine::agent::playable_block_spells()
            .filter(|d| !self.used.contains(&d.id))
            .map(|d| d.name.clone())
            .collect();
        v.sort();
        v
    }

    /// Counts one finished (or stopped) game.
    fn game_end(&mut self, played: &Played, s: u64) {
        let g = &played.game;
        self.decisions += played.decisions;
        self.turns += g.turn as u64;
        if let Some((at, e)) = &played.refused
            && self.first_error.is_none()
        {
            let answer = self.last_answer.take();
            self.first_error = Some(format!("game seeded {s}, {at}: {answer:?} refused: {e}"));
        }
        *match played.ending() {
            Ending::EngineError => &mut self.errors,
            Ending::Capped => &mut self.capped,
            Ending::LoopDraw => &mut self.loop_draws,
            Ending::Damage => &mut self.damage,
            Ending::Decking => &mut self.decking,
            Ending::Other => &mut self.other,
        } += 1;
        let bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        self.end_bytes_total += bytes;
        self.end_bytes_max = self.end_bytes_max.max(bytes);
        self.bytes_max = self.bytes_max.max(bytes);
        self.hash = mix_hash(self.hash, g);
    }
}

/// The run's final-state hash with one more game's.
fn mix_hash(h: u64, g: &Game) -> u64 {
    (h ^ g.state_hash()).wrapping_mul(0x100000001b3)
}

const HASH_START: u64 = 0xcbf29ce484222325;

/// The timed pass: the games alone. Returns the time in them and their final-state hash.
fn timed_pass(
    deck_name: &str,
    games: u64,
    seed: u64,
    max_decisions: u64,
) -> Result<(Duration, u64), String> {
    let mut timed = Duration::ZERO;
    let mut hash = HASH_START;
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let decks = engine::agent::bench_decks(deck_name, s)?;
        let clock = Instant::now();
        let played = play_bench_game(decks, s, max_decisions, &mut Unwatched)?;
        timed += clock.elapsed();
        hash = mix_hash(hash, &played.game);
    }
    Ok((timed, hash))
}

pub fn run(
    deck_name: &str,
    games: u64,
    seed: u64,
    max_decisions: u64,
) -> Result<BenchReport, String> {
    Catalog::load().map_err(|e| e.to_string())?;
    let _ = Catalog::builtin();
    engine::agent::bench_decks(deck_name, seed)?;
    let wall = Instant::now();
    let (timed, timed_hash) = timed_pass(deck_name, games, seed, max_decisions)?;
    let peak_rss_kib_games = peak_rss_kib();
    let mut t = Tally {
        hash: HASH_START,
        ..Tally::default()
    };
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let decks = engine::agent::bench_decks(deck_name, s)?;
        if i == 0 {
            let setup = GameSetup::two_player(Ruleset::Modern, s, decks.0.clone(), decks.1.clone());
            let g = Game::new_with(&setup, false).map_err(|e| format!("setup failed: {e}"))?;
            t.start_bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        }
        let played = play_bench_game(decks, s, max_decisions, &mut t)?;
        t.game_end(&played, s);
    }
    if t.hash != timed_hash {
        return Err(format!(
            "the counting pass played other games than the timed pass (hash {:016x}, timed {timed_hash:016x}): a seeded game must replay alike",
            t.hash
        ));
    }
    let secs = timed.as_secs_f64().max(1e-9);
    let gf = games.max(1) as f64;
    let never_used = (deck_name == "pool").then(|| t.never_used());
    Ok(BenchReport {
        deck: deck_name.to_string(),
        games,
        seed,
        seconds_wall: wall.elapsed().as_secs_f64(),
        seconds_games: secs,
        games_per_sec: games as f64 / secs,
        turns_per_game: t.turns as f64 / gf,
        decisions: t.decisions,
        decisions_per_sec: t.decisions as f64 / secs,
        multi_option_decisions: t.multi,
        multi_option_decisions_per_sec: t.multi as f64 / secs,
        multi_option_decisions_without_mana: t.multi_without_mana,
        multi_option_decisions_without_mana_per_sec: t.multi_without_mana as f64 / secs,
        mean_decisions_per_game_by_kind: t
            .by_kind
            .iter()
            .map(|(k, v)| (k.to_string(), *v as f64 / gf))
            .collect(),
        share_damage: t.damage as f64 / gf,
        share_decking: t.decking as f64 / gf,
        share_other_end: t.other as f64 / gf,
        share_loop_draw: t.loop_draws as f64 / gf,
        share_capped: t.capped as f64 / gf,
        share_engine_error: t.errors as f64 / gf,
        state_bytes_start: t.start_bytes,
        state_bytes_end_mean: t.end_bytes_total / games.max(1) as usize,
        state_bytes_end_max: t.end_bytes_max,
        state_bytes_max: t.bytes_max,
        peak_rss_kib_games,
        peak_rss_kib: peak_rss_kib(),
        final_state_hash: format!("{:016x}", t.hash),
        cards_never_used: never_used,
        first_engine_error: t.first_error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_run_reports_its_games_and_both_multi_option_counts() {
        let r = run("pool", 3, 7, 20_000).expect("runs");
        assert_eq!(r.games, 3);
        assert_eq!(r.share_engine_error, 0.0, "{r:?}");
        assert!(r.decisions > 0);
        // Mana abilities only add answers: never fewer multi-option decisions with them.
        assert!(r.multi_option_decisions >= r.multi_option_decisions_without_mana);
        assert!(r.seconds_games <= r.seconds_wall);
        // Every decision's state is measured, the final ones among them.
        assert!(r.state_bytes_max >= r.state_bytes_end_max);
        assert!(r.state_bytes_end_max >= r.state_bytes_end_mean);
        if cfg!(target_os = "linux") {
            let (games, all) = (r.peak_rss_kib_games, r.peak_rss_kib);
            assert!(games.is_some_and(|g| all.is_some_and(|a| a >= g && g > 0)));
        }
        // The same seed, the same games.
        let again = run("pool", 3, 7, 20_000).expect("runs");
        assert_eq!(r.final_state_hash, again.final_state_hash);
        assert!(run("no-such-deck", 1, 1, 10).is_err());
        // Three games use some cards, never all of the block's.
        let never = r.cards_never_used.expect("pool lists its coverage");
        assert!(!never.is_empty());
        assert!(
            run("bears", 1, 1, 10)
                .expect("runs")
                .cards_never_used
                .is_none()
        );
    }
}
