-- A play/draw question does not wait forever (MTR 2.2 asks the chooser; an asynchronous
-- league cannot hold a match on one silent player). `choice_asked_at`: when the pending
-- question (`choice_game`) was first asked (unix seconds; NULL with no question). The
-- league sweep reminds the chooser halfway through their time to answer and, when it has
-- run out, applies the default the question announced: the chooser plays first.
-- `choice_reminded`: the chooser was reminded of the pending question.
ALTER TABLE league_matches ADD COLUMN choice_asked_at INTEGER;
ALTER TABLE league_matches ADD COLUMN choice_reminded BOOLEAN NOT NULL DEFAULT FALSE;
