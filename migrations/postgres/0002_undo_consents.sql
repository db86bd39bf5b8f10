-- Consents to a pending undo request (a JSON array of user ids), for games of 3+ players.
ALTER TABLE games ADD COLUMN undo_consents JSONB;
