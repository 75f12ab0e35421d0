-- Discord's rate limits shared by every process on this database (db/budget.py): one row per
-- bucket (a channel's writes, the bot's global limit) with the times of its calls within the
-- last period. Unlogged: nothing in it outlives a few seconds, so a crash may empty it.
CREATE UNLOGGED TABLE IF NOT EXISTS rest_buckets (
    key TEXT PRIMARY KEY,
    calls TIMESTAMPTZ[] NOT NULL
);

-- One call of bucket ``bucket``: at most ``lim`` calls in any ``period`` seconds (a sliding
-- window, so no phase of Discord's own windows can see more). Returns 0 when the call may go
-- now (and counts it), else the seconds until the oldest counted call leaves the window. The
-- row lock makes concurrent takers wait for each other; the database's clock decides.
CREATE OR REPLACE FUNCTION take_rest_slot(bucket TEXT, lim INTEGER, period DOUBLE PRECISION)
RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ := clock_timestamp();
    recent TIMESTAMPTZ[];
BEGIN
    INSERT INTO rest_buckets (key, calls) VALUES (bucket, '{}') ON CONFLICT (key) DO NOTHING;
    SELECT ARRAY(
        SELECT c FROM unnest(b.calls) AS c
        WHERE c > now_ - make_interval(secs => period) ORDER BY c
    ) INTO recent
    FROM rest_buckets AS b WHERE b.key = bucket FOR UPDATE;
    IF coalesce(array_length(recent, 1), 0) < lim THEN
        UPDATE rest_buckets SET calls = recent || now_ WHERE key = bucket;
        RETURN 0;
    END IF;
    UPDATE rest_buckets SET calls = recent WHERE key = bucket;
    RETURN greatest(0.001, extract(epoch FROM recent[1] + make_interval(secs => period) - now_));
END
$$;
