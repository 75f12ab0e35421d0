-- A move the rules left no choice about is played for the player and logged as 'forced'.
-- SQLite cannot change a CHECK constraint in place: the action log is copied into a new table.
CREATE TABLE actions_new (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    actor   TEXT    NOT NULL
        CHECK (actor IN ('player', 'computer', 'timeout', 'autopilot', 'forced')),
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
INSERT INTO actions_new (game_id, seq, seat, action, actor, at)
    SELECT game_id, seq, seat, action, actor, at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;
