-- Round deadlines are reminded (Swiss and round-robin leagues): once a day or less is left
-- before the deadline of a match's round and the match is still being played, the league
-- sweep tells both its players, once. `deadline_reminded`: that reminder was sent. Matches
-- of queue leagues (no rounds) never have it set.
ALTER TABLE league_matches ADD COLUMN deadline_reminded BOOLEAN NOT NULL DEFAULT FALSE;
