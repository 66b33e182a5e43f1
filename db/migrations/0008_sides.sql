-- What each player of a finished game played (the engine's ``sides``: War Chest units, a Batailles
-- army, a Cry Havoc faction), for records that count wins by them: JSON, player id -> list of ids.
-- NULL until known: results recorded before this column get it from their game's stored state the
-- next time the bot starts (the catch-up) or the ratings are recomputed (``db.sides``).
ALTER TABLE results ADD COLUMN sides TEXT;

-- Records name players by the name they last sat down with in a server (``player_names``).
CREATE INDEX seats_by_player ON seats (player);
