-- Runs (MTGO leagues): a member whose run is over (its matches played, or ended by losses)
-- starts another while entries are open: a new sealed pool from new seeded packs, or a new
-- registered constructed deck. `run` is the member's current run; a match records the run
-- each player played it in; `league_runs` keeps every run that is over (its pool with every
-- pack's seed, and its builds), so any opening can still be replayed.
ALTER TABLE league_members ADD COLUMN run BIGINT NOT NULL DEFAULT 1;
ALTER TABLE league_members ADD COLUMN run_started_at BIGINT;
ALTER TABLE league_matches ADD COLUMN a_run BIGINT NOT NULL DEFAULT 1;
ALTER TABLE league_matches ADD COLUMN b_run BIGINT NOT NULL DEFAULT 1;

CREATE TABLE league_runs (
    league_id  BIGINT  NOT NULL REFERENCES leagues(id),
    user_id    BIGINT  NOT NULL REFERENCES users(id),
    run        BIGINT  NOT NULL,
    pool       JSONB,
    decks      JSONB   NOT NULL,
    deck_name  TEXT,
    started_at BIGINT  NOT NULL,
    ended_at   BIGINT  NOT NULL,
    PRIMARY KEY (league_id, user_id, run)
);
