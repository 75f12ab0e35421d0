-- The game version each player's DM shows (the table's is games.rendered_version): a crash
-- between the table's edit and the DMs' leaves a DM behind, finished games too, and the start-up
-- and the periodic repair redraw a game while any DM of it is behind. Seats of games that ended
-- before this column existed count as shown.
ALTER TABLE seats ADD COLUMN IF NOT EXISTS shown_version INTEGER NOT NULL DEFAULT -1;
UPDATE seats SET shown_version = (
    SELECT CASE WHEN g.status IN ('finished', 'cancelled') THEN g.version ELSE g.rendered_version END
    FROM games g WHERE g.id = seats.game_id
);
