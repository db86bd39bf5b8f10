//! Soak run (issue 14; not part of CI): many random-agent games with `pool` decks (two random
//! two-colour 40-card decks of the block's playable cards per game), in one or both rulesets.
//!
//! For every game: each answer the agent picks is one the engine listed, so a refusal is an
//! engine error; a panic is caught and counted with its game's seed; a game still going at the
//! decision cap is counted as capped; the final state must round-trip through JSON; every
//! `REPLAY_EVERY`-th game is replayed from its setup and answers and must end in the same state.
//! A watchdog ends the run (exit 3) naming the game if no decision is made for two minutes (a
//! hang inside the engine). At the end it prints the counts, the first failure of each kind
//! (seed, ruleset, what happened) and the playable cards no game cast, suspended or activated.
//!
//! `cargo run --release -p spellstack-engine --example soak -- [GAMES] [SEED] [modern|classic|both]`
//! (defaults: 1000 games, seed 1, both rulesets; with `both`, game i plays in modern when i is
//! even and classic when it is odd).
use engine::agent::RandomAgent;
use engine::{Answer, Catalog, Event, Game, GameSetup, PlayerId, Ruleset};
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const MAX_DECISIONS: usize = 20_000;
const REPLAY_EVERY: u64 = 10;

/// How one game ended, as the soak counts it.
enum Outcome {
    Finished,
    Capped,
    Refused(String),
    RoundTrip(String),
    Replay(String),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rulesets: Vec<Ruleset> = match args.get(3).map(|s| s.as_str()).unwrap_or("both") {
        "modern" => vec![Ruleset::Modern],
        "classic" => vec![Ruleset::Classic],
        "both" => vec![Ruleset::Modern, Ruleset::Classic],
        other => {
            eprintln!("unknown ruleset {other:?}: modern, classic or both");
            std::process::exit(2);
        }
    };
    let _ = Catalog::builtin();
    // Quiet panics: each is reported once, with its game, below.
    std::panic::set_hook(Box::new(|_| {}));
    let progress = Arc::new(AtomicU64::new(0));
    let current = Arc::new(AtomicU64::new(seed));
    watchdog(progress.clone(), current.clone());

    let start = Instant::now();
    let mut used: HashSet<engine::CardId> = HashSet::new();
    let (mut finished, mut capped, mut decisions) = (0u64, 0u64, 0u64);
    let mut failures: Vec<(&str, u64, Ruleset, String)> = Vec::new();
    let mut counts = [0u64; 4]; // refused, panicked, round trip, replay
    for i in 0..games {
        if i > 0 && i % 1000 == 0 {
            eprintln!("{i} games, {:.0}s", start.elapsed().as_secs_f64());
        }
        let s = seed.wrapping_add(i);
        let rs = rulesets[(i % rulesets.len() as u64) as usize];
        current.store(s, Ordering::Relaxed);
        let run = catch_unwind(AssertUnwindSafe(|| {
            play(s, rs, i % REPLAY_EVERY == 0, &progress, &mut used)
        }));
        let (kind, what) = match run {
            Ok((n, Outcome::Finished)) => {
                decisions += n;
                finished += 1;
                continue;
            }
            Ok((n, Outcome::Capped)) => {
                decisions += n;
                capped += 1;
                continue;
            }
            Ok((_, Outcome::Refused(w))) => (0, w),
            Ok((_, Outcome::RoundTrip(w))) => (2, w),
            Ok((_, Outcome::Replay(w))) => (3, w),
            Err(p) => (1, panic_text(&p)),
        };
        counts[kind] += 1;
        const KINDS: [&str; 4] = ["refused answer", "panic", "JSON round trip", "replay"];
        if failures.iter().filter(|f| f.0 == KINDS[kind]).count() < 5 {
            failures.push((KINDS[kind], s, rs, what));
        }
    }
    let mut never: Vec<String> = engine::agent::playable_block_spells()
        .filter(|d| !used.contains(&d.id))
        .map(|d| d.name.clone())
        .collect();
    never.sort();
    let names: Vec<String> = rulesets.iter().map(|r| r.to_string()).collect();
    println!(
        "soak: {games} pool games from seed {seed} ({}), {:.0} s, {decisions} decisions",
        names.join(" + "),
        start.elapsed().as_secs_f64()
    );
    println!(
        "finished {finished}, capped at {MAX_DECISIONS} decisions {capped}, engine errors {} \
         (refused answers {}, panics {}, JSON round trips {}, replays {}; replay checked every {REPLAY_EVERY}th game)",
        counts.iter().sum::<u64>(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    for (kind, s, rs, what) in &failures {
        println!("  {kind}: game seeded {s} ({rs}): {what}");
    }
    println!(
        "playable nonland cards never cast, suspended or activated: {}{}",
        never.len(),
        if never.is_empty() {
            String::new()
        } else {
            format!(": {}", never.join(", "))
        }
    );
    if counts.iter().sum::<u64>() > 0 {
        std::process::exit(1);
    }
}

/// Plays one game; returns the decisions made and how it ended.
fn play(
    s: u64,
    rs: Ruleset,
    replay: bool,
    progress: &AtomicU64,
    used: &mut HashSet<engine::CardId>,
) -> (u64, Outcome) {
    let (a, b) = match engine::agent::bench_decks("pool", s) {
        Ok(d) => d,
        Err(e) => return (0, Outcome::Refused(format!("no pool decks: {e}"))),
    };
    let setup = GameSetup::two_player(rs, s, a, b);
    let mut g = match Game::new(&setup) {
        Ok(g) => g,
        Err(e) => return (0, Outcome::Refused(format!("setup failed: {e}"))),
    };
    let mut agent = RandomAgent::new(s ^ 0x50a4);
    let mut answers: Vec<(PlayerId, Answer)> = Vec::new();
    let mut n = 0usize;
    while let Some(p) = g.pending() {
        if n >= MAX_DECISIONS {
            return (n as u64, Outcome::Capped);
        }
        let player = p.player;
        let a = agent.choose(&g, player);
        let kept = a.clone();
        match g.submit(player, a) {
            Ok(events) => note_used(&events, used),
            Err(e) => {
                let d = g.pending().map(|p| format!("{:?}", p.decision));
                return (
                    n as u64,
                    Outcome::Refused(format!("decision {n} {d:?}: {kept:?} refused: {e}")),
                );
            }
        }
        if replay {
            answers.push((player, kept));
        }
        n += 1;
        progress.fetch_add(1, Ordering::Relaxed);
    }
    let n = n as u64;
    match g.to_json().map(|j| Game::from_json(&j)) {
        Ok(Ok(back)) if back == g => {}
        Ok(Ok(_)) => return (n, Outcome::RoundTrip("the state read back differs".into())),
        Ok(Err(e)) | Err(e) => return (n, Outcome::RoundTrip(e.to_string())),
    }
    if replay {
        let Ok(mut again) = Game::new(&setup) else {
            return (n, Outcome::Replay("setup failed on replay".into()));
        };
        for (k, (p, a)) in answers.into_iter().enumerate() {
            if let Err(e) = again.submit(p, a) {
                return (n, Outcome::Replay(format!("answer {k} refused: {e}")));
            }
        }
        if again != g {
            return (n, Outcome::Replay("the final states differ".into()));
        }
    }
    (n, Outcome::Finished)
}

/// The cards an answer's events show cast, suspended or activated.
fn note_used(events: &[Event], used: &mut HashSet<engine::CardId>) {
    for e in events {
        match e {
            Event::SpellCast { card, .. }
            | Event::Suspended { card, .. }
            | Event::AbilityActivated { card, .. } => {
                used.insert(*card);
            }
            _ => {}
        }
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Ends the run if no decision is made for two minutes, naming the game being played.
fn watchdog(progress: Arc<AtomicU64>, current: Arc<AtomicU64>) {
    std::thread::spawn(move || {
        let mut last = u64::MAX;
        loop {
            std::thread::sleep(Duration::from_secs(120));
            let now = progress.load(Ordering::Relaxed);
            if now == last {
                println!(
                    "hang: no decision for two minutes in the game seeded {}",
                    current.load(Ordering::Relaxed)
                );
                std::process::exit(3);
            }
            last = now;
        }
    });
}
