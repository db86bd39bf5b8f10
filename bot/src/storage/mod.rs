//! Persistent storage: SQLite (embedded default, WAL) or PostgreSQL through one code path.
//!
//! [`Db`] is an enum of typed pools; every method runs the same runtime-checked SQL on
//! either (`$n` parameters work on both). JSON columns are `TEXT` on SQLite and `JSONB` on
//! PostgreSQL, bound and read as `sqlx::types::Json<RawValue>` so the text passes through
//! untouched. Migrations are embedded (`migrations/sqlite`, `migrations/postgres`) and run
//! at connect time.
//!
//! Concurrency: every accepted answer is one transaction that appends the action rows and
//! moves the snapshot from `version` to `version + n` only `WHERE version = expected`; a
//! racing writer sees zero rows updated and gets [`StorageError::Conflict`].

use serde_json::value::RawValue;
use sqlx::Row;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::types::Json;
use std::str::FromStr;
use std::time::Duration;

pub type Id = i64;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("the game moved on (expected version {expected}, it is now {actual:?})")]
    Conflict { expected: i64, actual: Option<i64> },
    #[error("{0} not found")]
    NotFound(String),
    #[error("stored JSON is not valid: {0}")]
    BadJson(String),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database could not be opened: where (host and database, or file) and why.
    #[error("cannot open the database {target}: {cause}")]
    Connect { target: String, cause: String },
    #[error(
        "the database URL `{0}` is not understood: use sqlite://PATH.db, sqlite::memory: or postgres://USER@HOST/DB"
    )]
    UnknownScheme(String),
}

pub type Result<T, E = StorageError> = std::result::Result<T, E>;

fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Where a database URL points, for error messages: `host:port/database` (no user or
/// password) or the SQLite file. Unknown schemes are an error.
pub fn describe_url(url: &str) -> Result<String> {
    let url = url.trim();
    if is_postgres(url) {
        let rest = url.split_once("://").map_or(url, |x| x.1);
        let rest = rest.rsplit_once('@').map_or(rest, |x| x.1);
        let rest = rest.split('?').next().unwrap_or(rest);
        return Ok(format!("at {rest} (PostgreSQL)"));
    }
    if let Some(rest) = url.strip_prefix("sqlite:") {
        if rest.contains(":memory:") {
            return Ok("in memory (SQLite)".into());
        }
        let path = rest.trim_start_matches("//");
        let path = path.split('?').next().unwrap_or(path);
        if path.is_empty() {
            return Err(StorageError::UnknownScheme(url.to_string()));
        }
        return Ok(format!("file {path} (SQLite)"));
    }
    Err(StorageError::UnknownScheme(url.to_string()))
}

/// A typed pool for one backend.
#[derive(Debug, Clone)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$p` bound to the concrete pool (the same text compiles for both).
macro_rules! on_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match $db {
            Db::Sqlite($p) => $body,
            Db::Postgres($p) => $body,
        }
    };
}

/// Begins a write transaction: `BEGIN IMMEDIATE` on SQLite takes the write lock up front,
/// so two writers never deadlock on a lock upgrade.
macro_rules! write_tx {
    ($db:expr, $tx:ident => $body:expr) => {
        match $db {
            Db::Sqlite(p) => {
                let mut $tx = p.begin_with("BEGIN IMMEDIATE").await?;
                let out = $body;
                $tx.commit().await?;
                out
            }
            Db::Postgres(p) => {
                let mut $tx = p.begin().await?;
                let out = $body;
                $tx.commit().await?;
                out
            }
        }
    };
}

fn json(s: &str) -> Result<Json<Box<RawValue>>> {
    RawValue::from_string(s.to_string())
        .map(Json)
        .map_err(|e| StorageError::BadJson(e.to_string()))
}

fn opt_json(s: Option<&str>) -> Result<Option<Json<Box<RawValue>>>> {
    s.map(json).transpose()
}

/// Reads a JSON column as its text (`Err`: the stored value is not readable JSON).
macro_rules! get_json {
    ($row:expr, $col:expr) => {
        $row.try_get::<Option<Json<Box<RawValue>>>, _>($col)
            .map(|v| v.map(|j| j.0.get().to_string()))
            .map_err(|e| e.to_string())
    };
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    pub id: Id,
    pub external_id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckRow {
    pub id: Id,
    pub user_id: Id,
    pub name: String,
    pub format: String,
    pub list: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: Id,
    pub status: String,
    pub ruleset: String,
    pub seed: u64,
    pub version: i64,
    pub setup: Option<String>,
    /// The snapshot JSON text, or why it could not be read at all.
    pub snapshot: std::result::Result<Option<String>, String>,
    pub deadline: Option<i64>,
    pub reminded: bool,
    pub guild_id: Option<i64>,
    pub channel_id: Option<i64>,
    pub thread_id: Option<i64>,
    pub created_by: Id,
    pub undo_by: Option<Id>,
    pub undo_batch: Option<i64>,
    /// Users who have consented to the pending undo.
    pub undo_consents: Vec<Id>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub game_id: Id,
    pub seat: i64,
    pub user_id: Id,
    pub deck: Option<String>,
    pub accepted: bool,
    pub is_agent: bool,
    pub timeouts: i64,
    pub pass_until_turn: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    pub game_id: Id,
    pub seq: i64,
    pub batch: i64,
    pub seat: Option<i64>,
    pub kind: String,
    pub answer: Option<String>,
    pub state_hash: i64,
    pub created_at: i64,
}

#[derive(Debug, Clone)]
pub struct NewGame {
    pub status: String,
    pub ruleset: String,
    pub seed: u64,
    pub created_by: Id,
    pub guild_id: Option<i64>,
    pub channel_id: Option<i64>,
    pub thread_id: Option<i64>,
    pub now: i64,
}

#[derive(Debug, Clone)]
pub struct NewSeat {
    pub user_id: Id,
    pub deck: Option<String>,
    pub accepted: bool,
    pub is_agent: bool,
}

#[derive(Debug, Clone)]
pub struct NewAction {
    pub seat: Option<i64>,
    pub kind: String,
    pub answer: Option<String>,
    pub state_hash: i64,
}

/// One accepted command: actions appended, snapshot and game fields replaced.
#[derive(Debug, Clone)]
pub struct Commit {
    pub game_id: Id,
    pub expected_version: i64,
    pub actions: Vec<NewAction>,
    pub snapshot: String,
    pub status: String,
    pub deadline: Option<i64>,
    /// (seat, timeouts) to store.
    pub timeouts: Vec<(i64, i64)>,
    pub now: i64,
}

const GAME_COLS: &str = "id, status, ruleset, seed, version, setup, snapshot, deadline, reminded, guild_id, channel_id, thread_id, created_by, undo_by, undo_batch, undo_consents, created_at, updated_at";

macro_rules! game_row {
    ($r:expr) => {{
        let r = &$r;
        GameRow {
            id: r.try_get("id")?,
            status: r.try_get("status")?,
            ruleset: r.try_get("ruleset")?,
            seed: r.try_get::<i64, _>("seed")? as u64,
            version: r.try_get("version")?,
            setup: get_json!(r, "setup").map_err(StorageError::BadJson)?,
            snapshot: get_json!(r, "snapshot"),
            deadline: r.try_get("deadline")?,
            reminded: r.try_get("reminded")?,
            guild_id: r.try_get("guild_id")?,
            channel_id: r.try_get("channel_id")?,
            thread_id: r.try_get("thread_id")?,
            created_by: r.try_get("created_by")?,
            undo_by: r.try_get("undo_by")?,
            undo_batch: r.try_get("undo_batch")?,
            undo_consents: get_json!(r, "undo_consents")
                .map_err(StorageError::BadJson)?
                .map(|t| {
                    serde_json::from_str::<Vec<Id>>(&t)
                        .map_err(|e| StorageError::BadJson(e.to_string()))
                })
                .transpose()?
                .unwrap_or_default(),
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        }
    }};
}

macro_rules! seat_row {
    ($r:expr) => {{
        let r = &$r;
        SeatRow {
            game_id: r.try_get("game_id")?,
            seat: r.try_get("seat")?,
            user_id: r.try_get("user_id")?,
            deck: get_json!(r, "deck").map_err(StorageError::BadJson)?,
            accepted: r.try_get("accepted")?,
            is_agent: r.try_get("is_agent")?,
            timeouts: r.try_get("timeouts")?,
            pass_until_turn: r.try_get("pass_until_turn")?,
        }
    }};
}

impl Db {
    /// Connects to `url` (`sqlite://file.db`, `sqlite::memory:`, `postgres://...`) and runs
    /// the embedded migrations.
    pub async fn connect(url: &str) -> Result<Db> {
        let target = describe_url(url)?;
        let fail = |e: &dyn std::fmt::Display| StorageError::Connect {
            target: target.clone(),
            cause: e.to_string(),
        };
        let db = if is_postgres(url) {
            let opts = sqlx::postgres::PgConnectOptions::from_str(url).map_err(|e| fail(&e))?;
            // One direct attempt first: a refused connection or a bad password is said at
            // once, instead of after the pool's acquire timeout ("pool timed out").
            let probe = tokio::time::timeout(
                Duration::from_secs(10),
                sqlx::ConnectOptions::connect(&opts),
            )
            .await
            .map_err(|_| fail(&"no answer within 10 seconds"))?
            .map_err(|e| fail(&e))?;
            let _ = sqlx::Connection::close(probe).await;
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(opts)
                .await
                .map_err(|e| fail(&e))?;
            Db::Postgres(pool)
        } else {
            let memory = url.contains(":memory:");
            let opts = SqliteConnectOptions::from_str(url)
                .map_err(|e| fail(&e))?
                .create_if_missing(true)
                .journal_mode(if memory {
                    SqliteJournalMode::Memory
                } else {
                    SqliteJournalMode::Wal
                })
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            // An in-memory database exists once per connection: keep exactly one.
            let max = if memory { 1 } else { 4 };
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .min_connections(if memory { 1 } else { 0 })
                .idle_timeout(if memory {
                    None
                } else {
                    Some(Duration::from_secs(600))
                })
                .max_lifetime(if memory {
                    None
                } else {
                    Some(Duration::from_secs(3600))
                })
                .connect_with(opts)
                .await
                .map_err(|e| fail(&e))?;
            Db::Sqlite(pool)
        };
        db.migrate().await?;
        Ok(db)
    }

    pub async fn migrate(&self) -> Result<()> {
        match self {
            Db::Sqlite(p) => sqlx::migrate!("../migrations/sqlite").run(p).await?,
            Db::Postgres(p) => sqlx::migrate!("../migrations/postgres").run(p).await?,
        }
        Ok(())
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    pub async fn close(&self) {
        on_pool!(self, p => p.close().await)
    }

    // ----- users ----------------------------------------------------------------------

    /// The user with this external id (a Discord id, `local:NAME`, `agent:random`),
    /// created on first sight; the display name is refreshed.
    pub async fn upsert_user(&self, external_id: &str, name: &str, now: i64) -> Result<UserRow> {
        const SQL: &str = "INSERT INTO users (external_id, name, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (external_id) DO UPDATE SET name = excluded.name RETURNING id, external_id, name";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(external_id).bind(name).bind(now).fetch_one(p).await?;
            Ok(UserRow { id: r.try_get("id")?, external_id: r.try_get("external_id")?, name: r.try_get("name")? })
        })
    }

    pub async fn user(&self, id: Id) -> Result<Option<UserRow>> {
        const SQL: &str = "SELECT id, external_id, name FROM users WHERE id = $1";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(id).fetch_optional(p).await?;
            r.map(|r| Ok(UserRow { id: r.try_get("id")?, external_id: r.try_get("external_id")?, name: r.try_get("name")? })).transpose()
        })
    }

    pub async fn user_by_external(&self, external_id: &str) -> Result<Option<UserRow>> {
        const SQL: &str = "SELECT id, external_id, name FROM users WHERE external_id = $1";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(external_id).fetch_optional(p).await?;
            r.map(|r| Ok(UserRow { id: r.try_get("id")?, external_id: r.try_get("external_id")?, name: r.try_get("name")? })).transpose()
        })
    }

    // ----- decks ----------------------------------------------------------------------

    /// Saves (or replaces) the user's deck called `name`.
    pub async fn save_deck(
        &self,
        user_id: Id,
        name: &str,
        format: &str,
        list: &str,
        now: i64,
    ) -> Result<DeckRow> {
        const SQL: &str = "INSERT INTO decks (user_id, name, format, list, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, name) DO UPDATE SET format = excluded.format, list = excluded.list \
             RETURNING id, user_id, name, format, list";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(user_id).bind(name).bind(format).bind(list).bind(now).fetch_one(p).await?;
            Ok(DeckRow { id: r.try_get("id")?, user_id: r.try_get("user_id")?, name: r.try_get("name")?, format: r.try_get("format")?, list: r.try_get("list")? })
        })
    }

    pub async fn decks_of(&self, user_id: Id) -> Result<Vec<DeckRow>> {
        const SQL: &str =
            "SELECT id, user_id, name, format, list FROM decks WHERE user_id = $1 ORDER BY name";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(user_id).fetch_all(p).await?;
            rows.iter().map(|r| Ok(DeckRow { id: r.try_get("id")?, user_id: r.try_get("user_id")?, name: r.try_get("name")?, format: r.try_get("format")?, list: r.try_get("list")? })).collect()
        })
    }

    pub async fn deck_by_name(&self, user_id: Id, name: &str) -> Result<Option<DeckRow>> {
        const SQL: &str =
            "SELECT id, user_id, name, format, list FROM decks WHERE user_id = $1 AND name = $2";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(user_id).bind(name).fetch_optional(p).await?;
            r.map(|r| Ok(DeckRow { id: r.try_get("id")?, user_id: r.try_get("user_id")?, name: r.try_get("name")?, format: r.try_get("format")?, list: r.try_get("list")? })).transpose()
        })
    }

    pub async fn delete_deck(&self, user_id: Id, name: &str) -> Result<bool> {
        const SQL: &str = "DELETE FROM decks WHERE user_id = $1 AND name = $2";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(user_id).bind(name).execute(p).await?.rows_affected() > 0))
    }

    // ----- games ----------------------------------------------------------------------

    /// Creates a game (usually a challenge) and its seats in one transaction.
    pub async fn create_game(&self, g: &NewGame, seats: &[NewSeat]) -> Result<Id> {
        const GAME: &str = "INSERT INTO games (status, ruleset, seed, version, guild_id, channel_id, thread_id, created_by, created_at, updated_at) \
             VALUES ($1, $2, $3, 0, $4, $5, $6, $7, $8, $8) RETURNING id";
        const SEAT: &str = "INSERT INTO game_players (game_id, seat, user_id, deck, accepted, is_agent) VALUES ($1, $2, $3, $4, $5, $6)";
        let decks: Vec<Option<Json<Box<RawValue>>>> = seats
            .iter()
            .map(|s| opt_json(s.deck.as_deref()))
            .collect::<Result<_>>()?;
        let id: Id = write_tx!(self, tx => {
            let id: Id = sqlx::query(GAME)
                .bind(&g.status).bind(&g.ruleset).bind(g.seed as i64).bind(g.guild_id).bind(g.channel_id).bind(g.thread_id)
                .bind(g.created_by).bind(g.now)
                .fetch_one(&mut *tx).await?.try_get("id")?;
            for (i, (s, deck)) in seats.iter().zip(decks).enumerate() {
                sqlx::query(SEAT).bind(id).bind(i as i64).bind(s.user_id).bind(deck).bind(s.accepted).bind(s.is_agent).execute(&mut *tx).await?;
            }
            id
        });
        Ok(id)
    }

    pub async fn game(&self, id: Id) -> Result<Option<GameRow>> {
        const SQL: &str = "SELECT id, status, ruleset, seed, version, setup, snapshot, deadline, reminded, guild_id, channel_id, thread_id, created_by, undo_by, undo_batch, undo_consents, created_at, updated_at FROM games WHERE id = $1";
        debug_assert!(SQL.contains(GAME_COLS));
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(game_row!(r))), None => Ok(None) }
        })
    }

    /// The newest game played in `thread_id` (a game thread; for spectators' `/mtg board`).
    pub async fn game_in_thread(&self, thread_id: i64) -> Result<Option<GameRow>> {
        const SQL: &str = "SELECT id, status, ruleset, seed, version, setup, snapshot, deadline, reminded, guild_id, channel_id, thread_id, created_by, undo_by, undo_batch, undo_consents, created_at, updated_at FROM games WHERE thread_id = $1 AND status NOT IN ('challenge', 'declined', 'expired') ORDER BY id DESC LIMIT 1";
        debug_assert!(SQL.contains(GAME_COLS));
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(thread_id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(game_row!(r))), None => Ok(None) }
        })
    }

    pub async fn seats(&self, game_id: Id) -> Result<Vec<SeatRow>> {
        const SQL: &str = "SELECT game_id, seat, user_id, deck, accepted, is_agent, timeouts, pass_until_turn FROM game_players WHERE game_id = $1 ORDER BY seat";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(game_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(seat_row!(r)); }
            Ok(out)
        })
    }

    /// Games in which the user has a seat, newest first (`only_open`: challenges and
    /// active games).
    pub async fn games_of_user(&self, user_id: Id, only_open: bool) -> Result<Vec<GameRow>> {
        const ALL: &str = "SELECT g.id, g.status, g.ruleset, g.seed, g.version, g.setup, g.snapshot, g.deadline, g.reminded, g.guild_id, g.channel_id, g.thread_id, g.created_by, g.undo_by, g.undo_batch, g.undo_consents, g.created_at, g.updated_at \
             FROM games g JOIN game_players gp ON gp.game_id = g.id WHERE gp.user_id = $1 ORDER BY g.id DESC";
        const OPEN: &str = "SELECT g.id, g.status, g.ruleset, g.seed, g.version, g.setup, g.snapshot, g.deadline, g.reminded, g.guild_id, g.channel_id, g.thread_id, g.created_by, g.undo_by, g.undo_batch, g.undo_consents, g.created_at, g.updated_at \
             FROM games g JOIN game_players gp ON gp.game_id = g.id WHERE gp.user_id = $1 AND g.status IN ('challenge', 'active') ORDER BY g.id DESC";
        on_pool!(self, p => {
            let rows = sqlx::query(if only_open { OPEN } else { ALL }).bind(user_id).fetch_all(p).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows { out.push(game_row!(r)); }
            Ok(out)
        })
    }

    /// Challenges made at or before `until`, unanswered (they expire).
    pub async fn challenges_before(&self, until: i64) -> Result<Vec<Id>> {
        const SQL: &str =
            "SELECT id FROM games WHERE status = 'challenge' AND created_at <= $1 ORDER BY id";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(until).fetch_all(p).await?;
            rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
        })
    }

    /// Active games whose deadline is at or before `until` (for reminders and timeouts).
    pub async fn games_due(&self, until: i64) -> Result<Vec<(Id, i64, bool)>> {
        const SQL: &str = "SELECT id, deadline, reminded FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= $1 ORDER BY deadline";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(until).fetch_all(p).await?;
            rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("deadline")?, r.try_get("reminded")?))).collect()
        })
    }

    /// Records a seat's acceptance (and chosen deck) of a challenge.
    pub async fn accept_seat(&self, game_id: Id, seat: i64, deck: &str) -> Result<()> {
        const SQL: &str =
            "UPDATE game_players SET accepted = TRUE, deck = $3 WHERE game_id = $1 AND seat = $2";
        let deck = json(deck)?;
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(seat).bind(deck).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::NotFound(format!("seat {seat} of game {game_id}"))) }
            Ok(())
        })
    }

    /// Changes the status of a game that has not started, if it is still `from`.
    pub async fn set_status(&self, game_id: Id, from: &str, to: &str, now: i64) -> Result<bool> {
        const SQL: &str =
            "UPDATE games SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(game_id).bind(from).bind(to).bind(now).execute(p).await?.rows_affected() == 1))
    }

    /// Starts a challenged game: stores its setup and first snapshot (version 0 -> 1 with
    /// no action), only if it is still a challenge at version 0.
    pub async fn start_game(
        &self,
        game_id: Id,
        setup: &str,
        snapshot: &str,
        deadline: Option<i64>,
        now: i64,
    ) -> Result<i64> {
        const SQL: &str = "UPDATE games SET status = 'active', setup = $2, snapshot = $3, version = 1, deadline = $4, reminded = FALSE, updated_at = $5 \
             WHERE id = $1 AND status = 'challenge' AND version = 0";
        let (setup, snapshot) = (json(setup)?, json(snapshot)?);
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(setup).bind(snapshot).bind(deadline).bind(now).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::Conflict { expected: 0, actual: None }) }
            Ok(1)
        })
    }

    /// Appends the actions and replaces the snapshot, atomically, if the game is still at
    /// `expected_version`. Returns the new version.
    pub async fn commit(&self, c: &Commit) -> Result<i64> {
        const UPDATE: &str = "UPDATE games SET version = version + $3, snapshot = $4, status = $5, deadline = $6, reminded = FALSE, \
             undo_by = NULL, undo_batch = NULL, undo_consents = NULL, updated_at = $7 WHERE id = $1 AND version = $2";
        const INSERT: &str = "INSERT INTO actions (game_id, seq, batch, seat, kind, answer, state_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
        const SEAT: &str = "UPDATE game_players SET timeouts = $3 WHERE game_id = $1 AND seat = $2";
        const VERSION: &str = "SELECT version FROM games WHERE id = $1";
        let n = c.actions.len() as i64;
        let snapshot = json(&c.snapshot)?;
        let answers: Vec<Option<Json<Box<RawValue>>>> = c
            .actions
            .iter()
            .map(|a| opt_json(a.answer.as_deref()))
            .collect::<Result<_>>()?;
        let out: std::result::Result<i64, Option<i64>> = write_tx!(self, tx => {
            let updated = sqlx::query(UPDATE).bind(c.game_id).bind(c.expected_version).bind(n).bind(snapshot).bind(&c.status)
                .bind(c.deadline).bind(c.now).execute(&mut *tx).await?.rows_affected();
            if updated == 1 {
                for (i, (a, answer)) in c.actions.iter().zip(answers).enumerate() {
                    sqlx::query(INSERT).bind(c.game_id).bind(c.expected_version + 1 + i as i64).bind(c.expected_version)
                        .bind(a.seat).bind(&a.kind).bind(answer).bind(a.state_hash).bind(c.now).execute(&mut *tx).await?;
                }
                for (seat, t) in &c.timeouts {
                    sqlx::query(SEAT).bind(c.game_id).bind(*seat).bind(*t).execute(&mut *tx).await?;
                }
                Ok(c.expected_version + n)
            } else {
                let actual: Option<i64> = sqlx::query(VERSION).bind(c.game_id).fetch_optional(&mut *tx).await?.map(|r| r.try_get("version")).transpose()?;
                Err(actual)
            }
        });
        out.map_err(|actual| match actual {
            None => StorageError::NotFound(format!("game {}", c.game_id)),
            Some(actual) => StorageError::Conflict {
                expected: c.expected_version,
                actual: Some(actual),
            },
        })
    }

    /// The game's action log in order.
    pub async fn actions(&self, game_id: Id) -> Result<Vec<ActionRow>> {
        const SQL: &str = "SELECT game_id, seq, batch, seat, kind, answer, state_hash, created_at FROM actions WHERE game_id = $1 ORDER BY seq";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).bind(game_id).fetch_all(p).await?;
            rows.iter().map(|r| Ok(ActionRow {
                game_id: r.try_get("game_id")?,
                seq: r.try_get("seq")?,
                batch: r.try_get("batch")?,
                seat: r.try_get("seat")?,
                kind: r.try_get("kind")?,
                answer: get_json!(r, "answer").map_err(StorageError::BadJson)?,
                state_hash: r.try_get("state_hash")?,
                created_at: r.try_get("created_at")?,
            })).collect()
        })
    }

    /// Replaces a snapshot that failed to load with one rebuilt from the log (the version
    /// does not move: the state is the same).
    pub async fn replace_snapshot(
        &self,
        game_id: Id,
        version: i64,
        snapshot: &str,
        now: i64,
    ) -> Result<()> {
        const SQL: &str =
            "UPDATE games SET snapshot = $3, updated_at = $4 WHERE id = $1 AND version = $2";
        let snapshot = json(snapshot)?;
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(version).bind(snapshot).bind(now).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::Conflict { expected: version, actual: None }) }
            Ok(())
        })
    }

    /// Records (or clears) an undo request, if the game is still at `version`.
    pub async fn set_undo_request(
        &self,
        game_id: Id,
        version: i64,
        by: Option<Id>,
        batch: Option<i64>,
    ) -> Result<()> {
        const SQL: &str = "UPDATE games SET undo_by = $3, undo_batch = $4, undo_consents = NULL WHERE id = $1 AND version = $2";
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(version).bind(by).bind(batch).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::Conflict { expected: version, actual: None }) }
            Ok(())
        })
    }

    /// Adds `user` to the consents of the pending undo request if the consents are still
    /// `before` and the game still at `version`; returns the consents now recorded.
    pub async fn add_undo_consent(
        &self,
        game_id: Id,
        version: i64,
        before: &[Id],
        user: Id,
    ) -> Result<Vec<Id>> {
        const SQL: &str = "UPDATE games SET undo_consents = $3 WHERE id = $1 AND version = $2 AND undo_by IS NOT NULL \
             AND COALESCE(undo_consents, $4) = $4";
        let mut after = before.to_vec();
        if !after.contains(&user) {
            after.push(user);
        }
        let (old, new) = (
            serde_json::to_string(before).map_err(|e| StorageError::BadJson(e.to_string()))?,
            serde_json::to_string(&after).map_err(|e| StorageError::BadJson(e.to_string()))?,
        );
        let (old, new) = (json(&old)?, json(&new)?);
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(version).bind(new).bind(old).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::Conflict { expected: version, actual: None }) }
            Ok(after)
        })
    }

    pub async fn set_reminded(&self, game_id: Id, version: i64) -> Result<bool> {
        const SQL: &str = "UPDATE games SET reminded = TRUE WHERE id = $1 AND version = $2";
        on_pool!(self, p => Ok(sqlx::query(SQL).bind(game_id).bind(version).execute(p).await?.rows_affected() == 1))
    }

    /// "Pass until end of turn": the seat passes priority automatically during `turn`.
    pub async fn set_pass_until(&self, game_id: Id, seat: i64, turn: Option<i64>) -> Result<()> {
        const SQL: &str =
            "UPDATE game_players SET pass_until_turn = $3 WHERE game_id = $1 AND seat = $2";
        on_pool!(self, p => {
            let n = sqlx::query(SQL).bind(game_id).bind(seat).bind(turn).execute(p).await?.rows_affected();
            if n == 0 { return Err(StorageError::NotFound(format!("seat {seat} of game {game_id}"))) }
            Ok(())
        })
    }

    // ----- settings -------------------------------------------------------------------

    pub async fn settings(&self, user_id: Id) -> Result<Option<String>> {
        const SQL: &str = "SELECT settings FROM player_settings WHERE user_id = $1";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(user_id).fetch_optional(p).await?;
            match r { Some(r) => get_json!(r, "settings").map_err(StorageError::BadJson), None => Ok(None) }
        })
    }

    pub async fn set_settings(&self, user_id: Id, settings: &str) -> Result<()> {
        const SQL: &str = "INSERT INTO player_settings (user_id, settings) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings";
        let s = json(settings)?;
        on_pool!(self, p => {
            sqlx::query(SQL).bind(user_id).bind(s).execute(p).await?;
            Ok(())
        })
    }

    /// A player's delivery preferences: hand by DM, and the ping cadence (as stored).
    pub async fn delivery_prefs(&self, user_id: Id) -> Result<Option<(bool, String)>> {
        const SQL: &str = "SELECT dms, pings FROM player_settings WHERE user_id = $1";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(user_id).fetch_optional(p).await?;
            match r {
                Some(r) => Ok(Some((r.try_get::<bool, _>("dms")?, r.try_get::<String, _>("pings")?))),
                None => Ok(None),
            }
        })
    }

    /// Writes the whole settings row: stops (JSON), DMs and ping cadence.
    pub async fn set_prefs(
        &self,
        user_id: Id,
        settings: &str,
        dms: bool,
        pings: &str,
    ) -> Result<()> {
        const SQL: &str = "INSERT INTO player_settings (user_id, settings, dms, pings) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, dms = excluded.dms, pings = excluded.pings";
        let s = json(settings)?;
        on_pool!(self, p => {
            sqlx::query(SQL).bind(user_id).bind(s).bind(dms).bind(pings).execute(p).await?;
            Ok(())
        })
    }

    // ----- servers (Discord guilds) ---------------------------------------------------------

    /// The image language a server chose (None: the deployment default).
    pub async fn guild_language(&self, guild_id: i64) -> Result<Option<String>> {
        const SQL: &str = "SELECT language FROM guild_settings WHERE guild_id = $1";
        on_pool!(self, p => {
            let r = sqlx::query(SQL).bind(guild_id).fetch_optional(p).await?;
            match r { Some(r) => Ok(Some(r.try_get::<String, _>("language")?)), None => Ok(None) }
        })
    }

    pub async fn set_guild_language(
        &self,
        guild_id: i64,
        language: &str,
        by: Id,
        now: i64,
    ) -> Result<()> {
        const SQL: &str = "INSERT INTO guild_settings (guild_id, language, updated_by, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, updated_by = excluded.updated_by, updated_at = excluded.updated_at";
        on_pool!(self, p => {
            sqlx::query(SQL).bind(guild_id).bind(language).bind(by).bind(now).execute(p).await?;
            Ok(())
        })
    }

    /// The state hash recorded with action `seq` of a game (the snapshot at version `seq`
    /// must have it); None when there is no such action (version 0).
    pub async fn state_hash_at(&self, game_id: Id, seq: i64) -> Result<Option<i64>> {
        const SQL: &str = "SELECT state_hash FROM actions WHERE game_id = $1 AND seq = $2";
        on_pool!(self, p => {
            let row = sqlx::query(SQL).bind(game_id).bind(seq).fetch_optional(p).await?;
            Ok(match row { Some(r) => Some(r.try_get("state_hash")?), None => None })
        })
    }

    /// Active games outside Discord whose every seat is a local player or an agent (the
    /// games `spellstack local` can resume), most recently played first.
    pub async fn local_games(&self) -> Result<Vec<Id>> {
        const SQL: &str = "SELECT g.id FROM games g WHERE g.status = 'active' AND g.guild_id IS NULL \
             AND NOT EXISTS (SELECT 1 FROM game_players gp JOIN users u ON u.id = gp.user_id \
             WHERE gp.game_id = g.id AND u.external_id NOT LIKE 'local:%' AND u.external_id <> 'agent:random') \
             ORDER BY g.updated_at DESC, g.id DESC";
        on_pool!(self, p => {
            let rows = sqlx::query(SQL).fetch_all(p).await?;
            rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
        })
    }

    /// Test hook: overwrite a snapshot with any JSON text (both backends).
    #[cfg(test)]
    pub async fn set_snapshot_text(&self, game_id: Id, text: &str) -> Result<()> {
        let j = json(text)?;
        on_pool!(self, p => {
            sqlx::query("UPDATE games SET snapshot = $2 WHERE id = $1").bind(game_id).bind(j).execute(p).await?;
            Ok(())
        })
    }

    /// Test and repair hook: overwrite a snapshot with arbitrary text (SQLite only; on
    /// PostgreSQL the JSONB column rejects non-JSON, so valid JSON of the wrong shape is used).
    #[cfg(test)]
    pub async fn corrupt_snapshot(&self, game_id: Id, text: &str) -> Result<()> {
        match self {
            Db::Sqlite(p) => {
                sqlx::query("UPDATE games SET snapshot = $2 WHERE id = $1")
                    .bind(game_id)
                    .bind(text)
                    .execute(p)
                    .await?;
            }
            Db::Postgres(p) => {
                sqlx::query(
                    "UPDATE games SET snapshot = '{\"not\": \"a game\"}'::jsonb WHERE id = $1",
                )
                .bind(game_id)
                .execute(p)
                .await?;
            }
        }
        Ok(())
    }
}

mod league;
pub use league::{
    GameRecord, LeagueActionRow, LeagueDeckRow, LeagueGameRow, LeagueRow, MatchRow, MemberRow,
    RatingRow, RunRow,
};

#[cfg(test)]
pub(crate) mod tests;
