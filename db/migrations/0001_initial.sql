-- Games, their seats and their action log.
-- A game's "version" is the number of actions applied so far; actions.seq runs 1..version.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel     TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'aborted')),
    creator     TEXT    NOT NULL,
    players     INTEGER NOT NULL CHECK (players > 0),
    options     TEXT    NOT NULL DEFAULT '{}',
    seed        INTEGER NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    state       TEXT,
    result      TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

-- At most one game in the lobby or running per channel (or thread).
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games (channel, id);

-- Seats in join order (the rowid); that order becomes the engine's player order at start.
CREATE TABLE seats (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    team        INTEGER,
    UNIQUE (game_id, player)
);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq > 0),
    player      TEXT    NOT NULL,
    action      TEXT    NOT NULL,
    events      TEXT    NOT NULL DEFAULT '[]',
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
