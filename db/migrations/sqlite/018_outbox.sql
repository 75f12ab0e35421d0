-- What the bot owes a game's channel after a move (a round's summary, the result, a timeout's
-- or a leave's line), written in the same transaction as the move (db/outbox.py). A row is
-- sent, then marked sent; one left unsent by a stopped process is sent by the next repair.
-- ``nonce``: the create-message nonce Discord dedups on, the same at every attempt.
-- AUTOINCREMENT: an id is never given twice, so the order of what is owed is the order of ids.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('summary', 'line')),
    body          TEXT    NOT NULL,
    nonce         TEXT    NOT NULL UNIQUE,
    created_at    REAL    NOT NULL,
    claimed_by    TEXT,
    claimed_until REAL,
    sent_at       REAL,
    message_id    INTEGER
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
