-- The players' layer: each result's finishing place (1 = first; tied seats share a place),
-- per-server, per-game ratings (openskill's mu and sigma; ordinal = mu - 3 sigma, the
-- conservative rating the leaderboard sorts by), and one history row per rated player per
-- game, from which the ratings can be rebuilt and their trend shown.
-- The same step as ../sqlite/004_players.sql in PostgreSQL's types.
ALTER TABLE results ADD COLUMN place INTEGER;

CREATE TABLE ratings (
    guild_id   BIGINT           NOT NULL,
    game       TEXT             NOT NULL,
    user_id    BIGINT           NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    ordinal    DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL DEFAULT 0,
    wins       INTEGER          NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal);

CREATE TABLE rating_history (
    game_id  BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT           NOT NULL,
    guild_id BIGINT           NOT NULL,
    game     TEXT             NOT NULL,
    place    INTEGER          NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    ordinal  DOUBLE PRECISION NOT NULL,
    before   DOUBLE PRECISION NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, at);

-- Server settings (/settings): the turn timer in seconds (NULL: the bot's TURN_TIMEOUT_SECONDS,
-- 0: no timer) and whether computer players may be added. A game keeps the timer its server
-- had when its lobby opened; a seat remembers the deadline it was reminded of by DM.
CREATE TABLE guild_settings (
    guild_id     BIGINT PRIMARY KEY,
    turn_timeout DOUBLE PRECISION,
    computers    BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at   DOUBLE PRECISION NOT NULL
);
ALTER TABLE games ADD COLUMN turn_timeout DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN reminded_for DOUBLE PRECISION;

-- Leaving a running game: a computer takes the seat (user_id NULL, is_computer TRUE) and the
-- seat and, once the game is over, its result keep who left.
ALTER TABLE seats ADD COLUMN left_user_id BIGINT;
ALTER TABLE results ADD COLUMN left_user_id BIGINT;
