//! `spellstack local`: a game in the terminal against the random agent (or hot-seat), on
//! the same service, grammar and storage as the bot.
//!
//! Which game: `--game N` resumes game N, `--new` starts one, and without either the games
//! in progress are listed and offered (a new game starts when there is none). A resumed
//! game keeps its own ruleset, players and decks (flags for new games are ignored, and said
//! so), and shows its last few log lines. Hot-seat hands are shown only after "pass the
//! keyboard to X, press Enter". `quit` (or the end of the input) saves and says the exact
//! command that comes back to the game.

use crate::config::Config;
use crate::decks::Format;
use crate::grammar::{self, Command};
use crate::service::{AGENT_ID, DeckChoice, Loaded, Service, ServiceError};
use crate::storage::Id;
use engine::{PlayerId, Ruleset};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The agent's display name (a local player may not take it).
pub const AGENT_NAME: &str = "Random Agent";

/// How many log lines a resumed game shows.
const RESUME_LINES: usize = 6;

#[derive(Debug, Clone, Default)]
pub struct LocalOpts {
    /// `--config FILE` (must exist); None: `./config.toml` if present, else the defaults.
    pub config: Option<PathBuf>,
    /// Overrides the config's database URL.
    pub db: Option<String>,
    /// Your name (new games; default `Player`).
    pub name: Option<String>,
    pub hotseat: bool,
    /// The second hot-seat player's name (default `Opponent`).
    pub opponent: Option<String>,
    /// A ready-made deck key or a deck list file (default `red`).
    pub deck: Option<String>,
    /// The second hot-seat player's deck (default `green`).
    pub opponent_deck: Option<String>,
    pub ruleset: Option<Ruleset>,
    /// Start a new game even if some are in progress.
    pub new: bool,
    /// Resume this game.
    pub game: Option<Id>,
    /// Write the board image (PNG) here at each decision.
    pub image: Option<PathBuf>,
}

impl LocalOpts {
    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("Player")
    }
    fn opponent(&self) -> &str {
        self.opponent.as_deref().unwrap_or("Opponent")
    }

    /// The command that comes back to `game_id` with the same database.
    pub fn resume_command(&self, game_id: Id) -> String {
        let mut c = format!("spellstack local --game {game_id}");
        if let Some(p) = &self.config {
            c.push_str(&format!(" --config {}", p.display()));
        }
        if let Some(db) = &self.db {
            c.push_str(&format!(" --db {db}"));
        }
        c
    }

    /// The flags given that only shape a new game (ignored when resuming).
    fn new_game_flags(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for (given, flag) in [
            (self.name.is_some(), "--name"),
            (self.hotseat, "--hotseat"),
            (self.opponent.is_some(), "--opponent"),
            (self.deck.is_some(), "--deck"),
            (self.opponent_deck.is_some(), "--opponent-deck"),
            (self.ruleset.is_some(), "--ruleset"),
        ] {
            if given {
                v.push(flag);
            }
        }
        v
    }
}

/// Plays until the game ends or the player quits; returns the game played (None: none).
pub async fn run(
    opts: &LocalOpts,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Option<Id>> {
    let mut cfg = Config::load_from(opts.config.as_deref())?;
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
) -> anyhow::Result<Option<Id>> {
    anyhow::ensure!(
        !(opts.new && opts.game.is_some()),
        "--new starts a game and --game resumes one: give only one of them"
    );
    let Some((game_id, resumed)) = choose_game(svc, opts, input, out).await? else {
        return Ok(None);
    };
    Session::new(svc, opts, game_id)
        .await?
        .run(resumed, input, out)
        .await
}

/// A line of input: None at the end of the input; `Err` for a line that is not UTF-8.
fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<Result<String, ()>>> {
    let mut buf = Vec::new();
    if input.read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    Ok(Some(
        String::from_utf8(buf)
            .map(|s| s.trim().to_string())
            .map_err(|_| ()),
    ))
}

const NOT_UTF8: &str = "That line is not valid UTF-8 text, so it was ignored; type it again.";

/// One line about a game in progress: its players, turn, ruleset and whose decision.
pub fn summary(l: &Loaded) -> String {
    let g = &l.game;
    let names: Vec<String> = g.player_ids().map(|p| g.player(p).name.clone()).collect();
    let waiting = match g.pending() {
        Some(p) => format!(", waiting for {}", g.player(p.player).name),
        None => String::new(),
    };
    let turn = if g.turn == 0 {
        "opening hands".to_string()
    } else {
        format!("turn {}", g.turn)
    };
    format!(
        "game {}: {} · {turn} · {} rules{waiting}",
        l.row.id,
        names.join(" vs "),
        g.ruleset
    )
}

/// Whether every seat of a game is a local player or the agent.
async fn is_local(svc: &Service, l: &Loaded) -> anyhow::Result<bool> {
    if l.row.guild_id.is_some() {
        return Ok(false);
    }
    for s in &l.seats {
        let Some(u) = svc.db.user(s.user_id).await? else {
            return Ok(false);
        };
        // League agents (`agent:league-...`) play local league games too.
        if !(u.external_id.starts_with("local:")
            || crate::league_service::is_agent_external(&u.external_id))
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The game to play: (id, whether it is resumed). None: nothing chosen (end of input).
async fn choose_game(
    svc: &Service,
    opts: &LocalOpts,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<Option<(Id, bool)>> {
    if let Some(id) = opts.game {
        let l = match svc.load(id).await {
            Ok(l) => l,
            Err(ServiceError::NoGame(_)) => {
                anyhow::bail!(
                    "there is no game {id} here; run `spellstack local` to list the games in progress"
                )
            }
            Err(e) => return Err(e.into()),
        };
        anyhow::ensure!(
            is_local(svc, &l).await?,
            "game {id} is played on Discord, not in the terminal"
        );
        anyhow::ensure!(
            l.row.status == "active",
            "game {id} is {}; run `spellstack local` to list the games in progress",
            if l.row.status == "finished" {
                "over"
            } else {
                l.row.status.as_str()
            }
        );
        return Ok(Some((id, true)));
    }
    if opts.new {
        return new_game(svc, opts, out).await.map(|id| Some((id, false)));
    }
    let mut games = Vec::new();
    for id in svc.db.local_games().await? {
        if let Ok(l) = svc.load(id).await {
            games.push((id, summary(&l)));
        }
    }
    if games.is_empty() {
        return new_game(svc, opts, out).await.map(|id| Some((id, false)));
    }
    writeln!(out, "Games in progress:")?;
    for (_, s) in &games {
        writeln!(out, "  {s}")?;
    }
    writeln!(
        out,
        "Type a game number to resume it (Enter: game {}), `new` for a new game, or `quit`.",
        games[0].0
    )?;
    loop {
        write!(out, "game> ")?;
        out.flush()?;
        let line = match read_line(input)? {
            None => return Ok(None),
            Some(Err(())) => {
                writeln!(out, "{NOT_UTF8}")?;
                continue;
            }
            Some(Ok(l)) => l,
        };
        let t = line.trim_start_matches("game").trim().to_lowercase();
        match t.as_str() {
            "" => return Ok(Some((games[0].0, true))),
            "new" | "n" => return new_game(svc, opts, out).await.map(|id| Some((id, false))),
            "quit" | "q" | "exit" => return Ok(None),
            _ => {}
        }
        match t.parse::<Id>() {
            Ok(id) if games.iter().any(|g| g.0 == id) => return Ok(Some((id, true))),
            _ => writeln!(
                out,
                "`{}` is none of these: type one of the game numbers above, `new` or `quit`.",
                grammar::short(&line)
            )?,
        }
    }
}

/// A player name: not empty, at most 32 characters, no control characters.
pub fn check_name(name: &str, flag: &str) -> anyhow::Result<String> {
    let n = name.trim();
    anyhow::ensure!(!n.is_empty(), "{flag}: a player name can't be empty");
    anyhow::ensure!(
        n.chars().count() <= 32,
        "{flag}: a player name has at most 32 characters"
    );
    anyhow::ensure!(
        !n.chars().any(char::is_control),
        "{flag}: a player name can't contain control characters"
    );
    Ok(n.to_string())
}

/// A deck for a new game: a file with a deck list (validated, every problem named) or a
/// ready-made deck's key.
pub fn deck_choice(spec: &str, flag: &str) -> anyhow::Result<DeckChoice> {
    let path = Path::new(spec);
    let looks_like_file = spec.contains(['/', '\\', '.']) || path.exists();
    if !looks_like_file {
        return Ok(DeckChoice::Ready(spec.to_string()));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("{flag} {spec}: cannot read the deck list: {e}"))?;
    let name = path
        .file_stem()
        .map_or_else(|| spec.to_string(), |s| s.to_string_lossy().to_string());
    let deck =
        crate::decks::parse(&name, &text).map_err(|e| anyhow::anyhow!("{flag} {spec}: {e}"))?;
    deck.validate(Format::Constructed)
        .map_err(|e| anyhow::anyhow!("{flag} {spec}: {e}"))?;
    Ok(DeckChoice::List {
        name,
        text,
        format: Format::Constructed,
    })
}

async fn new_game(svc: &Service, opts: &LocalOpts, out: &mut dyn Write) -> anyhow::Result<Id> {
    let name = check_name(opts.name(), "--name")?;
    anyhow::ensure!(
        !name.eq_ignore_ascii_case(AGENT_NAME),
        "--name: `{AGENT_NAME}` is the computer opponent's name; choose another"
    );
    let deck = deck_choice(opts.deck.as_deref().unwrap_or("red"), "--deck")?;
    let me = svc.user(&format!("local:{name}"), &name).await?;
    let other = if opts.hotseat {
        let opponent = check_name(opts.opponent(), "--opponent")?;
        anyhow::ensure!(
            !opponent.eq_ignore_ascii_case(&name),
            "the two hot-seat players need different names (both are `{name}`): use --name and --opponent"
        );
        anyhow::ensure!(
            !opponent.eq_ignore_ascii_case(AGENT_NAME),
            "--opponent: `{AGENT_NAME}` is the computer opponent's name; choose another"
        );
        svc.user(&format!("local:{opponent}"), &opponent).await?
    } else {
        svc.user(AGENT_ID, AGENT_NAME).await?
    };
    let their_deck = if opts.hotseat {
        Some(deck_choice(
            opts.opponent_deck.as_deref().unwrap_or("green"),
            "--opponent-deck",
        )?)
    } else {
        None
    };
    let plan = svc
        .challenge(me, &deck, &[other], opts.ruleset, Default::default())
        .await?;
    let id = plan.game_id;
    if let Some(d) = their_deck {
        svc.accept(other, id, &d).await?;
    }
    let l = svc.load(id).await?;
    writeln!(
        out,
        "Game {id} started: {}. Type `help` for what you can say, `quit` to stop (the game is saved).",
        summary(&l).split_once(": ").map_or("", |x| x.1)
    )?;
    Ok(id)
}

/// One terminal session on one game.
struct Session<'a> {
    svc: &'a Service,
    opts: &'a LocalOpts,
    game_id: Id,
    /// More than one human at the keyboard.
    hotseat: bool,
    /// The seat whose hand was shown last (hot-seat: who holds the keyboard).
    at_keyboard: Option<PlayerId>,
    /// The (version, seat) whose board was printed last.
    shown: Option<(i64, PlayerId)>,
    /// Lines each human has not seen yet, by seat (hot-seat: shown when they take over).
    unseen: Vec<Vec<String>>,
    /// Public lines for the image's "Recent actions".
    recent: Vec<String>,
    /// The last command asked to confirm a concession.
    confirm_concede: bool,
}

impl<'a> Session<'a> {
    async fn new(
        svc: &'a Service,
        opts: &'a LocalOpts,
        game_id: Id,
    ) -> anyhow::Result<Session<'a>> {
        let l = svc.load(game_id).await?;
        let humans: Vec<PlayerId> = l
            .seats
            .iter()
            .filter(|s| !s.is_agent)
            .map(|s| PlayerId(s.seat as u8))
            .collect();
        let s = Session {
            svc,
            opts,
            game_id,
            hotseat: humans.len() > 1,
            at_keyboard: None,
            shown: None,
            unseen: vec![Vec::new(); l.seats.len()],
            recent: Vec::new(),
            confirm_concede: false,
        };
        Ok(s)
    }

    /// Says what a resumed game is, which flags it ignores, and its last lines.
    async fn resumed(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        let l = self.svc.load(self.game_id).await?;
        writeln!(out, "Resuming {}.", summary(&l))?;
        let ignored = self.opts.new_game_flags();
        if !ignored.is_empty() {
            writeln!(
                out,
                "({} only shape a new game: game {} keeps its own players, decks and {} rules.)",
                ignored.join(", "),
                self.game_id,
                l.game.ruleset
            )?;
        }
        // The hot-seat log is public (each hand is private); alone, your own view.
        let viewer = if self.hotseat {
            None
        } else {
            l.seats
                .iter()
                .find(|s| !s.is_agent)
                .map(|s| PlayerId(s.seat as u8))
        };
        let lines = self
            .svc
            .recent_lines(self.game_id, viewer, RESUME_LINES)
            .await?;
        if !lines.is_empty() {
            writeln!(out, "Last actions:")?;
            for line in &lines {
                writeln!(out, "  {line}")?;
            }
        }
        self.recent = lines;
        Ok(())
    }

    fn saved(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "Game {} saved. To come back to it: {}",
            self.game_id,
            self.opts.resume_command(self.game_id)
        )
    }

    async fn run(
        mut self,
        resumed: bool,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> anyhow::Result<Option<Id>> {
        if resumed {
            self.resumed(out).await?;
        }
        loop {
            let loaded = self.svc.load(self.game_id).await?;
            if let Some(note) = &loaded.rebuilt {
                writeln!(out, "{note}")?;
            }
            if loaded.game.result.is_some() {
                let seat = if self.hotseat {
                    None
                } else {
                    loaded
                        .seats
                        .iter()
                        .find(|s| !s.is_agent)
                        .map(|s| PlayerId(s.seat as u8))
                };
                write!(out, "{}", crate::board_text::board(&loaded.game.view(seat)))?;
                return Ok(Some(self.game_id));
            }
            let Some(p) = loaded.game.pending().map(|p| p.player) else {
                anyhow::bail!("game {} waits for nobody", self.game_id)
            };
            let Some(user) = loaded.seats.get(p.index()).map(|s| s.user_id) else {
                anyhow::bail!("game {} has no seat {p}", self.game_id)
            };
            if self.hotseat && self.at_keyboard != Some(p) {
                let name = loaded.game.player(p).name.clone();
                writeln!(out)?;
                write!(out, "Pass the keyboard to {name}, then press Enter. ")?;
                out.flush()?;
                match read_line(input)? {
                    None => {
                        writeln!(out)?;
                        self.saved(out)?;
                        return Ok(Some(self.game_id));
                    }
                    Some(Ok(l)) if matches!(l.as_str(), "quit" | "exit" | "q") => {
                        self.saved(out)?;
                        return Ok(Some(self.game_id));
                    }
                    Some(_) => {}
                }
                self.at_keyboard = Some(p);
                self.shown = None;
            }
            self.at_keyboard = Some(p);
            let unseen = std::mem::take(&mut self.unseen[p.index()]);
            if !unseen.is_empty() {
                writeln!(out, "While you were away:")?;
                for l in unseen {
                    writeln!(out, "  {l}")?;
                }
            }
            if self.shown != Some((loaded.row.version, p)) {
                self.show_board(&loaded, p, out)?;
            }
            write!(out, "{}> ", loaded.game.player(p).name)?;
            out.flush()?;
            let line = match read_line(input)? {
                None => {
                    writeln!(out)?;
                    self.saved(out)?;
                    return Ok(Some(self.game_id));
                }
                Some(Err(())) => {
                    writeln!(out, "{NOT_UTF8}")?;
                    continue;
                }
                Some(Ok(l)) => l,
            };
            if matches!(line.as_str(), "quit" | "exit" | "q") {
                self.saved(out)?;
                return Ok(Some(self.game_id));
            }
            if line.is_empty() {
                continue;
            }
            let words =
                if self.confirm_concede && matches!(grammar::norm(&line).as_str(), "yes" | "y") {
                    "concede yes".to_string()
                } else {
                    line.clone()
                };
            self.confirm_concede = grammar::fixed_command(&words) == Some(Command::ConcedeAsk);
            self.command(&loaded, user, &words, out).await?;
        }
    }

    /// A league game (`spellstack league play`) played here: its result is recorded when
    /// it ends, and the match's next game (or its end) is said, with the command that plays it
    /// (or, when its chooser is asked to play or draw, the command that answers).
    async fn league_after(&mut self, out: &mut dyn Write) -> anyhow::Result<()> {
        let r = match self.svc.league_after(self.game_id).await {
            Ok(r) => r,
            Err(e) => {
                writeln!(out, "error: the league could not record this game: {e}")?;
                return Ok(());
            }
        };
        if !r.text.is_empty() {
            writeln!(out, "{}", r.text)?;
        }
        for p in r.plans.iter().filter(|p| p.game_id != self.game_id) {
            if !p.finished {
                writeln!(
                    out,
                    "The match goes on in game {}: {}",
                    p.game_id,
                    self.opts.resume_command(p.game_id)
                )?;
            }
        }
        // The next game waits for its chooser's play/draw answer (MTR 2.2).
        if let Some(q) = r.choice {
            let who = self.svc.name_of(q.chooser).await;
            writeln!(
                out,
                "Game {} of the match waits for {who} to choose: spellstack league play first --name {who:?} (or draw first).",
                q.game_no
            )?;
        }
        Ok(())
    }

    fn show_board(
        &mut self,
        loaded: &Loaded,
        p: PlayerId,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        writeln!(out)?;
        write!(
            out,
            "{}",
            crate::board_text::board(&loaded.game.view(Some(p)))
        )?;
        writeln!(
            out,
            "You may say: {}",
            grammar::options(&loaded.game, p, false).join(" · ")
        )?;
        self.shown = Some((loaded.row.version, p));
        if let Some(path) = &self.opts.image {
            let scene = crate::scene::board_scene(&loaded.game.view(Some(p)), &self.recent);
            let options = self.svc.cfg.images.render_options().unwrap_or_default();
            match render::board_png(&scene, &options) {
                Ok(png) => match std::fs::write(path, png) {
                    Ok(()) => writeln!(out, "(board image: {})", path.display())?,
                    Err(e) => writeln!(out, "(cannot write {}: {e})", path.display())?,
                },
                Err(e) => writeln!(out, "(cannot draw the board: {e})")?,
            }
        }
        Ok(())
    }

    async fn command(
        &mut self,
        loaded: &Loaded,
        user: Id,
        words: &str,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        match self.svc.command(user, self.game_id, words, None).await {
            Ok(plan) => {
                self.recent.extend(plan.public.iter().cloned());
                let keep = self.recent.len().saturating_sub(20);
                self.recent.drain(..keep);
                for s in &loaded.seats {
                    if s.is_agent {
                        continue;
                    }
                    let lines: Vec<String> = plan
                        .told_to(s.user_id)
                        .into_iter()
                        .map(String::from)
                        .collect();
                    if s.user_id == user {
                        for l in &lines {
                            writeln!(out, "{l}")?;
                        }
                    } else {
                        self.unseen[s.seat as usize].extend(lines);
                    }
                }
                for t in plan.private_for(user) {
                    // The board comes at the next decision and draws are among the told
                    // lines: print what comes before the board.
                    for l in t.lines() {
                        if l.starts_with("Turn ") && l.ends_with(" rules") {
                            break;
                        }
                        if !l.starts_with("You draw") {
                            writeln!(out, "{l}")?;
                        }
                    }
                }
                if let Some(w) = plan.waited_for(user) {
                    writeln!(out, "{w}")?;
                }
                if grammar::fixed_command(words) == Some(Command::Board) {
                    self.shown = None;
                }
                self.league_after(out).await?;
            }
            Err(ServiceError::Stale { .. }) => {
                writeln!(out, "The game moved on; here is the new state.")?
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
