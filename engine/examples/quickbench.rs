use engine::agent::RandomAgent;
use engine::{Catalog, Game, GameSetup, Ruleset};
use std::time::Instant;
fn main() {
    let c = Catalog::builtin();
    let args: Vec<String> = std::env::args().collect();
    let deck: Vec<_> = match args.get(1).map(|s| s.as_str()).unwrap_or("bears") {
        "bolt" => [
            vec![c.by_name("Mountain").unwrap().id; 20],
            vec![c.by_name("Test Bolt").unwrap().id; 40],
        ]
        .concat(),
        _ => [
            vec![c.by_name("Forest").unwrap().id; 20],
            vec![c.by_name("Test Bear").unwrap().id; 40],
        ]
        .concat(),
    };
    let games = 300;
    let t = Instant::now();
    let (mut dec, mut turns, mut done) = (0, 0, 0);
    for s in 0..games {
        let mut g = Game::new_with(
            &GameSetup::two_player(Ruleset::Modern, s, deck.clone(), deck.clone()),
            false,
        )
        .unwrap();
        let mut a = RandomAgent::new(s);
        while let Some(p) = g.pending() {
            let pl = p.player;
            let ans = a.choose(&g, pl);
            g.submit(pl, ans).unwrap();
            dec += 1;
            if dec > 100_000_000 {
                break;
            }
        }
        turns += g.turn;
        if g.result.is_some() {
            done += 1;
        }
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{} games/s, {} dec/s, {} turns/game, done {done}",
        games as f64 / e,
        dec as f64 / e,
        turns as f64 / games as f64
    );
}
