//! Engine-level bench (no bot build needed): seeded
//! random-agent games (`engine::agent::play_bench_game`, the loop `spellstack bench` times
//! too), game i seeded `seed + i`, both players with the same bench deck
//! (`pool`: two random two-colour decks of playable cards per game), modern rules, a
//! decision cap per game. The timer covers only the games (setup and play): card loading
//! and the final-state hash (a JSON dump of every final state) are outside it. Games ended
//! by an endless mandatory loop (a draw, 104.4b) are counted apart from the capped ones.
//!
//! `cargo run --release -p spellstack-engine --example quickbench -- [DECK] [GAMES] [SEED]`
//! DECK is a bench deck (`engine::agent::bench_deck`, or `pool`; default `bears`).
use engine::Catalog;
use engine::agent::{Ending, Unwatched, peak_rss_kib, play_bench_game};
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
        let decks = match engine::agent::bench_decks(name, s) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let t = Instant::now();
        let played = match play_bench_game(decks, s, MAX_DECISIONS, &mut Unwatched) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        timed += t.elapsed();
        let g = &played.game;
        if let Some((at, e)) = &played.refused
            && errors == 0
        {
            // The first engine error, to reproduce: the game's seed and the decision. A
            // refused answer changes nothing: the state is the one before it.
            eprintln!(
                "engine error in game seeded {s} at {at}: {:?} refused: {e}",
                g.pending().map(|p| &p.decision)
            );
            // QUICKBENCH_DUMP=FILE: that state, as JSON.
            if let Ok(path) = std::env::var("QUICKBENCH_DUMP") {
                let _ = std::fs::write(&path, g.to_json().unwrap_or_default());
                eprintln!("state written to {path}");
            }
        }
        dec += played.decisions;
        turns += g.turn as u64;
        let json = serde_json::to_vec(g).unwrap_or_default();
        largest_state = largest_state.max(json.len());
        for b in json {
            state_hash = (state_hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        *match played.ending() {
            Ending::EngineError => &mut errors,
            Ending::Capped => &mut capped,
            Ending::LoopDraw => &mut loop_draws,
            Ending::Damage => &mut damage,
            Ending::Decking => &mut decking,
            Ending::Other => &mut other,
        } += 1;
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
        peak_rss_kib().map_or_else(|| "unknown".into(), |k| format!("{k} kB"))
    );
}
