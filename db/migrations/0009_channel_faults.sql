-- Channels where Discord refuses the bot's posts until someone changes something there: a permission
-- a moderator took away (``missing`` names them, as a JSON list), a locked thread, an archived thread
-- the bot may not reopen. Their games are kept; the timed loop's catch-up leaves such a channel alone
-- but for a try now and then (``next_try``), further apart after each refusal (``tries``), and a
-- restart remembers where it stood. A post that goes through there again ends the fault.
CREATE TABLE channel_faults (
    channel   TEXT    PRIMARY KEY,
    kind      TEXT    NOT NULL,
    missing   TEXT    NOT NULL DEFAULT '[]',
    since     TEXT    NOT NULL,
    tries     INTEGER NOT NULL DEFAULT 1 CHECK (tries > 0),
    next_try  TEXT    NOT NULL
);

-- What a player is still to be told, privately, with their next answer in any channel: a channel that
-- refuses the bot, a game closed because its channel was deleted. The message is a catalog key and its
-- parameters (as notes keep theirs), shown in the reader's own language; it is told once, then deleted.
CREATE TABLE notices (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    player      TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    event       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE INDEX notices_by_player ON notices (player, id);
CREATE INDEX notices_by_channel ON notices (channel);
