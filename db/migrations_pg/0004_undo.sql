-- Undo by consent (migrations/0004_undo.sql). An accepted undo is a row of its own in the log (kind
-- 'undo', at the version it made), and the actions it took back stay in the log, marked undone.
ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'undo'));
ALTER TABLE actions ADD COLUMN undone BOOLEAN NOT NULL DEFAULT FALSE;

-- A player's standing request to take back their last actions (from action ``first`` on), made at
-- ``version``; it lapses with the next move. ``accepted`` lists who agreed.
CREATE TABLE undo_requests (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT    NOT NULL,
    first       INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    accepted    JSON    NOT NULL DEFAULT '[]',
    created_at  TEXT COLLATE "C" NOT NULL
);
