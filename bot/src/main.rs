//! `spellstack`: the one binary. Local play, the Discord bot, the scenario runner and the
//! bench live behind subcommands.

mod bench;
mod cli_engine;

use spellstack::{config, db_bench, local, service};

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "spellstack",
    version,
    about = "Rules-enforced Magic: The Gathering (Time Spiral era) for Discord"
)]
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
    /// Play in the terminal against the random agent (or hot-seat). Games are saved: without
    /// --game or --new, the games in progress are listed and offered.
    Local {
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database URL (overrides config.toml and DATABASE_URL).
        #[arg(long)]
        db: Option<String>,
        /// Resume game N (its ruleset, players and decks are the game's own).
        #[arg(long)]
        game: Option<i64>,
        /// Start a new game even if some are in progress.
        #[arg(long)]
        new: bool,
        /// Your name, for a new game (default Player).
        #[arg(long)]
        name: Option<String>,
        /// Two people at one terminal instead of the random agent.
        #[arg(long)]
        hotseat: bool,
        /// The second hot-seat player's name (default Opponent).
        #[arg(long)]
        opponent: Option<String>,
        /// Your deck: a ready-made one (red, green, white, blue, black, morph; default red) or a
        /// deck list file (`4 Lightning Axe` lines).
        #[arg(long)]
        deck: Option<String>,
        /// The second hot-seat player's deck (default green), or a deck list file.
        #[arg(long)]
        opponent_deck: Option<String>,
        /// modern (2014 rules) or classic (2006 rules); default from config.toml.
        #[arg(long)]
        ruleset: Option<String>,
        /// Write the board image (PNG) to this file at each decision.
        #[arg(long)]
        image: Option<PathBuf>,
    },
    /// How many cards of each set and rarity are playable, and why the others are not.
    Cards {
        /// Only this set: TSP, TSB (timeshifted), PLC or FUT.
        #[arg(long)]
        set: Option<String>,
    },
    /// Run the Discord bot (token from the DISCORD_TOKEN environment variable).
    Serve {
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database URL (overrides config.toml and DATABASE_URL).
        #[arg(long)]
        db: Option<String>,
    },
    /// Replay a stored game's log from its seed and report the first divergence.
    Replay {
        game: i64,
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<String>,
    },
    /// One league command in the terminal (`create NAME product 6 TSP`, `join`, `pool`,
    /// `deck save NAME: LIST`, `play`, `standings`, `me`, ...); `spellstack league help`.
    League {
        /// The command words.
        #[arg(required = true)]
        words: Vec<String>,
        /// Your name (the local user).
        #[arg(long, default_value = "Player")]
        name: String,
        /// The league (default: the newest open one).
        #[arg(long)]
        league: Option<String>,
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<String>,
    },
    /// Play a whole league between random agents through the service and print the final
    /// standings (a fresh SQLite file in the temp folder unless --db is given).
    LeagueSim {
        #[arg(long, default_value_t = 8)]
        players: usize,
        /// Sealed product (`6 TSP`, `2 TSP + 2 PLC + 2 FUT`) or `constructed`.
        #[arg(long, default_value = "6 TSP")]
        product: String,
        /// `swiss`, `swiss N`, `queue` or `round robin`.
        #[arg(long, default_value = "swiss")]
        schedule: String,
        #[arg(long, default_value_t = 3)]
        best_of: u32,
        /// The league's seed (default: random, printed): the same seed plays the same league.
        #[arg(long)]
        seed: Option<u64>,
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<String>,
    },
    /// Time one answer round trip (load, apply, save) on the database; prints p50/p99.
    DbBench {
        /// Configuration file (default: ./config.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database URL (default: a fresh SQLite file in the temp folder).
        #[arg(long)]
        db: Option<String>,
        #[arg(long, default_value_t = 2000)]
        answers: usize,
    },
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

fn init_tracing() {
    init_tracing_at("warn");
}

fn init_tracing_at(default: &str) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Colours only on a terminal: a log file or a pipe gets plain text.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}

fn report(r: anyhow::Result<ExitCode>) -> ExitCode {
    match r {
        Ok(c) => c,
        Err(e) => {
            eprintln!("spellstack: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn load_config(
    path: Option<&std::path::Path>,
    db: Option<String>,
) -> anyhow::Result<config::Config> {
    let mut cfg = config::Config::load_from(path)?;
    if let Some(db) = db {
        cfg.database_url = db;
    }
    Ok(cfg)
}

fn serve(config: Option<PathBuf>, db: Option<String>) -> ExitCode {
    init_tracing_at("info");
    report((|| {
        // Checked before anything else so that a missing token is the first thing said.
        spellstack::discord::token_from_env()?;
        let cfg = load_config(config.as_deref(), db)?;
        runtime()?.block_on(spellstack::discord::serve(cfg))?;
        Ok(ExitCode::SUCCESS)
    })())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(c) => run(c),
        None => run_default(),
    }
}

fn run_default() -> ExitCode {
    if std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty()) {
        return serve(None, None);
    }
    match Cli::parse_from(["spellstack", "local"]).command {
        Some(c) => run(c),
        None => ExitCode::FAILURE,
    }
}

fn run(command: Command) -> ExitCode {
    match command {
        Command::Scenario { files } => cli_engine::scenario(&files),
        Command::Bench {
            deck,
            games,
            seed,
            max_decisions,
        } => cli_engine::bench(&deck, games, seed, max_decisions),
        Command::Local {
            config,
            db,
            game,
            new,
            name,
            hotseat,
            opponent,
            deck,
            opponent_deck,
            ruleset,
            image,
        } => {
            init_tracing();
            report((|| {
                let ruleset = ruleset
                    .map(|r| r.parse::<engine::Ruleset>().map_err(anyhow::Error::msg))
                    .transpose()?;
                let opts = local::LocalOpts {
                    config,
                    db,
                    name,
                    hotseat,
                    opponent,
                    deck,
                    opponent_deck,
                    ruleset,
                    new,
                    game,
                    image,
                };
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut out = std::io::stdout();
                runtime()?.block_on(local::run(&opts, &mut input, &mut out))?;
                Ok(ExitCode::SUCCESS)
            })())
        }
        Command::Replay { game, config, db } => {
            init_tracing();
            report((|| {
                let cfg = load_config(config.as_deref(), db)?;
                runtime()?.block_on(async {
                    let svc = service::Service::new(cfg).await?;
                    let r = svc.check_replay(game).await?;
                    svc.db.close().await;
                    Ok(match r {
                        Ok(n) => {
                            println!("game {game}: {n} actions replayed from the seed; every state hash and the snapshot match");
                            ExitCode::SUCCESS
                        }
                        Err(d) => {
                            println!("game {game}: first divergence at {d}");
                            ExitCode::FAILURE
                        }
                    })
                })
            })())
        }
        Command::DbBench {
            config,
            db,
            answers,
        } => {
            init_tracing();
            report((|| {
                let mut tmp = None;
                let url = match db {
                    Some(u) => u,
                    None => {
                        let path = std::env::temp_dir()
                            .join(format!("spellstack-bench-{}.db", std::process::id()));
                        tmp = Some(path.clone());
                        format!("sqlite://{}", path.display())
                    }
                };
                let cfg = load_config(config.as_deref(), Some(url))?;
                let r = runtime()?.block_on(async {
                    let svc = service::Service::new(cfg).await?;
                    let r = db_bench::run(&svc, answers.max(1)).await;
                    svc.db.close().await;
                    r
                });
                if let Some(p) = tmp {
                    for suffix in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
                    }
                }
                println!("{}", r?);
                Ok(ExitCode::SUCCESS)
            })())
        }
        Command::League {
            words,
            name,
            league,
            config,
            db,
        } => {
            init_tracing();
            report((|| {
                let cfg = load_config(config.as_deref(), db)?;
                runtime()?.block_on(async {
                    let svc = service::Service::new(cfg).await?;
                    let me = svc.user(&format!("local:{name}"), &name).await?;
                    let r = svc
                        .league_words(me, 0, league.as_deref(), &words.join(" "), false)
                        .await;
                    svc.db.close().await;
                    match r {
                        Ok(r) => {
                            println!("{}", r.text.replace("```", ""));
                            for p in &r.plans {
                                for line in &p.public {
                                    println!("{line}");
                                }
                            }
                            Ok(ExitCode::SUCCESS)
                        }
                        Err(e) => {
                            println!("{e}");
                            Ok(ExitCode::FAILURE)
                        }
                    }
                })
            })())
        }
        Command::LeagueSim {
            players,
            product,
            schedule,
            best_of,
            seed,
            config,
            db,
        } => {
            init_tracing();
            report(league_sim(
                players, product, schedule, best_of, seed, config, db,
            ))
        }
        Command::Cards { set } => cli_engine::cards(set.as_deref()),
        Command::Serve { config, db } => serve(config, db),
    }
}

fn league_sim(
    players: usize,
    product: String,
    schedule: String,
    best_of: u32,
    seed: Option<u64>,
    config: Option<PathBuf>,
    db: Option<String>,
) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("spellstack-league-{}", std::process::id()));
    let url = match db {
        Some(u) => u,
        None => {
            std::fs::create_dir_all(&dir)?;
            format!("sqlite://{}", dir.join("league.db").display())
        }
    };
    let cfg = load_config(config.as_deref(), Some(url))?;
    let opts = spellstack::league_service::sim::SimOptions {
        players,
        product: (!product.trim().eq_ignore_ascii_case("constructed")).then_some(product),
        schedule,
        best_of,
        matches_per_run: None,
        tag: format!("{}", std::process::id()),
        seed,
    };
    let r = runtime()?.block_on(async {
        let svc = service::Service::new(cfg).await?;
        let r = spellstack::league_service::sim::simulate(&svc, &opts).await;
        svc.db.close().await;
        r.map_err(anyhow::Error::from)
    });
    let _ = std::fs::remove_dir_all(&dir);
    let r = r?;
    for line in &r.log {
        println!("{line}");
    }
    println!(
        "\n{} players, {} matches, {} games\n{}",
        r.players.len(),
        r.matches,
        r.games,
        r.standings.text.replace("```", "")
    );
    Ok(ExitCode::SUCCESS)
}
