-- Leagues between friends (bot/src/league, bot/src/league_service.rs). Times are Unix seconds.
-- guild_id 0: a league outside Discord (the terminal, the league simulation).
CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    guild_id   INTEGER NOT NULL DEFAULT 0,
    channel_id INTEGER,
    created_by INTEGER NOT NULL REFERENCES users(id),
    def        TEXT    NOT NULL,
    seed       INTEGER NOT NULL,
    status     TEXT    NOT NULL,
    closing_reminded BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE league_members (
    league_id          INTEGER NOT NULL REFERENCES leagues(id),
    user_id            INTEGER NOT NULL REFERENCES users(id),
    joined_at          INTEGER NOT NULL,
    dropped_at         INTEGER,
    pool               TEXT,
    deck_name          TEXT,
    queued_at          INTEGER,
    vacations          TEXT    NOT NULL,
    vacation_days_left INTEGER NOT NULL,
    prefer_draw        BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (league_id, user_id)
);

-- Named builds of a member's pool (sealed) or the registered deck (constructed).
CREATE TABLE league_decks (
    league_id  INTEGER NOT NULL REFERENCES leagues(id),
    user_id    INTEGER NOT NULL REFERENCES users(id),
    name       TEXT    NOT NULL,
    list       TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (league_id, user_id, name)
);

-- b_user NULL: a bye. status: active | finished | nullified.
CREATE TABLE league_matches (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id   INTEGER NOT NULL REFERENCES leagues(id),
    round       INTEGER NOT NULL,
    a_user      INTEGER NOT NULL REFERENCES users(id),
    b_user      INTEGER REFERENCES users(id),
    status      TEXT    NOT NULL,
    a_wins      INTEGER NOT NULL DEFAULT 0,
    b_wins      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    game_id     INTEGER REFERENCES games(id),
    chooser     INTEGER REFERENCES users(id),
    clock       TEXT,
    note        TEXT,
    created_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX league_matches_league ON league_matches (league_id, status);
CREATE INDEX league_matches_game ON league_matches (game_id);

-- Each game of a match as the engine ended it (winner NULL and draw FALSE: nullified).
CREATE TABLE league_games (
    match_id    INTEGER NOT NULL REFERENCES league_matches(id),
    game_no     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    first_user  INTEGER NOT NULL REFERENCES users(id),
    winner      INTEGER REFERENCES users(id),
    draw        BOOLEAN NOT NULL,
    reason      TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (match_id, game_no)
);

-- Organiser actions (nullify, forfeit, fix): who, why, what changed. Append-only.
CREATE TABLE league_actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id  INTEGER NOT NULL REFERENCES leagues(id),
    match_id   INTEGER REFERENCES league_matches(id),
    by_user    INTEGER NOT NULL REFERENCES users(id),
    kind       TEXT    NOT NULL,
    reason     TEXT    NOT NULL,
    detail     TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

-- Glicko-2 ratings, one per user and format (sealed, constructed).
CREATE TABLE ratings (
    user_id     INTEGER NOT NULL REFERENCES users(id),
    format      TEXT    NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    games       INTEGER NOT NULL,
    last_played INTEGER,
    PRIMARY KEY (user_id, format)
);
