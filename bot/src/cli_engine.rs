//! Engine-only subcommands: `scenario`, `bench` and `cards`.

use engine::scenario::{Outcome, run_str};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "toml") {
                collect(&e, out);
            }
        }
    } else {
        out.push(p.to_path_buf());
    }
}

/// Runs scenario files (or folders of them) and prints pass/fail with the differences.
pub fn scenario(paths: &[PathBuf]) -> ExitCode {
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files);
    }
    let (mut passed, mut pending, mut failed) = (0, 0, 0);
    for f in &files {
        let src = match std::fs::read_to_string(f) {
            Ok(s) => s,
            Err(e) => {
                println!("FAIL {}: can't read it: {e}", f.display());
                failed += 1;
                continue;
            }
        };
        let r = run_str(&src);
        match r.outcome {
            Outcome::Passed => {
                passed += 1;
                println!("pass {} ({})", r.name, f.display());
            }
            Outcome::Pending(w) => {
                pending += 1;
                println!("pending {} (waiting for {w})", r.name);
            }
            Outcome::Failed(problems) => {
                failed += 1;
                println!("FAIL {} ({})", r.name, f.display());
                for p in problems {
                    println!("    {p}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed, {pending} skipped");
    if failed > 0 || files.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

pub fn bench(deck: &str, games: u64, seed: u64, max_decisions: u64) -> ExitCode {
    match crate::bench::run(deck, games, seed, max_decisions) {
        Ok(report) => match serde_json::to_string(&report) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("bench: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The block's sets in their release order, with their names.
const SETS: &[(&str, &str)] = &[
    ("TSP", "Time Spiral"),
    ("TSB", "Time Spiral timeshifted"),
    ("PLC", "Planar Chaos"),
    ("FUT", "Future Sight"),
];

/// The report of `spellstack cards`: per set and rarity how many cards are playable, then
/// every card that is not, with its reason. `set` narrows it to one set code.
pub fn cards_report(set: Option<&str>) -> Result<String, String> {
    use engine::cards::{Catalog, Support};
    use std::fmt::Write;
    let wanted: Vec<&(&str, &str)> = match set {
        None => SETS.iter().collect(),
        Some(s) => {
            let code = s.trim().to_ascii_uppercase();
            let found: Vec<_> = SETS.iter().filter(|(c, _)| *c == code).collect();
            if found.is_empty() {
                return Err(format!(
                    "no set `{s}` in the block: say one of {}",
                    SETS.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")
                ));
            }
            found
        }
    };
    let cat = Catalog::builtin();
    let mut out = String::new();
    let mut missing = String::new();
    let (mut all_ok, mut all_n) = (0, 0);
    for (code, title) in wanted {
        let cards: Vec<_> = cat
            .cards()
            .iter()
            .filter(|c| c.sets.iter().any(|s| s == code))
            .filter(|c| !matches!(c.support, Support::TestOnly | Support::Token))
            .collect();
        let ok = cards
            .iter()
            .filter(|c| c.support == Support::Supported)
            .count();
        all_ok += ok;
        all_n += cards.len();
        let _ = writeln!(out, "{code} {title}: {ok} of {} playable", cards.len());
        for rarity in ["common", "uncommon", "rare", "special"] {
            let of: Vec<_> = cards.iter().filter(|c| c.rarity == rarity).collect();
            if of.is_empty() {
                continue;
            }
            let ok = of
                .iter()
                .filter(|c| c.support == Support::Supported)
                .count();
            let _ = writeln!(out, "  {rarity}: {ok} of {}", of.len());
        }
        let mut not: Vec<_> = cards
            .iter()
            .filter_map(|c| match &c.support {
                Support::Unsupported(why) => Some((c.name.as_str(), why.as_str())),
                _ => None,
            })
            .collect();
        not.sort();
        if !not.is_empty() {
            let _ = writeln!(missing, "\nNot playable yet in {code} ({}):", not.len());
            for (name, why) in not {
                let _ = writeln!(missing, "  {name}: {why}");
            }
        }
    }
    if set.is_none() {
        let _ = writeln!(out, "The block: {all_ok} of {all_n} playable");
    }
    out.push_str(&missing);
    Ok(out)
}

/// `spellstack cards [--set TSP]`.
pub fn cards(set: Option<&str>) -> ExitCode {
    match cards_report(set) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod cards_tests {
    use super::cards_report;

    #[test]
    fn the_block_is_counted_per_set_and_rarity_with_reasons() {
        let r = cards_report(None).expect("report");
        let total: usize = r
            .lines()
            .find_map(|l| l.strip_prefix("The block: "))
            .and_then(|l| l.split(" of ").nth(1))
            .and_then(|n| n.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a block total line");
        assert_eq!(total, 752, "{r}");
        assert!(r.contains("TSP Time Spiral: "), "{r}");
        assert!(r.contains("  special: "), "timeshifted rarity: {r}");
        // Playable cards are not listed; an unplayable card comes with its reason.
        assert!(!r.contains("  Rift Bolt:"), "{r}");
        assert!(
            r.lines()
                .any(|l| l.starts_with("  ") && l.contains(": its text")),
            "{r}"
        );
    }

    #[test]
    fn one_set_only_and_a_wrong_set_is_named() {
        let r = cards_report(Some("plc")).expect("report");
        assert!(r.starts_with("PLC Planar Chaos: "), "{r}");
        assert!(!r.contains("TSP Time Spiral"), "{r}");
        assert!(!r.contains("The block:"), "{r}");
        let e = cards_report(Some("M14")).expect_err("unknown set");
        assert!(
            e.contains("no set `M14`") && e.contains("TSP, TSB, PLC, FUT"),
            "{e}"
        );
    }
}
