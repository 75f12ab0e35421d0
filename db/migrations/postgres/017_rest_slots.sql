-- A REST call's slots taken together (db/budget.py): its channel's bucket and the bot's global
-- one in one call, one round trip per REST call instead of one per bucket. ``buckets``,
-- ``lims`` and ``periods`` go together, one element per bucket (distinct keys). Each bucket
-- counts the call when every one of them has room (a sliding window, as take_rest_slot), none
-- when one is full: the answer is then the seconds until the last full one has room. The rows
-- are locked in key order, so callers wanting the same buckets never wait in a circle.
CREATE OR REPLACE FUNCTION take_rest_slots(
    buckets TEXT[], lims INTEGER[], periods DOUBLE PRECISION[]
) RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ := clock_timestamp();
    wait DOUBLE PRECISION;
BEGIN
    INSERT INTO rest_buckets (key, calls)
    SELECT k, '{}' FROM unnest(buckets) AS k ORDER BY k
    ON CONFLICT (key) DO NOTHING;
    PERFORM 1 FROM rest_buckets WHERE key = ANY(buckets) ORDER BY key FOR UPDATE;
    -- The locked rows as they are now: each bucket's calls still inside its window.
    UPDATE rest_buckets AS r SET calls = ARRAY(
        SELECT c FROM unnest(r.calls) AS c
        WHERE c > now_ - make_interval(secs => b.period) ORDER BY c
    )
    FROM unnest(buckets, periods) AS b(k, period)
    WHERE r.key = b.k;
    SELECT max(greatest(0.001, extract(
        epoch FROM r.calls[1] + make_interval(secs => b.period) - now_)))
    INTO wait
    FROM rest_buckets AS r
    JOIN unnest(buckets, lims, periods) AS b(k, lim, period) ON r.key = b.k
    WHERE coalesce(array_length(r.calls, 1), 0) >= b.lim;
    IF wait IS NOT NULL THEN
        RETURN wait;
    END IF;
    UPDATE rest_buckets SET calls = calls || now_ WHERE key = ANY(buckets);
    RETURN 0;
END
$$;
