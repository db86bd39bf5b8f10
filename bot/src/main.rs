//! `spellstack`: the one binary. Local play, the Discord bot, the scenario runner and the
//! bench live behind subcommands.

mod cli_engine;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "spellstack", version, about = "Rules-enforced Magic: The Gathering (Time Spiral era) for Discord")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run scenario files (board + answers + expected outcome) and print pass/fail.
    Scenario {
        /// Scenario files or folders.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Play N games between seeded random agents and print one JSON line of figures.
    Bench {
        #[arg(long, default_value = "bears")]
        deck: String,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Decision cap per game (games reaching it are reported as capped).
        #[arg(long, default_value_t = 20_000)]
        max_decisions: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Scenario { files }) => cli_engine::scenario(&files),
        Some(Command::Bench { deck, games, seed, max_decisions }) => cli_engine::bench(&deck, games, seed, max_decisions),
        None => {
            eprintln!("spellstack: choose a subcommand (see `spellstack --help`)");
            ExitCode::FAILURE
        }
    }
}
