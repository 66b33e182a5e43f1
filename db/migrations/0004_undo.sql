-- Undo by consent. An accepted undo is a row of its own in the log (kind 'undo', at the version it
-- made), and the actions it took back stay in the log, marked undone: the log tells what happened,
-- and replaying the seed with the moves not undone rebuilds the state.
ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'undo'));
ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;

-- A player's standing request to take back their last actions (from action ``first`` on), made at
-- ``version``; it lapses with the next move. ``accepted`` lists who agreed (JSON).
CREATE TABLE undo_requests (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT    NOT NULL,
    first       INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    accepted    TEXT    NOT NULL DEFAULT '[]',
    created_at  TEXT    NOT NULL
);
