-- Play/draw (MTR 2.2) as a real decision: the chooser of each game (a random player for
-- game 1, the loser of each game for the next) is asked "play or draw", unless they opted
-- into a standing answer.
--
-- `play_draw` is the member's standing answer: 'ask' (the default: a newcomer is asked
-- every time), 'play' (always play first) or 'draw' (always draw first). It replaces
-- `prefer_draw`, which is no longer read: existing members keep what they had, so
-- `prefer_draw = TRUE` becomes 'draw' and FALSE becomes 'play' (until now the chooser
-- played first unless they preferred to draw); `league prefer ask` turns the question on.
--
-- `choice_game` on a match: the number of the game whose chooser has been asked and not
-- yet answered (NULL: no question pending). The game starts when the chooser answers.
ALTER TABLE league_members ADD COLUMN play_draw TEXT NOT NULL DEFAULT 'ask';
UPDATE league_members SET play_draw = CASE WHEN prefer_draw THEN 'draw' ELSE 'play' END;
ALTER TABLE league_matches ADD COLUMN choice_game BIGINT;
