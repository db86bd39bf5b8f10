//! Engine-only subcommands: `scenario` and `bench`.

use std::path::PathBuf;
use std::process::ExitCode;

pub fn scenario(files: &[PathBuf]) -> ExitCode {
    let _ = files;
    ExitCode::FAILURE
}

pub fn bench(deck: &str, games: u64, seed: u64, max_decisions: u64) -> ExitCode {
    let _ = (deck, games, seed, max_decisions);
    ExitCode::FAILURE
}
