-- Work that exactly one bot process may do at a time, when several serve one database (shards):
-- posting a game's handover, reminding its players. A process claims the work under a key
-- ('game:<id>') for a lease; a process killed while holding a claim holds it only until the lease
-- expires, then another takes the work over. Claims are not game data: a dump leaves them out.
-- The lease is read on the database's clock, so the processes' own clocks never need to agree.
CREATE TABLE claims (
    key      TEXT PRIMARY KEY,
    owner    TEXT NOT NULL,
    expires  TIMESTAMPTZ NOT NULL
);
