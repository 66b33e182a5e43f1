-- Leagues and tournaments: a league lives in a channel, from its sign-up card to its final standings.
-- Its players, rounds, tables (the games it made, in their threads), results as it counted them and the
-- posts it keeps edited are one JSON document (``doc``), written whole and only over the revision its
-- writer read (``rev``): two processes never both start a round, and a restart finds where it stood.
-- The games themselves know their league only by its id among their settings.
CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel     TEXT    NOT NULL,
    guild       TEXT,
    name        TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'over')),
    creator     TEXT    NOT NULL,
    doc         TEXT    NOT NULL DEFAULT '{}',
    rev         INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- At most one league signing up or running per channel.
CREATE UNIQUE INDEX leagues_one_open_per_channel ON leagues (channel) WHERE status IN ('signup', 'running');
CREATE INDEX leagues_by_status ON leagues (status, id);
CREATE INDEX leagues_by_guild ON leagues (guild, id);
