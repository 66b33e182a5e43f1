-- A player's own settings, the same in every server: for now their time zone, quiet hours and own
-- reminder pace (/notify timezone: quiet: remind:), a JSON object of texts by name, so that another
-- choice of a player's needs no new column.
CREATE TABLE player_settings (
    player      TEXT PRIMARY KEY,
    settings    TEXT NOT NULL DEFAULT '{}',
    updated_at  TEXT NOT NULL
);

-- Time off (/away for:): one row per period a player said they were away in a server ('' outside any
-- server, as in the console). A period ended early (/away for:off, a move of theirs) keeps its row with
-- ``until`` brought forward: a table's deadline paused for them is worked out from these periods.
CREATE TABLE away (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    player  TEXT NOT NULL,
    guild   TEXT NOT NULL,
    since   TEXT NOT NULL,
    until   TEXT NOT NULL
);
CREATE INDEX away_by_player ON away (guild, player, until);
CREATE INDEX away_by_until ON away (until);

-- What a wait holds for each player it waits for (their next reminder, a ping held back by their
-- quiet hours, the channel told they are away) and how long each player paused the game's deadline,
-- as JSON (table/core/timing.py). Waits already under way have none: they remind as before.
ALTER TABLE announcements ADD COLUMN timing TEXT NOT NULL DEFAULT '{}';
