-- Sideboarding between the games of a match: the member's deck for the rest of match
-- `side_match` (a deck list), changed from the rest of their pool. It stops applying when
-- that match is over (the build in use comes back).
ALTER TABLE league_members ADD COLUMN side_list TEXT;
ALTER TABLE league_members ADD COLUMN side_match INTEGER;
