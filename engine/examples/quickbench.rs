//! Engine-level bench (no bot build needed), the same loop as `spellstack bench`: seeded
//! random-agent games, game i seeded `seed + i`, both players with the same bench deck
//! (`pool`: two random two-colour decks of playable cards per game), modern rules, a
//! decision cap per game. The timer covers only the games (setup and play): card loading
//! and the final-state hash (a JSON dump of every final state) are outside it. Games ended
//! by an endless mandatory loop (a draw, 104.4b) are counted apart from the capped ones.
//!
//! `cargo run --release -p spellstack-engine --example quickbench -- [DECK] [GAMES] [SEED]`
//! DECK is a bench deck (`engine::agent::bench_deck`, or `pool`; default `bears`).
use engine::agent::RandomAgent;
use engine::events::LossReason;
use engine::{Catalog, Game, GameSetup, Ruleset};
use std::time::{Duration, Instant};

const MAX_DECISIONS: u64 = 20_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map(|s| s.as_str()).unwrap_or("bears");
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let _ = Catalog::builtin();
    if let Err(e) = engine::agent::bench_decks(name, seed) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    let mut timed = Duration::ZERO;
    let mut largest_state = 0usize;
    let (mut dec, mut turns) = (0u64, 0u64);
    let (mut damage, mut decking, mut other, mut capped, mut errors) = (0, 0, 0, 0, 0);
    let mut loop_draws = 0;
    // FNV-1a over every final state's JSON: equal hashes, equal games (behaviour checks).
    let mut state_hash: u64 = 0xcbf2_9ce4_8422_2325;
    for i in 0..games {
        let s = seed.wrapping_add(i);
        let (a_deck, b_deck) = match engine::agent::bench_decks(name, s) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let t = Instant::now();
        let setup = GameSetup::two_player(Ruleset::Modern, s, a_deck, b_deck);
        let mut g = match Game::new_with(&setup, false) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("setup failed: {e}");
                std::process::exit(1);
            }
        };
        let mut a = RandomAgent::new(s ^ 0x5eed);
        let mut n = 0u64;
        let mut failed = false;
        while let Some(p) = g.pending() {
            if n >= MAX_DECISIONS {
                break;
            }
            let pl = p.player;
            let ans = a.choose(&g, pl);
            // Kept for the error message only (wording it every time costs the timer).
            let kept = ans.clone();
            if let Err(e) = g.submit(pl, ans) {
                let shown = format!("{kept:?}");
                if errors == 0 {
                    // The first engine error, to reproduce: the game's seed and the answer.
                    eprintln!(
                        "engine error in game seeded {s} after {n} decisions: {:?} refused {shown}: {e}",
                        g.pending().map(|p| &p.decision)
                    );
                    // QUICKBENCH_DUMP=FILE: the state before the refused answer, as JSON.
                    if let Ok(path) = std::env::var("QUICKBENCH_DUMP") {
                        let _ = std::fs::write(&path, g.to_json().unwrap_or_default());
                        eprintln!("state written to {path}");
                    }
                }
                failed = true;
                break;
            }
            n += 1;
        }
        timed += t.elapsed();
        dec += n;
        turns += g.turn as u64;
        let json = serde_json::to_vec(&g).unwrap_or_default();
        largest_state = largest_state.max(json.len());
        for b in json {
            state_hash = (state_hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
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
    }
    let e = timed.as_secs_f64().max(1e-9);
    let share = |x: u64| 100.0 * x as f64 / games.max(1) as f64;
    println!(
        "{name}: {games} games, {:.0} games/s, {:.0} decisions/s, {:.1} turns/game; \
         damage {:.1}%, decking {:.1}%, other {:.1}%, loop draw {:.1}%, capped {:.1}%, \
         engine errors {:.1}%",
        games as f64 / e,
        dec as f64 / e,
        turns as f64 / games.max(1) as f64,
        share(damage),
        share(decking),
        share(other),
        share(loop_draws),
        share(capped),
        share(errors),
    );
    println!("{name}: decisions {dec}, turns {turns}, final_state_hash {state_hash:016x}");
    println!(
        "{name}: largest final state {largest_state} bytes of JSON, peak RSS {}",
        peak_rss()
    );
}

/// The process's peak resident set (Linux `VmHWM`), or "unknown".
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
