-- Ratings. Every game that ends gets a result row, in the order the results were recorded (``id``):
-- the server and rating pool it belongs to, whether it is rated, and how each player finished
-- (``places``, JSON: player, side, rank, faction). Ratings are a function of the rated results in
-- that order (db/ratings.py): ``ratings`` holds each player's current rating in a pool of a server,
-- ``rating_changes`` what each rated result did to each of its players; a recomputation rebuilds
-- both from ``results`` alone. Servers are named by their guild id, '' for games outside a server.
CREATE TABLE results (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    guild       TEXT    NOT NULL,
    pool        TEXT    NOT NULL,
    rated       INTEGER NOT NULL,
    places      TEXT    NOT NULL,
    finished_at TEXT    NOT NULL
);
CREATE INDEX results_by_pool ON results (guild, pool, id);

CREATE TABLE rating_changes (
    result_id    INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    PRIMARY KEY (result_id, player)
);

CREATE TABLE ratings (
    guild       TEXT    NOT NULL,
    pool        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    PRIMARY KEY (guild, pool, player)
);
