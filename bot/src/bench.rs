//! `spellstack bench`: seeded random-agent games with throughput and size figures.
//!
//! Card loading happens before the timer; game setup is inside it. Each game i is seeded
//! `seed + i`; both players use the same 60-card deck; modern rules, 20 life.

use engine::agent::RandomAgent;
use engine::events::LossReason;
use engine::{Catalog, Game, GameSetup, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub deck: String,
    pub games: u64,
    pub seed: u64,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Engine + agent: the run's time less the bench's own extra enumeration (below).
    pub games_per_sec: f64,
    /// The same, counting the bench's extra `legal_answers` call at every decision.
    pub games_per_sec_with_enumeration: f64,
    pub turns_per_game: f64,
    pub decisions: u64,
    pub decisions_per_sec: f64,
    pub decisions_per_sec_with_enumeration: f64,
    pub multi_option_decisions: u64,
    pub multi_option_decisions_per_sec: f64,
    /// Decisions per second counting only the time spent enumerating legal answers.
    pub enumeration_decisions_per_sec: f64,
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
}

pub fn run(
    deck_name: &str,
    games: u64,
    seed: u64,
    max_decisions: u64,
) -> Result<BenchReport, String> {
    let cards = engine::agent::bench_deck(deck_name)?;
    Catalog::load().map_err(|e| e.to_string())?;
    let _ = Catalog::builtin();
    let mut decisions = 0u64;
    let mut multi = 0u64;
    let mut turns = 0u64;
    let mut by_kind: BTreeMap<String, u64> = BTreeMap::new();
    let (mut damage, mut decking, mut other, mut capped, mut errors) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut loop_draws = 0u64;
    let mut start_bytes = 0usize;
    let mut end_bytes_total = 0usize;
    let mut end_bytes_max = 0usize;
    let mut hash: u64 = 0xcbf29ce484222325;
    let mut enum_time = Duration::ZERO;
    let t0 = Instant::now();
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let setup = GameSetup::two_player(Ruleset::Modern, s, cards.clone(), cards.clone());
        let mut g = match Game::new_with(&setup, false) {
            Ok(g) => g,
            Err(e) => return Err(format!("setup failed: {e}")),
        };
        if i == 0 {
            start_bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        }
        let mut agent = RandomAgent::new(s ^ 0x5eed);
        let mut n = 0u64;
        let mut failed = false;
        while let Some(p) = g.pending() {
            if n >= max_decisions {
                break;
            }
            let player = p.player;
            *by_kind
                .entry(p.decision.kind_name().to_string())
                .or_default() += 1;
            let te = Instant::now();
            let options = g.legal_answers(player).len();
            enum_time += te.elapsed();
            if options >= 2 {
                multi += 1;
            }
            let a = agent.choose(&g, player);
            if g.submit(player, a).is_err() {
                failed = true;
                break;
            }
            n += 1;
        }
        decisions += n;
        turns += g.turn as u64;
        if failed {
            errors += 1;
        } else if g.result.is_none() {
            capped += 1;
        } else if g.draw_reason == Some(engine::DrawReason::MandatoryLoop) {
            loop_draws += 1;
        } else {
            let reasons: Vec<&LossReason> =
                g.players.iter().filter_map(|p| p.lost.as_ref()).collect();
            if reasons.contains(&&LossReason::ZeroLife) {
                damage += 1;
            } else if reasons.contains(&&LossReason::DrewFromEmptyLibrary) {
                decking += 1;
            } else {
                other += 1;
            }
        }
        let bytes = g.to_json().map(|j| j.len()).unwrap_or(0);
        end_bytes_total += bytes;
        end_bytes_max = end_bytes_max.max(bytes);
        hash = (hash ^ g.state_hash()).wrapping_mul(0x100000001b3);
    }
    let wall = t0.elapsed().as_secs_f64();
    let secs = (wall - enum_time.as_secs_f64()).max(1e-9);
    let gf = games.max(1) as f64;
    Ok(BenchReport {
        deck: deck_name.to_string(),
        games,
        seed,
        seconds: wall,
        games_per_sec: games as f64 / secs,
        games_per_sec_with_enumeration: games as f64 / wall,
        turns_per_game: turns as f64 / gf,
        decisions,
        decisions_per_sec: decisions as f64 / secs,
        decisions_per_sec_with_enumeration: decisions as f64 / wall,
        multi_option_decisions: multi,
        multi_option_decisions_per_sec: multi as f64 / wall,
        enumeration_decisions_per_sec: decisions as f64 / enum_time.as_secs_f64().max(1e-9),
        mean_decisions_per_game_by_kind: by_kind
            .into_iter()
            .map(|(k, v)| (k, v as f64 / gf))
            .collect(),
        share_damage: damage as f64 / gf,
        share_decking: decking as f64 / gf,
        share_other_end: other as f64 / gf,
        share_loop_draw: loop_draws as f64 / gf,
        share_capped: capped as f64 / gf,
        share_engine_error: errors as f64 / gf,
        state_bytes_start: start_bytes,
        state_bytes_end_mean: end_bytes_total / games.max(1) as usize,
        state_bytes_end_max: end_bytes_max,
        final_state_hash: format!("{hash:016x}"),
    })
}
