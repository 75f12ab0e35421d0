-- Which copy of the database this is: a random token the bot replaces at each start (and the
-- backup command in each copy it writes), the last one also kept beside the database. A start
-- that finds another token than the one it kept is running on a restored copy, whose games are
-- behind what Discord shows: every open game is redrawn then.
CREATE TABLE IF NOT EXISTS generation (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    token TEXT    NOT NULL
);
INSERT INTO generation (id, token) VALUES (1, '');
