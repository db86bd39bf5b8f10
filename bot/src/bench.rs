//! `spellstack bench`: seeded random-agent games with throughput and size figures.
//!
//! Each game i is seeded `seed + i`; both players use the same bench deck (`pool`: two
//! random two-colour decks of playable cards per game, `engine::agent::bench_decks`);
//! modern rules, 20 life. The timer covers only what the figures claim, the games: setting
//! each game up, the agent's choices and the engine's answers. Card loading, the bench's own
//! bookkeeping (decision kinds, its extra `legal_answers` call to count multi-option
//! decisions), JSON sizes and the final-state hash happen outside it, so the figures agree
//! with the engine's `quickbench` example.

use engine::agent::RandomAgent;
use engine::events::LossReason;
use engine::{Answer, Catalog, Game, GameSetup, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub deck: String,
    pub games: u64,
    pub seed: u64,
    /// Wall time of the whole run, bookkeeping included.
    pub seconds_wall: f64,
    /// Time in the games alone (the timer behind every rate below).
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

/// What the games of a run added up to (the bookkeeping outside the timer).
#[derive(Default)]
struct Tally {
    decisions: u64,
    multi: u64,
    multi_without_mana: u64,
    turns: u64,
    by_kind: BTreeMap<String, u64>,
    damage: u64,
    decking: u64,
    other: u64,
    loop_draws: u64,
    capped: u64,
    errors: u64,
    start_bytes: usize,
    end_bytes_total: usize,
    end_bytes_max: usize,
    hash: u64,
    /// Cards cast, suspended or activated.
    used: std::collections::HashSet<engine::CardId>,
    first_error: Option<String>,
}

impl Tally {
    /// Counts one decision: its kind and how many answers it lists, with and without mana
    /// abilities.
    fn decision(&mut self, g: &Game, player: engine::PlayerId, kind: &str) {
        *self.by_kind.entry(kind.to_string()).or_default() += 1;
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
    fn game_end(&mut self, g: &Game, failed: bool) {
        self.turns += g.turn as u64;
        if failed {
            self.errors += 1;
        } else if g.result.is_none() {
            self.capped += 1;
        } else if g.draw_reason == Some(engine::DrawReason::MandatoryLoop) {
            self.loop_draws += 1;
        } else {
            let reasons: Vec<&LossReason> =
                g.players.iter().filter_map(|p| p.lost.as_ref()).collect();
            if reasons.contains(&&LossReason::ZeroLife) {
                self.damage += 1;
            } else if reasons.contains(&&LossReason::DrewFromEmptyLibrary) {
                self.decking += 1;
            } else {
                self.other += 1;
            }
        }
        let bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        self.end_bytes_total += bytes;
        self.end_bytes_max = self.end_bytes_max.max(bytes);
        self.hash = (self.hash ^ g.state_hash()).wrapping_mul(0x100000001b3);
    }
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
    let mut t = Tally {
        hash: 0xcbf29ce484222325,
        ..Tally::default()
    };
    let mut timed = Duration::ZERO;
    let wall = Instant::now();
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let (a, b) = engine::agent::bench_decks(deck_name, s)?;
        let clock = Instant::now();
        let setup = GameSetup::two_player(Ruleset::Modern, s, a, b);
        let mut g = match Game::new_with(&setup, false) {
            Ok(g) => g,
            Err(e) => return Err(format!("setup failed: {e}")),
        };
        let mut agent = RandomAgent::new(s ^ 0x5eed);
        timed += clock.elapsed();
        if i == 0 {
            t.start_bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        }
        let mut n = 0u64;
        let mut failed = false;
        while let Some(p) = g.pending() {
            if n >= max_decisions {
                break;
            }
            let (player, kind) = (p.player, p.decision.kind_name());
            t.decision(&g, player, kind);
            let clock = Instant::now();
            let a = agent.choose(&g, player);
            // Kept for the error message only: wording every answer would cost the timer.
            let kept = t.first_error.is_none().then(|| a.clone());
            let events = g.submit(player, a);
            timed += clock.elapsed();
            match events {
                Ok(events) => t.events(&events),
                Err(e) => {
                    if let Some(kept) = kept {
                        t.first_error = Some(format!(
                            "game seeded {s}, decision {n} ({kind}): {kept:?} refused: {e}"
                        ));
                    }
                    failed = true;
                    break;
                }
            }
            n += 1;
        }
        t.decisions += n;
        t.game_end(&g, failed);
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
            .into_iter()
            .map(|(k, v)| (k, v as f64 / gf))
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
