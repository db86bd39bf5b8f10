//! Runs every scenario file under `engine/scenarios/` (the acceptance tests).

use engine::scenario::{Outcome, run_str};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn all_scenarios_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(
        !files.is_empty(),
        "no scenario files found under {}",
        root.display()
    );
    let (mut passed, mut pending, mut failed) = (0, 0, Vec::new());
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable scenario");
        let report = run_str(&src);
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if report.name != stem && !matches!(report.outcome, Outcome::Failed(_)) {
            failed.push(format!(
                "{}: its name `{}` differs from the file name",
                f.display(),
                report.name
            ));
            continue;
        }
        match report.outcome {
            Outcome::Passed => passed += 1,
            Outcome::Pending(w) => {
                pending += 1;
                println!("pending {} (waiting for {w})", report.name);
            }
            Outcome::Failed(problems) => {
                failed.push(format!("{}:\n    {}", f.display(), problems.join("\n    ")))
            }
        }
    }
    println!(
        "scenarios: {passed} passed, {pending} pending, {} failed",
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} scenario(s) failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
