-- Delivery preferences as columns of the player's settings row (they were keys of the
-- settings JSON, which keeps the stops), and per-server settings (the image language).
ALTER TABLE player_settings ADD COLUMN dms BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE player_settings ADD COLUMN pings TEXT NOT NULL DEFAULT 'every';
UPDATE player_settings SET
    dms = COALESCE(json_extract(settings, '$.dms'), TRUE),
    pings = COALESCE(json_extract(settings, '$.pings'), 'every');

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    language   TEXT    NOT NULL,
    updated_by INTEGER REFERENCES users(id),
    updated_at INTEGER NOT NULL
);
