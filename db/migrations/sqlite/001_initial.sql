-- Games, their seats, the append-only action log and finished results.
CREATE TABLE IF NOT EXISTS games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    seed             INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    snapshot         TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    table_key        TEXT,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    ended_at         REAL
);

-- At most one open game per channel, enforced by the database itself.
CREATE UNIQUE INDEX IF NOT EXISTS games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX IF NOT EXISTS games_by_channel ON games (channel_id, id);

CREATE TABLE IF NOT EXISTS seats (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    user_id        INTEGER,
    name           TEXT    NOT NULL,
    is_computer    INTEGER NOT NULL DEFAULT 0,
    accepted       INTEGER NOT NULL DEFAULT 1,
    step           INTEGER NOT NULL DEFAULT 0,
    deadline       REAL,
    timeouts       INTEGER NOT NULL DEFAULT 0,
    autopilot      INTEGER NOT NULL DEFAULT 0,
    dm_channel_id  INTEGER,
    dm_message_id  INTEGER,
    dm_closed      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX IF NOT EXISTS seats_one_per_user
    ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS seats_by_deadline ON seats (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    actor   TEXT    NOT NULL CHECK (actor IN ('player', 'computer', 'timeout', 'autopilot')),
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    user_id INTEGER,
    total   INTEGER NOT NULL,
    won     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
