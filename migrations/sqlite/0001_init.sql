-- Spellstack service schema (SQLite). Times are Unix seconds.
CREATE TABLE users (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    external_id TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE decks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    name       TEXT    NOT NULL,
    format     TEXT    NOT NULL,
    list       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (user_id, name)
);

CREATE TABLE games (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    status         TEXT    NOT NULL,
    ruleset        TEXT    NOT NULL,
    seed           INTEGER NOT NULL,
    version        INTEGER NOT NULL DEFAULT 0,
    setup          TEXT,
    snapshot       TEXT,
    deadline       INTEGER,
    reminded       BOOLEAN NOT NULL DEFAULT FALSE,
    guild_id       INTEGER,
    channel_id     INTEGER,
    thread_id      INTEGER,
    created_by     INTEGER NOT NULL REFERENCES users(id),
    undo_by        INTEGER,
    undo_batch     INTEGER,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX games_deadline ON games (status, deadline);

CREATE TABLE game_players (
    game_id         INTEGER NOT NULL REFERENCES games(id),
    seat            INTEGER NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    deck            TEXT,
    accepted        BOOLEAN NOT NULL DEFAULT FALSE,
    is_agent        BOOLEAN NOT NULL DEFAULT FALSE,
    timeouts        INTEGER NOT NULL DEFAULT 0,
    pass_until_turn INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_players_user ON game_players (user_id);

-- Append-only: one row per answer (and per accepted undo), never updated or deleted.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seq        INTEGER NOT NULL,
    batch      INTEGER NOT NULL,
    seat       INTEGER,
    kind       TEXT    NOT NULL,
    answer     TEXT,
    state_hash INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE player_settings (
    user_id  INTEGER PRIMARY KEY REFERENCES users(id),
    settings TEXT NOT NULL
);
