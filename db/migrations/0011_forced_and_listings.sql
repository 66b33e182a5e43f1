-- Forced moves: an action the rules left its player no choice in (exactly one legal action) is played
-- for them at once, stored with the action that led to it. The log marks it, so that the channel's
-- posts and /game log say it was automatic, and /game undo takes it back with the action before it.
ALTER TABLE actions ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;

-- Messages the bot keeps up to date in place: a player's card of every game they sit in, in every
-- server (a direct message, /games card:true), and a server's list of its open games (in the channel
-- /settings games_channel chose). ``owner`` is 'player:<id>' or 'server:<id>'; ``channel`` is the
-- server's channel (none for a card); ``message`` the message edited (none until it is first sent),
-- so that a restart goes on editing the same one; ``changed`` counts the changes that concern it and
-- ``shown`` the count its message shows, so that a message left behind (a stop before its turn came)
-- is brought up to date by the next start.
CREATE TABLE listings (
    owner       TEXT    PRIMARY KEY,
    channel     TEXT,
    locale      TEXT    NOT NULL,
    message     TEXT,
    changed     INTEGER NOT NULL DEFAULT 1,
    shown       INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX listings_behind ON listings (owner) WHERE changed > shown;
