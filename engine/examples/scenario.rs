//! Runs the named scenario files and prints each outcome, without building the bot:
//! `cargo run -p spellstack-engine --example scenario -- engine/scenarios/rulings/R-suspend-1.toml`
//! (`spellstack scenario FILE...` does the same from the product's binary).

use engine::scenario::{Outcome, run_str};

fn main() {
    let mut failed = 0;
    for path in std::env::args().skip(1) {
        let src = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                println!("{path}: can't read it: {e}");
                failed += 1;
                continue;
            }
        };
        let report = run_str(&src);
        match report.outcome {
            Outcome::Passed => println!("pass    {}", report.name),
            Outcome::Pending(w) => println!("pending {} (waiting for {w})", report.name),
            Outcome::Failed(problems) => {
                failed += 1;
                println!("FAIL    {}\n    {}", report.name, problems.join("\n    "));
            }
        }
    }
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
