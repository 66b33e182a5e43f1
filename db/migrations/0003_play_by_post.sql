-- What a play-by-post service remembers beyond the rules: which server a game belongs to, what its
-- channel was last shown, how long its players have been waiting, and the server's and players'
-- own settings.

-- The server (guild) of a game: /games lists a player's games per server. Games opened before this
-- migration get it on their next command.
ALTER TABLE games ADD COLUMN guild TEXT;
-- The language of the game's public posts when it was opened (a server setting overrides it).
ALTER TABLE games ADD COLUMN locale TEXT;
-- Table settings that are not the game's own options: reminder pace, deadline and its policy (JSON).
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
CREATE INDEX games_by_guild ON games (guild, status);

-- One row per started game: the last version and status its channel was shown, the handover post
-- that is edited while the same players act, and the wait that began with that handover.
-- ``rev`` is bumped by every write, which is checked, so that two writers never both act on one
-- announcement (two processes, or a restart racing a late task).
CREATE TABLE announcements (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rev            INTEGER NOT NULL DEFAULT 1,
    version        INTEGER NOT NULL,
    status         TEXT    NOT NULL,
    message        TEXT,
    since          INTEGER NOT NULL,
    summary_from   INTEGER NOT NULL,
    to_act         TEXT    NOT NULL DEFAULT '[]',
    posted_at      TEXT,
    waiting_since  TEXT,
    reminders      INTEGER NOT NULL DEFAULT 0,
    next_reminder  TEXT,
    deadline       TEXT,
    deadline_done  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX announcements_next_reminder ON announcements (next_reminder);
CREATE INDEX announcements_deadline ON announcements (deadline);

-- Games already under way were announced by the version that played them: nothing to catch up.
INSERT INTO announcements (game_id, version, status, since, summary_from, to_act)
SELECT id, version, status, version, version, '[]' FROM games WHERE state IS NOT NULL;

-- Table-level events outside the rules (moderation, deadlines), shown in the game's log after the
-- action that was current when they happened.
CREATE TABLE notes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    actor       TEXT,
    event       TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE INDEX notes_by_game ON notes (game_id, version, id);

-- A server's settings (/settings): public language, default reminder pace, deadline and policy.
CREATE TABLE guild_settings (
    guild       TEXT PRIMARY KEY,
    settings    TEXT NOT NULL DEFAULT '{}',
    updated_at  TEXT NOT NULL
);

-- A player's notification choice (/notify): a direct message when it becomes their turn.
CREATE TABLE notify (
    player      TEXT PRIMARY KEY,
    dm          INTEGER NOT NULL,
    updated_at  TEXT NOT NULL
);

-- Small facts the bot keeps about itself, e.g. the hash of the last command payload synced.
CREATE TABLE meta (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
