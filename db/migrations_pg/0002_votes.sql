-- Draw offers and abort votes of running games (migrations/0002_votes.sql). A draw offer lapses with
-- the next move (the store deletes it in the move's transaction); abort votes last until the game ends.

CREATE TABLE votes (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('draw', 'abort')),
    player      TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    created_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (game_id, kind, player)
);
