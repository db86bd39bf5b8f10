//! League tables (migrations 0004-0009): leagues, members (pool, builds, queue, vacations),
//! matches and their games, organiser actions, ratings. Same conventions as the rest of the
//! storage layer: one SQL text for both backends, JSON columns as raw JSON text.

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueRow {
    pub id: Id,
    pub name: String,
    /// 0: outside Discord.
    pub guild_id: i64,
    pub channel_id: Option<i64>,
    pub created_by: Id,
    /// The `LeagueDef` JSON.
    pub def: String,
    pub seed: u64,
    /// `open` or `final`.
    pub status: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRow {
    pub league_id: Id,
    pub user_id: Id,
    pub joined_at: i64,
    pub dropped_at: Option<i64>,
    /// The sealed pool JSON.
    pub pool: Option<String>,
    /// The build the member plays next.
    pub deck_name: Option<String>,
    /// Waiting in the queue since.
    pub queued_at: Option<i64>,
    /// Vacation spans JSON.
    pub vacations: String,
    pub vacation_days_left: i64,
    /// The member's standing play/draw answer when they choose (MTR 2.2; migration 0007):
    /// `ask` (asked each game), `play` or `draw`.
    pub play_draw: String,
    /// The deck for the rest of match `side_match` after sideboarding (a deck list).
    pub side_list: Option<String>,
    pub side_match: Option<Id>,
    /// The member's current run (1 at entry; migration 0006).
    pub run: i64,
    /// When the current run began (None: at entry, `joined_at`).
    pub run_started_at: Option<i64>,
}

/// A member's run that is over (migration 0006), kept when they start another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRow {
    pub league_id: Id,
    pub user_id: Id,
    pub run: i64,
    /// The run's sealed pool JSON (every pack's seed).
    pub pool: Option<String>,
    /// The run's builds, a JSON list of `{name, list}`.
    pub decks: String,
    pub deck_name: Option<String>,
    pub started_at: i64,
    pub ended_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueDeckRow {
    pub name: String,
    pub list: String,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchRow {
    pub id: Id,
    pub league_id: Id,
    pub round: i64,
    pub a_user: Id,
    /// None: a bye.
    pub b_user: Option<Id>,
    /// `active`, `finished` or `nullified`.
    pub status: String,
    pub a_wins: i64,
    pub b_wins: i64,
    pub draws: i64,
    /// The game being played now.
    pub game_id: Option<Id>,
    /// Who chooses to play or draw in the next game.
    pub chooser: Option<Id>,
    /// The game whose chooser was asked to play or draw and has not answered yet
    /// (migration 0007; set by `ask_choice`, cleared by `take_choice` and by every write of
    /// the whole row).
    pub choice_game: Option<i64>,
    /// When that question was first asked (migration 0008), and whether its chooser was
    /// reminded of it: the sweep answers it for them when their time runs out.
    pub choice_asked_at: Option<i64>,
    pub choice_reminded: bool,
    /// The `GameClock` JSON of the current game.
    pub clock: Option<String>,
    pub note: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// The run each player played this match in (migration 0006).
    pub a_run: i64,
    pub b_run: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueGameRow {
    pub match_id: Id,
    pub game_no: i64,
    pub game_id: Id,
    pub first_user: Id,
    pub winner: Option<Id>,
    pub draw: bool,
    pub reason: String,
    pub finished_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueActionRow {
    pub id: Id,
    pub league_id: Id,
    pub match_id: Option<Id>,
    pub by_user: Id,
    pub kind: String,
    pub reason: String,
    pub detail: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub user_id: Id,
    pub format: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub last_played: Option<i64>,
}

/// Everything that recording one finished game changes, in one transaction.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub game: LeagueGameRow,
    /// The match as it is after the game (wins, status, next game, chooser, clock).
    pub after: MatchRow,
    /// The match status it must still have (`active`).
    pub expected_status: String,
    pub ratings: Vec<RatingRow>,
}

const LEAGUE_COLS: &str =
    "id, name, guild_id, channel_id, created_by, def, seed, status, created_at";
const MEMBER_COLS: &str = "league_id, user_id, joined_at, dropped_at, pool, deck_name, queued_at, vacations, vacation_days_left, play_draw, side_list, side_match, run, run_started_at";
const MATCH_COLS: &str = "id, league_id, round, a_user, b_user, status, a_wins, b_wins, draws, game_id, chooser, clock, note, created_at, finished_at, a_run, b_run, choice_game, choice_asked_at, choice_reminded";

macro_rules! league_row {
    ($r:expr) => {{
        let r = &$r;
        LeagueRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            guild_id: r.try_get("guild_id")?,
            channel_id: r.try_get("channel_id")?,
            created_by: r.try_get("created_by")?,
            def: get_json!(r, "def")
                .map_err(StorageError::BadJson)?
                .unwrap_or_default(),
            seed: r.try_get::<i64, _>("seed")? as u64,
            status: r.try_get("status")?,
            created_at: r.try_get("created_at")?,
        }
    }};
}

macro_rules! member_row {
    ($r:expr) => {{
        let r = &$r;
        MemberRow {
            league_id: r.try_get("league_id")?,
            user_id: r.try_get("user_id")?,
            joined_at: r.try_get("joined_at")?,
            dropped_at: r.try_get("dropped_at")?,
            pool: get_json!(r, "pool").map_err(StorageError::BadJson)?,
            deck_name: r.try_get("deck_name")?,
            queued_at: r.try_get("queued_at")?,
            vacations: get_json!(r, "vacations")
                .map_err(StorageError::BadJson)?
                .unwrap_or_else(|| "[]".into()),
            vacation_days_left: r.try_get("vacation_days_left")?,
            play_draw: r.try_get("play_draw")?,
            side_list: r.try_get("side_list")?,
            side_match: r.try_get("side_match")?,
            run: r.try_get("run")?,
            run_started_at: r.try_get("run_started_at")?,
        }
    }};
}

macro_rules! match_row {
    ($r:expr) => {{
        let r = &$r;
        MatchRow {
            id: r.try_get("id")?,
            league_id: r.try_get("league_id")?,
            round: r.try_get("round")?,
            a_user: r.try_get("a_user")?,
            b_user: r.try_get("b_user")?,
            status: r.try_get("status")?,
            a_wins: r.try_get("a_wins")?,
            b_wins: r.try_get("b_wins")?,
            draws: r.try_get("draws")?,
            game_id: r.try_get("game_id")?,
            chooser: r.try_get("chooser")?,
            choice_game: r.try_get("choice_game")?,
            choice_asked_at: r.try_get("choice_asked_at")?,
            choice_reminded: r.try_get("choice_reminded")?,
            clock: get_json!(r, "clock").map_err(StorageError::BadJson)?,
            note: r.try_get("note")?,
            created_at: r.try_get("created_at")?,
            finished_at: r.try_get("finished_at")?,
            a_run: r.try_get("a_run")?,
            b_run: r.try_get("b_run")?,
        }
    }};
}

macro_rules! game_rec_row {
    ($r:expr) => {{
        let r = &$r;
        LeagueGameRow {
            match_id: r.try_get("match_id")?,
            game_no: r.try_get("game_no")?,
            game_id: r.try_get("game_id")?,
            first_user: r.try_get("first_user")?,
            winner: r.try_get("winner")?,
            draw: r.try_get("draw")?,
            reason: r.try_get("reason")?,
            finished_at: r.try_get("finished_at")?,
        }
    }};
}

macro_rules! rating_row {
    ($r:expr) => {{
        let r = &$r;
        RatingRow {
            user_id: r.try_get("user_id")?,
            format: r.try_get("format")?,
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
            games: r.try_get("games")?,
            last_played: r.try_get("last_played")?,
        }
    }};
}

/// A whole match row written: a game started or recorded, a clock stored, the match closed
/// or nullified. None of these leaves a play/draw question pending, so it is cleared.
const UPDATE_MATCH: &str = "UPDATE league_matches SET status = $3, a_wins = $4, b_wins = $5, draws = $6, game_id = $7, chooser = $8, clock = $9, note = $10, finished_at = $11, choice_game = NULL, choice_asked_at = NULL, choice_reminded = FALSE \
     WHERE id = $1 AND status = $2";
const UPSERT_RATING: &str = "INSERT INTO ratings (user_id, format, rating, deviation, volatility, games, last_played) VALUES ($1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (user_id, format) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
     games = excluded.games, last_played = excluded.last_played";

impl Db {
    // ----- leagues ----------------------------------------------------------------------

    /// Creates a league; None if the server already has a league of that name.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_league(
        &self,
        name: &str,
        guild_id: i64,
        channel_id: Option<i64>,
        created_by: Id,
        def: &str,
        seed: u64,
        now: i64,
    ) -> Result<Option<Id>> {
        const SQL: &str = "INSERT INTO leagues (name, guild_id, channel_id, created_by, def, seed, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 'open', $7) ON CONFLICT (guild_id, name) DO NOTHING RETURNING id";
        let def = json(def)?;
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(name).bind(guild_id).bind(channel_id).bind(created_by).bind(def)
                .bind(seed as i64).bind(now).fetch_optional(p).await?;
            r.map(|r| r.try_get::<Id, _>("id")).transpose().map_err(Into::into)
        })
    }

    pub async fn league(&self, id: Id) -> Result<Option<LeagueRow>> {
        let sql = format!("SELECT {LEAGUE_COLS} FROM leagues WHERE id = $1");
        on_pool!(self, p => {
            let r = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(league_row!(r))), None => Ok(None) }
        })
    }

    /// The leagues of a server (0: outside Discord), newest first.
    pub async fn leagues_in(&self, guild_id: i64) -> Result<Vec<LeagueRow>> {
        let sql = format!("SELECT {LEAGUE_COLS} FROM leagues WHERE guild_id = $1 ORDER BY id DESC");
        on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(guild_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(league_row!(r)); }
            Ok(out)
        })
    }

    /// Every league not yet final (for the scheduler).
    pub async fn open_leagues(&self) -> Result<Vec<LeagueRow>> {
        let sql = format!("SELECT {LEAGUE_COLS} FROM leagues WHERE status = 'open' ORDER BY id");
        on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(league_row!(r)); }
            Ok(out)
        })
    }

    /// Every league of every server, oldest first (ratings are kept across leagues).
    pub async fn all_leagues(&self) -> Result<Vec<LeagueRow>> {
        let sql = format!("SELECT {LEAGUE_COLS} FROM leagues ORDER BY id");
        on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(league_row!(r)); }
            Ok(out)
        })
    }

    pub async fn set_league_status(&self, id: Id, from: &str, to: &str) -> Result<bool> {
        const SQL: &str = "UPDATE leagues SET status = $3 WHERE id = $1 AND status = $2";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(id).bind(from).bind(to).execute(p).await?.rows_affected() == 1))
    }

    // ----- members ----------------------------------------------------------------------

    /// Adds a member (with their sealed pool, if any); false if they are a member already.
    pub async fn add_member(
        &self,
        league_id: Id,
        user_id: Id,
        pool: Option<&str>,
        vacation_days: i64,
        now: i64,
    ) -> Result<bool> {
        const SQL: &str = "INSERT INTO league_members (league_id, user_id, joined_at, pool, vacations, vacation_days_left) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (league_id, user_id) DO NOTHING";
        let pool = opt_json(pool)?;
        let vac = json("[]")?;
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(league_id).bind(user_id).bind(now).bind(pool).bind(vac)
            .bind(vacation_days).execute(p).await?.rows_affected() == 1))
    }

    pub async fn members(&self, league_id: Id) -> Result<Vec<MemberRow>> {
        let sql = format!(
            "SELECT {MEMBER_COLS} FROM league_members WHERE league_id = $1 ORDER BY joined_at, user_id"
        );
        on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(league_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(member_row!(r)); }
            Ok(out)
        })
    }

    pub async fn member(&self, league_id: Id, user_id: Id) -> Result<Option<MemberRow>> {
        let sql = format!(
            "SELECT {MEMBER_COLS} FROM league_members WHERE league_id = $1 AND user_id = $2"
        );
        on_pool!(self, p => {
            let r = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(league_id).bind(user_id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(member_row!(r))), None => Ok(None) }
        })
    }

    /// Leagues a user belongs to (dropped or not), newest first.
    pub async fn leagues_of_user(&self, user_id: Id) -> Result<Vec<LeagueRow>> {
        const SQL: &str = "SELECT l.id, l.name, l.guild_id, l.channel_id, l.created_by, l.def, l.seed, l.status, l.created_at \
             FROM leagues l JOIN league_members m ON m.league_id = l.id WHERE m.user_id = $1 ORDER BY l.id DESC";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(user_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(league_row!(r)); }
            Ok(out)
        })
    }

    pub async fn set_member_pool(&self, league_id: Id, user_id: Id, pool: &str) -> Result<()> {
        const SQL: &str =
            "UPDATE league_members SET pool = $3 WHERE league_id = $1 AND user_id = $2";
        let pool = json(pool)?;
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(pool).execute(p).await?;
            Ok(())
        })
    }

    /// Marks a member dropped; false if they had dropped already (or are no member).
    pub async fn drop_member(&self, league_id: Id, user_id: Id, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE league_members SET dropped_at = $3, queued_at = NULL WHERE league_id = $1 AND user_id = $2 AND dropped_at IS NULL";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(league_id).bind(user_id).bind(now).execute(p).await?.rows_affected() == 1))
    }

    pub async fn set_member_deck(&self, league_id: Id, user_id: Id, name: &str) -> Result<()> {
        const SQL: &str =
            "UPDATE league_members SET deck_name = $3 WHERE league_id = $1 AND user_id = $2";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(name).execute(p).await?;
            Ok(())
        })
    }

    pub async fn set_queued(&self, league_id: Id, user_id: Id, since: Option<i64>) -> Result<()> {
        const SQL: &str =
            "UPDATE league_members SET queued_at = $3 WHERE league_id = $1 AND user_id = $2";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(since).execute(p).await?;
            Ok(())
        })
    }

    pub async fn set_vacations(
        &self,
        league_id: Id,
        user_id: Id,
        vacations: &str,
        days_left: i64,
    ) -> Result<()> {
        const SQL: &str = "UPDATE league_members SET vacations = $3, vacation_days_left = $4 WHERE league_id = $1 AND user_id = $2";
        let v = json(vacations)?;
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(v).bind(days_left).execute(p).await?;
            Ok(())
        })
    }

    /// Sets the member's standing play/draw answer (`ask`, `play` or `draw`).
    pub async fn set_play_draw(&self, league_id: Id, user_id: Id, answer: &str) -> Result<()> {
        const SQL: &str =
            "UPDATE league_members SET play_draw = $3 WHERE league_id = $1 AND user_id = $2";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(answer).execute(p).await?;
            Ok(())
        })
    }

    /// Sets (or with None clears) the member's sideboarded deck for match `match_id`.
    pub async fn set_sideboard(
        &self,
        league_id: Id,
        user_id: Id,
        side: Option<(&str, Id)>,
    ) -> Result<()> {
        const SQL: &str = "UPDATE league_members SET side_list = $3, side_match = $4 WHERE league_id = $1 AND user_id = $2";
        let (list, m) = (side.map(|s| s.0), side.map(|s| s.1));
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(list).bind(m).execute(p).await?;
            Ok(())
        })
    }

    // ----- builds -----------------------------------------------------------------------

    pub async fn save_league_deck(
        &self,
        league_id: Id,
        user_id: Id,
        name: &str,
        list: &str,
        now: i64,
    ) -> Result<()> {
        const SQL: &str = "INSERT INTO league_decks (league_id, user_id, name, list, updated_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (league_id, user_id, name) DO UPDATE SET list = excluded.list, updated_at = excluded.updated_at";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(league_id).bind(user_id).bind(name).bind(list).bind(now).execute(p).await?;
            Ok(())
        })
    }

    pub async fn league_decks(&self, league_id: Id, user_id: Id) -> Result<Vec<LeagueDeckRow>> {
        const SQL: &str = "SELECT name, list, updated_at FROM league_decks WHERE league_id = $1 AND user_id = $2 ORDER BY name";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(league_id).bind(user_id).fetch_all(p).await?;
            rows.iter().map(|r| Ok(LeagueDeckRow { name: r.try_get("name")?, list: r.try_get("list")?, updated_at: r.try_get("updated_at")? })).collect()
        })
    }

    /// Starts the member's next run in one transaction: run `from_run` (as `done`) is kept
    /// in `league_runs`, its builds make way for the new run's one build `deck` (name, list),
    /// and the member gets the new `pool` (sealed) and plays `deck`; sideboarding and the
    /// queue are cleared. False (and nothing changed) if the member is no longer in run
    /// `from_run` (a racing command) or has dropped.
    pub async fn start_run(
        &self,
        done: &RunRow,
        pool: Option<&str>,
        deck: (&str, &str),
        now: i64,
    ) -> Result<bool> {
        const KEEP: &str = "INSERT INTO league_runs (league_id, user_id, run, pool, decks, deck_name, started_at, ended_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (league_id, user_id, run) DO NOTHING";
        const NEXT: &str = "UPDATE league_members SET run = $4, run_started_at = $5, pool = $6, deck_name = $7, side_list = NULL, side_match = NULL, queued_at = NULL \
             WHERE league_id = $1 AND user_id = $2 AND run = $3 AND dropped_at IS NULL";
        const CLEAR: &str = "DELETE FROM league_decks WHERE league_id = $1 AND user_id = $2";
        const SAVE: &str = "INSERT INTO league_decks (league_id, user_id, name, list, updated_at) VALUES ($1, $2, $3, $4, $5)";
        let old_pool = opt_json(done.pool.as_deref())?;
        let decks = json(&done.decks)?;
        let new_pool = opt_json(pool)?;
        let (l, u) = (done.league_id, done.user_id);
        let ok: bool = write_tx!(self, tx => {
            let kept = sqlx::query(KEEP).bind(l).bind(u).bind(done.run).bind(old_pool).bind(decks).bind(&done.deck_name)
                .bind(done.started_at).bind(done.ended_at).execute(&mut *tx).await?.rows_affected() == 1;
            let moved = kept && sqlx::query(NEXT).bind(l).bind(u).bind(done.run).bind(done.run + 1).bind(now).bind(new_pool)
                .bind(deck.0).execute(&mut *tx).await?.rows_affected() == 1;
            if !moved {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query(CLEAR).bind(l).bind(u).execute(&mut *tx).await?;
            sqlx::query(SAVE).bind(l).bind(u).bind(deck.0).bind(deck.1).bind(now).execute(&mut *tx).await?;
            true
        });
        Ok(ok)
    }

    /// A member's runs that are over, oldest first.
    pub async fn league_runs(&self, league_id: Id, user_id: Id) -> Result<Vec<RunRow>> {
        const SQL: &str = "SELECT league_id, user_id, run, pool, decks, deck_name, started_at, ended_at FROM league_runs \
             WHERE league_id = $1 AND user_id = $2 ORDER BY run";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(league_id).bind(user_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push(RunRow {
                    league_id: r.try_get("league_id")?,
                    user_id: r.try_get("user_id")?,
                    run: r.try_get("run")?,
                    pool: get_json!(r, "pool").map_err(StorageError::BadJson)?,
                    decks: get_json!(r, "decks").map_err(StorageError::BadJson)?.unwrap_or_else(|| "[]".into()),
                    deck_name: r.try_get("deck_name")?,
                    started_at: r.try_get("started_at")?,
                    ended_at: r.try_get("ended_at")?,
                });
            }
            Ok(out)
        })
    }

    // ----- matches ----------------------------------------------------------------------

    /// Creates a match (with its first game, if any) and takes both members off the queue.
    pub async fn create_match(&self, m: &MatchRow) -> Result<Id> {
        const SQL: &str = "INSERT INTO league_matches (league_id, round, a_user, b_user, status, a_wins, b_wins, draws, game_id, chooser, clock, note, created_at, finished_at, a_run, b_run) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id";
        const UNQUEUE: &str =
            "UPDATE league_members SET queued_at = NULL WHERE league_id = $1 AND user_id = $2";
        let clock = opt_json(m.clock.as_deref())?;
        let id: Id = write_tx!(self, tx => {
            let id: Id = sqlx::query(SQL).bind(m.league_id).bind(m.round).bind(m.a_user).bind(m.b_user).bind(&m.status)
                .bind(m.a_wins).bind(m.b_wins).bind(m.draws).bind(m.game_id).bind(m.chooser).bind(clock).bind(&m.note)
                .bind(m.created_at).bind(m.finished_at).bind(m.a_run).bind(m.b_run).fetch_one(&mut *tx).await?.try_get("id")?;
            for u in std::iter::once(m.a_user).chain(m.b_user) {
                sqlx::query(UNQUEUE).bind(m.league_id).bind(u).execute(&mut *tx).await?;
            }
            id
        });
        Ok(id)
    }

    pub async fn league_matches(&self, league_id: Id) -> Result<Vec<MatchRow>> {
        let sql =
            format!("SELECT {MATCH_COLS} FROM league_matches WHERE league_id = $1 ORDER BY id");
        on_pool!(self, p => {
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(league_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(match_row!(r)); }
            Ok(out)
        })
    }

    pub async fn league_match(&self, id: Id) -> Result<Option<MatchRow>> {
        let sql = format!("SELECT {MATCH_COLS} FROM league_matches WHERE id = $1");
        on_pool!(self, p => {
            let r = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(match_row!(r))), None => Ok(None) }
        })
    }

    /// The active league match whose current game is `game_id`.
    pub async fn match_of_game(&self, game_id: Id) -> Result<Option<MatchRow>> {
        let sql = format!(
            "SELECT {MATCH_COLS} FROM league_matches WHERE game_id = $1 AND status = 'active'"
        );
        on_pool!(self, p => {
            let r = sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).bind(game_id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(match_row!(r))), None => Ok(None) }
        })
    }

    /// Replaces a match's fields if it still has `expected_status`; false otherwise.
    pub async fn update_match(&self, m: &MatchRow, expected_status: &str) -> Result<bool> {
        let clock = opt_json(m.clock.as_deref())?;
        on_pool!(self, p => Ok(sqlx::query(UPDATE_MATCH).bind(m.id).bind(expected_status).bind(&m.status)
            .bind(m.a_wins).bind(m.b_wins).bind(m.draws).bind(m.game_id).bind(m.chooser).bind(clock)
            .bind(&m.note).bind(m.finished_at).execute(p).await?.rows_affected() == 1))
    }

    /// Marks match `match_id` as waiting for its chooser's play/draw answer for game
    /// `game_no` (MTR 2.2), asked at `now`; asking again for the same game is harmless and
    /// keeps the time it was first asked. False (nothing changed) unless it is an active
    /// match between games.
    pub async fn ask_choice(&self, match_id: Id, game_no: i64, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE league_matches SET choice_asked_at = CASE WHEN choice_game = $2 \
             AND choice_asked_at IS NOT NULL THEN choice_asked_at ELSE $3 END, \
             choice_reminded = CASE WHEN choice_game = $2 THEN choice_reminded ELSE FALSE END, \
             choice_game = $2 WHERE id = $1 AND status = 'active' AND game_id IS NULL";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(match_id).bind(game_no).bind(now).execute(p)
            .await?.rows_affected() == 1))
    }

    /// Marks the pending question of game `game_no` of match `match_id` as reminded. False
    /// when it was reminded already or is no longer pending (so one sweep reminds once).
    pub async fn set_choice_reminded(&self, match_id: Id, game_no: i64) -> Result<bool> {
        const SQL: &str = "UPDATE league_matches SET choice_reminded = TRUE WHERE id = $1 \
             AND status = 'active' AND game_id IS NULL AND choice_game = $2 AND NOT choice_reminded";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(match_id).bind(game_no).execute(p).await?
            .rows_affected() == 1))
    }

    /// Takes the pending play/draw question of game `game_no` of match `match_id` (its
    /// chooser answered). False (nothing changed) when that question is no longer pending:
    /// answered already, or the match moved on; so of two answers at once only one counts.
    pub async fn take_choice(&self, match_id: Id, game_no: i64) -> Result<bool> {
        const SQL: &str = "UPDATE league_matches SET choice_game = NULL, choice_asked_at = NULL, choice_reminded = FALSE \
             WHERE id = $1 AND status = 'active' \
             AND game_id IS NULL AND choice_game = $2";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(match_id).bind(game_no).execute(p).await?
            .rows_affected() == 1))
    }

    /// Marks the round-deadline reminder of active match `match_id` as sent (migration
    /// 0009). False when it was sent already or the match is over, so one sweep reminds once.
    pub async fn set_deadline_reminded(&self, match_id: Id) -> Result<bool> {
        const SQL: &str = "UPDATE league_matches SET deadline_reminded = TRUE WHERE id = $1 \
             AND status = 'active' AND NOT deadline_reminded";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(match_id).execute(p).await?
            .rows_affected() == 1))
    }

    /// Records a finished game: its row, the match after it and the ratings, atomically.
    /// False (and nothing changed) if this game was recorded already or the match moved on.
    pub async fn record_game(&self, rec: &GameRecord) -> Result<bool> {
        const GAME: &str = "INSERT INTO league_games (match_id, game_no, game_id, first_user, winner, draw, reason, finished_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (match_id, game_no) DO NOTHING";
        let m = &rec.after;
        let g = &rec.game;
        let clock = opt_json(m.clock.as_deref())?;
        let done: bool = write_tx!(self, tx => {
            let n = sqlx::query(GAME).bind(g.match_id).bind(g.game_no).bind(g.game_id).bind(g.first_user).bind(g.winner)
                .bind(g.draw).bind(&g.reason).bind(g.finished_at).execute(&mut *tx).await?.rows_affected();
            let updated = n == 1 && sqlx::query(UPDATE_MATCH).bind(m.id).bind(&rec.expected_status).bind(&m.status)
                .bind(m.a_wins).bind(m.b_wins).bind(m.draws).bind(m.game_id).bind(m.chooser).bind(clock)
                .bind(&m.note).bind(m.finished_at).execute(&mut *tx).await?.rows_affected() == 1;
            if updated {
                for r in &rec.ratings {
                    sqlx::query(UPSERT_RATING).bind(r.user_id).bind(&r.format).bind(r.rating).bind(r.deviation)
                        .bind(r.volatility).bind(r.games).bind(r.last_played).execute(&mut *tx).await?;
                }
                true
            } else {
                // Nothing of it is kept.
                tx.rollback().await?;
                return Ok(false);
            }
        });
        Ok(done)
    }

    /// The recorded games of a match, in order.
    pub async fn league_games(&self, match_id: Id) -> Result<Vec<LeagueGameRow>> {
        const SQL: &str = "SELECT match_id, game_no, game_id, first_user, winner, draw, reason, finished_at FROM league_games WHERE match_id = $1 ORDER BY game_no";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(match_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(game_rec_row!(r)); }
            Ok(out)
        })
    }

    /// Every recorded game of a league, in the order they finished.
    pub async fn league_games_of(&self, league_id: Id) -> Result<Vec<LeagueGameRow>> {
        const SQL: &str = "SELECT g.match_id, g.game_no, g.game_id, g.first_user, g.winner, g.draw, g.reason, g.finished_at \
             FROM league_games g JOIN league_matches m ON m.id = g.match_id WHERE m.league_id = $1 ORDER BY g.finished_at, g.match_id, g.game_no";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(league_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(game_rec_row!(r)); }
            Ok(out)
        })
    }

    // ----- organiser actions ------------------------------------------------------------

    /// Applies an organiser's change to a match (if it still has `expected_status`) and
    /// records who did it and why, in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn organiser_action(
        &self,
        m: &MatchRow,
        expected_status: &str,
        by: Id,
        kind: &str,
        reason: &str,
        detail: &str,
        now: i64,
    ) -> Result<bool> {
        const LOG: &str = "INSERT INTO league_actions (league_id, match_id, by_user, kind, reason, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";
        let clock = opt_json(m.clock.as_deref())?;
        let done: bool = write_tx!(self, tx => {
            let n = sqlx::query(UPDATE_MATCH).bind(m.id).bind(expected_status).bind(&m.status)
                .bind(m.a_wins).bind(m.b_wins).bind(m.draws).bind(m.game_id).bind(m.chooser).bind(clock)
                .bind(&m.note).bind(m.finished_at).execute(&mut *tx).await?.rows_affected();
            if n != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query(LOG).bind(m.league_id).bind(m.id).bind(by).bind(kind).bind(reason).bind(detail).bind(now)
                .execute(&mut *tx).await?;
            true
        });
        Ok(done)
    }

    pub async fn league_actions(&self, league_id: Id) -> Result<Vec<LeagueActionRow>> {
        const SQL: &str = "SELECT id, league_id, match_id, by_user, kind, reason, detail, created_at FROM league_actions WHERE league_id = $1 ORDER BY id";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(league_id).fetch_all(p).await?;
            rows.iter().map(|r| Ok(LeagueActionRow {
                id: r.try_get("id")?, league_id: r.try_get("league_id")?, match_id: r.try_get("match_id")?,
                by_user: r.try_get("by_user")?, kind: r.try_get("kind")?, reason: r.try_get("reason")?,
                detail: r.try_get("detail")?, created_at: r.try_get("created_at")?,
            })).collect()
        })
    }

    /// A league game is timed by its league clock: the service's decision deadline is
    /// cleared.
    pub async fn clear_deadline(&self, game_id: Id) -> Result<()> {
        const SQL: &str = "UPDATE games SET deadline = NULL WHERE id = $1";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(game_id).execute(p).await?;
            Ok(())
        })
    }

    /// Gives a game its thread (a league game's own thread in the league's channel), unless
    /// it has one already; false if it had.
    pub async fn set_thread(&self, game_id: Id, thread_id: i64) -> Result<bool> {
        const SQL: &str = "UPDATE games SET thread_id = $2 WHERE id = $1 AND thread_id IS NULL";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(game_id).bind(thread_id).execute(p).await?.rows_affected() == 1))
    }

    /// Marks the league's "closes in 48 hours" reminder sent; false if it was already.
    pub async fn set_closing_reminded(&self, league_id: Id) -> Result<bool> {
        const SQL: &str =
            "UPDATE leagues SET closing_reminded = TRUE WHERE id = $1 AND closing_reminded = FALSE";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(league_id).execute(p).await?.rows_affected() == 1))
    }

    // ----- ratings ----------------------------------------------------------------------

    pub async fn rating(&self, user_id: Id, format: &str) -> Result<Option<RatingRow>> {
        const SQL: &str = "SELECT user_id, format, rating, deviation, volatility, games, last_played FROM ratings WHERE user_id = $1 AND format = $2";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(user_id).bind(format).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(rating_row!(r))), None => Ok(None) }
        })
    }

    /// Replaces every rating of `format` with `rows` (a recomputation), in one transaction:
    /// a player without a row is unrated again.
    pub async fn replace_ratings(&self, format: &str, rows: &[RatingRow]) -> Result<()> {
        const CLEAR: &str = "DELETE FROM ratings WHERE format = $1";
        write_tx!(self, tx => {
            sqlx::query(CLEAR).bind(format).execute(&mut *tx).await?;
            for r in rows {
                sqlx::query(UPSERT_RATING).bind(r.user_id).bind(&r.format).bind(r.rating).bind(r.deviation)
                    .bind(r.volatility).bind(r.games).bind(r.last_played).execute(&mut *tx).await?;
            }
        });
        Ok(())
    }

    pub async fn set_rating(&self, r: &RatingRow) -> Result<()> {
        on_pool!(self, p => {
            sqlx::query(UPSERT_RATING).bind(r.user_id).bind(&r.format).bind(r.rating).bind(r.deviation)
                .bind(r.volatility).bind(r.games).bind(r.last_played).execute(p).await?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests;
