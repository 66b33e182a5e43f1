-- What each player of a finished game played: the PostgreSQL form of migrations/0008_sides.sql.
ALTER TABLE results ADD COLUMN sides JSON;

-- Records name players by the name they last sat down with in a server (``player_names``).
CREATE INDEX seats_by_player ON seats (player);
