-- What each player of a finished game played: the PostgreSQL form of migrations/0008_sides.sql.
ALTER TABLE results ADD COLUMN sides JSON;
