-- Forced moves and kept listings (migrations/0011_forced_and_listings.sql). An action the rules left
-- its player no choice in is played for them at once; the log marks it.
ALTER TABLE actions ADD COLUMN auto BOOLEAN NOT NULL DEFAULT FALSE;

-- Messages the bot keeps up to date in place: a player's card of every game they sit in (a direct
-- message) and a server's list of its open games (in the channel its managers chose). ``changed``
-- counts the changes that concern one, ``shown`` the count its message shows.
CREATE TABLE listings (
    owner       TEXT    PRIMARY KEY,
    channel     TEXT,
    locale      TEXT    NOT NULL,
    message     TEXT,
    changed     BIGINT  NOT NULL DEFAULT 1,
    shown       BIGINT  NOT NULL DEFAULT 0,
    updated_at  TEXT COLLATE "C" NOT NULL
);
CREATE INDEX listings_behind ON listings (owner) WHERE changed > shown;
