-- Games, their seats, the append-only action log and finished results.
-- The same history as ../sqlite/001_initial.sql in PostgreSQL's types: Discord ids are
-- BIGINT, times are seconds since the epoch as DOUBLE PRECISION, flags are BOOLEAN.
CREATE TABLE games (
    id               BIGSERIAL PRIMARY KEY,
    guild_id         BIGINT           NOT NULL,
    channel_id       BIGINT           NOT NULL,
    game             TEXT             NOT NULL,
    status           TEXT             NOT NULL
        CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          BIGINT           NOT NULL,
    seed             BIGINT           NOT NULL,
    options          TEXT             NOT NULL DEFAULT '{}',
    snapshot         TEXT,
    version          INTEGER          NOT NULL DEFAULT 0,
    lobby_message_id BIGINT,
    table_message_id BIGINT,
    table_key        TEXT,
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    ended_at         DOUBLE PRECISION
);

-- At most one open game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games (channel_id, id);

CREATE TABLE seats (
    game_id        BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    user_id        BIGINT,
    name           TEXT    NOT NULL,
    is_computer    BOOLEAN NOT NULL DEFAULT FALSE,
    accepted       BOOLEAN NOT NULL DEFAULT TRUE,
    step           INTEGER NOT NULL DEFAULT 0,
    deadline       DOUBLE PRECISION,
    timeouts       INTEGER NOT NULL DEFAULT 0,
    autopilot      BOOLEAN NOT NULL DEFAULT FALSE,
    dm_channel_id  BIGINT,
    dm_message_id  BIGINT,
    dm_closed      BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user
    ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_deadline ON seats (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE actions (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    actor   TEXT    NOT NULL CHECK (actor IN ('player', 'computer', 'timeout', 'autopilot')),
    at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE results (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    user_id BIGINT,
    total   INTEGER NOT NULL,
    won     BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
