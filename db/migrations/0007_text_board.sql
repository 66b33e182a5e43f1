-- A player's second notification choice (/notify text:): the whole position as text, privately, with
-- every board they are given (their move's confirmation, /hand, /game board, the direct message at
-- their turn), for a player who reads the game with a screen reader. Off for everyone already here.
ALTER TABLE notify ADD COLUMN text_board INTEGER NOT NULL DEFAULT 0;
