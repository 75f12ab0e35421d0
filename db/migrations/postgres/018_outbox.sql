-- What the bot owes a game's channel after a move (a round's summary, the result, a timeout's
-- or a leave's line), written in the same transaction as the move (db/outbox.py). A row is
-- claimed by one process, sent, then marked sent; one left unsent by a process that stopped
-- is claimed by another once the claim ran out. ``nonce``: the create-message nonce Discord
-- dedups on, the same at every attempt.
CREATE TABLE outbox (
    id            BIGSERIAL PRIMARY KEY,
    game_id       BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version       INTEGER          NOT NULL,
    kind          TEXT             NOT NULL CHECK (kind IN ('summary', 'line')),
    body          TEXT             NOT NULL,
    nonce         TEXT             NOT NULL UNIQUE,
    created_at    DOUBLE PRECISION NOT NULL,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    sent_at       DOUBLE PRECISION,
    message_id    BIGINT
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
