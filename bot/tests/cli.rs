//! The `spellstack` binary as a newcomer runs it: plain logs off a terminal, clear errors
//! for a missing `--config` file and an unknown database URL.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spellstack"));
    cmd.args(args)
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_TOKEN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spellstack runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn logs_off_a_terminal_carry_no_colour() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("cli.db").display());
    let (ok, out, err) = run(
        &["local", "--db", &db, "--new"],
        "quit\n",
        &[("RUST_LOG", "debug")],
    );
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("To come back to it: spellstack local --game 1"),
        "{out}"
    );
    assert!(!err.trim().is_empty(), "debug logs were written");
    assert!(
        !err.contains('\u{1b}'),
        "no ANSI escapes in a piped log: {err}"
    );
}

#[test]
fn a_missing_config_and_an_unknown_database_are_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nope.toml");
    let (ok, _, err) = run(
        &["local", "--config", &missing.display().to_string()],
        "",
        &[],
    );
    assert!(!ok);
    assert!(
        err.contains("nope.toml") && err.contains("does not exist"),
        "{err}"
    );
    let (ok, _, err) = run(&["local", "--db", "mysql://localhost/x"], "", &[]);
    assert!(!ok);
    assert!(err.contains("is not understood"), "{err}");
}

/// `spellstack league-sim` plays a whole league by random agents and prints its final
/// standings (every player ranked, with the seed that replays it); bad options are a clear
/// error and a failing exit.
#[test]
fn league_sim_prints_the_final_standings_and_refuses_bad_options() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("sim.db").display());
    let (ok, out, err) = run(
        &[
            "league-sim",
            "--players",
            "4",
            "--product",
            "6 TSP",
            "--schedule",
            "swiss 2",
            "--best-of",
            "1",
            "--seed",
            "42",
            "--db",
            &db,
        ],
        "",
        &[],
    );
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("league seed 42"), "{out}");
    assert!(out.contains("4 players, 4 matches"), "{out}");
    let standings = out.rsplit("4 players, 4 matches").next().unwrap_or("");
    for i in 1..=4 {
        assert!(standings.contains(&format!("Agent {i}")), "{standings}");
    }
    for head in ["OMW%", "GW%", "OGW%"] {
        assert!(standings.contains(head), "{standings}");
    }
    for (args, want) in [
        (vec!["--players", "1"], "2 to 64 players"),
        (vec!["--product", "6 XYZ"], "XYZ"),
        (vec!["--best-of", "2"], "best of"),
    ] {
        let mut all = vec!["league-sim", "--db", &db];
        all.extend(args.iter().copied());
        let (ok, out, err) = run(&all, "", &[]);
        assert!(!ok, "{args:?}: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
