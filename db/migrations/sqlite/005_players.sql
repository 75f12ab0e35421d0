-- The players' layer: each result's finishing place (1 = first; tied seats share a place),
-- per-server, per-game ratings (openskill's mu and sigma; ordinal = mu - 3 sigma, the
-- conservative rating the leaderboard sorts by), and one history row per rated player per
-- game, from which the ratings can be rebuilt and their trend shown.
ALTER TABLE results ADD COLUMN place INTEGER;

CREATE TABLE IF NOT EXISTS ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (guild_id, game, ordinal);

CREATE TABLE IF NOT EXISTS rating_history (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    place    INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    before   REAL    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (guild_id, user_id, at);

-- Server settings (/settings): the turn timer in seconds (NULL: the bot's TURN_TIMEOUT_SECONDS,
-- 0: no timer) and whether computer players may be added. A game keeps the timer its server
-- had when its lobby opened; a seat remembers the deadline it was reminded of by DM.
CREATE TABLE IF NOT EXISTS guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    turn_timeout REAL,
    computers    INTEGER NOT NULL DEFAULT 1,
    updated_at   REAL    NOT NULL
);
ALTER TABLE games ADD COLUMN turn_timeout REAL;
ALTER TABLE seats ADD COLUMN reminded_for REAL;

-- Leaving a running game: a computer takes the seat (user_id NULL, is_computer 1) and the seat
-- and, once the game is over, its result keep who left.
ALTER TABLE seats ADD COLUMN left_user_id INTEGER;
ALTER TABLE results ADD COLUMN left_user_id INTEGER;
