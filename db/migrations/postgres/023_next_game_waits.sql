-- Who asked for a seat in a channel's next game (the live table's "Join the next game") and
-- when (unix seconds): the channel's next lobby seats them (db/waits.py). Kept across restarts;
-- an ask older than a few hours is forgotten. Not copied between databases.
CREATE TABLE next_game_waits (
    channel_id BIGINT           NOT NULL,
    user_id    BIGINT           NOT NULL,
    name       TEXT             NOT NULL,
    asked_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
