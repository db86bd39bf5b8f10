//! `spellstack local`: a game in the terminal against the random agent (or hot-seat), on
//! the same service, grammar and storage as the bot. Quitting keeps the game; running the
//! command again resumes it.

use crate::config::Config;
use crate::service::{AGENT_ID, DeckChoice, Service, ServiceError};
use engine::{PlayerId, Ruleset};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct LocalOpts {
    pub config: PathBuf,
    /// Overrides the config's database URL.
    pub db: Option<String>,
    pub name: String,
    pub hotseat: bool,
    pub opponent: String,
    pub deck: String,
    pub opponent_deck: String,
    pub ruleset: Option<Ruleset>,
    /// Start a new game even if one is in progress.
    pub new: bool,
    /// Write the board image (PNG) here at each decision.
    pub image: Option<PathBuf>,
}

impl Default for LocalOpts {
    fn default() -> Self {
        LocalOpts {
            config: PathBuf::from("config.toml"),
            db: None,
            name: "Player".into(),
            hotseat: false,
            opponent: "Opponent".into(),
            deck: "red".into(),
            opponent_deck: "green".into(),
            ruleset: None,
            new: false,
            image: None,
        }
    }
}

/// Plays until the game ends or the input ends (`quit`).
pub async fn run(
    opts: &LocalOpts,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Option<i64>> {
    let mut cfg = Config::load(&opts.config)?;
    if let Some(db) = &opts.db {
        cfg.database_url = db.clone();
    }
    let svc = Service::new(cfg).await?;
    let r = play(&svc, opts, input, out).await;
    svc.db.close().await;
    r
}

pub async fn play(
    svc: &Service,
    opts: &LocalOpts,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Option<i64>> {
    let me = svc
        .user(&format!("local:{}", opts.name), &opts.name)
        .await?;
    let other = if opts.hotseat {
        anyhow::ensure!(
            opts.opponent != opts.name,
            "the two hot-seat players need different names"
        );
        svc.user(&format!("local:{}", opts.opponent), &opts.opponent)
            .await?
    } else {
        svc.user(AGENT_ID, "Random Agent").await?
    };
    let mut game_id = None;
    if !opts.new {
        for g in svc.games_of(me).await? {
            if g.status != "active" {
                continue;
            }
            let seats = svc.db.seats(g.id).await?;
            if seats.len() == 2 && seats.iter().any(|s| s.user_id == other) {
                writeln!(out, "Resuming game {} (use --new for a fresh one).", g.id)?;
                game_id = Some(g.id);
                break;
            }
        }
    }
    let game_id = match game_id {
        Some(id) => id,
        None => {
            let plan = svc
                .challenge(
                    me,
                    &DeckChoice::Ready(opts.deck.clone()),
                    &[other],
                    opts.ruleset,
                    Default::default(),
                )
                .await?;
            let id = plan.game_id;
            if opts.hotseat {
                svc.accept(other, id, &DeckChoice::Ready(opts.opponent_deck.clone()))
                    .await?;
            }
            writeln!(
                out,
                "Game {id} started. Type `help` for what you can say, `quit` to stop (the game is saved)."
            )?;
            id
        }
    };
    let mut last_board_for: Option<(i64, PlayerId)> = None;
    loop {
        let loaded = svc.load(game_id).await?;
        if let Some(note) = &loaded.rebuilt {
            writeln!(out, "{note}")?;
        }
        let view_seat = loaded
            .game
            .pending()
            .map(|p| p.player)
            .or_else(|| loaded.seat_of(me));
        if loaded.game.result.is_some() {
            let seat = loaded.seat_of(me);
            write!(out, "{}", crate::board_text::board(&loaded.game.view(seat)))?;
            return Ok(Some(game_id));
        }
        let Some(p) = view_seat else {
            anyhow::bail!("game {game_id} waits for nobody")
        };
        let Some(user) = loaded.seats.get(p.index()).map(|s| s.user_id) else {
            anyhow::bail!("game {game_id} has no seat {p}")
        };
        if last_board_for != Some((loaded.row.version, p)) {
            writeln!(out)?;
            write!(
                out,
                "{}",
                crate::board_text::board(&loaded.game.view(Some(p)))
            )?;
            writeln!(
                out,
                "You may say: {}",
                crate::grammar::options(&loaded.game, p, false).join(" · ")
            )?;
            last_board_for = Some((loaded.row.version, p));
            if let Some(path) = &opts.image {
                let scene = crate::scene::board_scene(&loaded.game.view(Some(p)), &[]);
                let options = svc.cfg.images.render_options().unwrap_or_default();
                match render::board_png(&scene, &options) {
                    Ok(png) => match std::fs::write(path, png) {
                        Ok(()) => writeln!(out, "(board image: {})", path.display())?,
                        Err(e) => writeln!(out, "(cannot write {}: {e})", path.display())?,
                    },
                    Err(e) => writeln!(out, "(cannot draw the board: {e})")?,
                }
            }
        }
        write!(out, "{}> ", loaded.game.player(p).name)?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(
                out,
                "\nGame {game_id} saved; run `spellstack local` again to resume."
            )?;
            return Ok(Some(game_id));
        }
        let line = line.trim();
        if matches!(line, "quit" | "exit" | "q") {
            writeln!(
                out,
                "Game {game_id} saved; run `spellstack local` again to resume."
            )?;
            return Ok(Some(game_id));
        }
        if line.is_empty() {
            continue;
        }
        match svc.command(user, game_id, line, None).await {
            Ok(plan) => {
                for l in &plan.public {
                    writeln!(out, "{l}")?;
                }
                for t in plan.private_for(user) {
                    // The board is printed at the next decision; print what comes before it.
                    let before_board = t.split("\nTurn ").next().unwrap_or(t);
                    if !before_board.starts_with("Turn ") {
                        writeln!(out, "{}", before_board.trim_end())?;
                    }
                }
                if line == "board" {
                    last_board_for = None;
                }
            }
            Err(ServiceError::Stale { .. }) => {
                writeln!(out, "The game moved on; here is the new state.")?
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn local_game_saves_and_resumes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let opts = LocalOpts {
            config: dir.path().join("missing-config.toml"),
            db: Some(format!(
                "sqlite://{}",
                dir.path().join("local.db").display()
            )),
            ..Default::default()
        };
        let mut out = Vec::new();
        // `help`, the unknown word and `board` come at the opening-hand decision, the one
        // decision the player always has first: the game's seed is random, and when the agent
        // plays first and the player has nothing to do, the service passes the player's
        // whole turn up to a cleanup discard, where any word is read as a card name (`no
        // card matches`), not as an unknown command.
        let mut input = std::io::Cursor::new("help\nfrobnicate\nboard\nkeep\npass\nquit\n");
        let id = run(&opts, &mut input, &mut out)
            .await
            .expect("first run")
            .expect("a game");
        let text = String::from_utf8_lossy(&out).to_string();
        assert!(text.contains(&format!("Game {id} started")), "{text}");
        assert!(text.contains("You may say"), "{text}");
        assert!(
            text.contains("error: I did not understand `frobnicate`"),
            "{text}"
        );
        assert!(text.contains("saved"), "{text}");
        let mut out = Vec::new();
        let mut input = std::io::Cursor::new("pass\n");
        let again = run(&opts, &mut input, &mut out)
            .await
            .expect("second run")
            .expect("a game");
        let text = String::from_utf8_lossy(&out).to_string();
        assert_eq!(again, id);
        assert!(text.contains(&format!("Resuming game {id}")), "{text}");
        // Hot-seat: two names, one terminal; play a while with passes.
        let png = dir.path().join("board.png");
        let hot = LocalOpts {
            hotseat: true,
            name: "Ann".into(),
            opponent: "Ben".into(),
            new: true,
            image: Some(png.clone()),
            ..opts.clone()
        };
        let mut out = Vec::new();
        let mut input = std::io::Cursor::new("keep\nkeep\n".to_string() + &"pass\n".repeat(40));
        run(&hot, &mut input, &mut out).await.expect("hot-seat");
        let text = String::from_utf8_lossy(&out).to_string();
        assert!(text.contains("Ann> ") && text.contains("Ben> "), "{text}");
        assert!(
            std::fs::read(&png)
                .expect("board image")
                .starts_with(b"\x89PNG")
        );
    }
}
