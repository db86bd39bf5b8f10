//! Engine-only subcommands: `scenario` and `bench`.

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
