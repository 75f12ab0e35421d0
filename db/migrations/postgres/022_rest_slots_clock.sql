-- The shared REST budget's functions read the clock once they hold their buckets' rows, not
-- before they wait for them. A call that waited for another process's lock counted itself at
-- the moment it started waiting: earlier than it was granted, so its slot left the sliding
-- window early, and one window could hold one call more than its limit.
CREATE OR REPLACE FUNCTION take_rest_slots(
    buckets TEXT[], lims INTEGER[], periods DOUBLE PRECISION[]
) RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ;
    wait DOUBLE PRECISION;
BEGIN
    INSERT INTO rest_buckets (key, calls)
    SELECT k, '{}' FROM unnest(buckets) AS k ORDER BY k
    ON CONFLICT (key) DO NOTHING;
    PERFORM 1 FROM rest_buckets WHERE key = ANY(buckets) ORDER BY key FOR UPDATE;
    now_ := clock_timestamp();  -- the rows are ours: no other call is counted meanwhile
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

CREATE OR REPLACE FUNCTION take_rest_slot(bucket TEXT, lim INTEGER, period DOUBLE PRECISION)
RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ;
    recent TIMESTAMPTZ[];
BEGIN
    INSERT INTO rest_buckets (key, calls) VALUES (bucket, '{}') ON CONFLICT (key) DO NOTHING;
    PERFORM 1 FROM rest_buckets WHERE key = bucket FOR UPDATE;
    now_ := clock_timestamp();  -- the row is ours: no other call is counted meanwhile
    SELECT ARRAY(
        SELECT c FROM unnest(b.calls) AS c
        WHERE c > now_ - make_interval(secs => period) ORDER BY c
    ) INTO recent
    FROM rest_buckets AS b WHERE b.key = bucket;
    IF coalesce(array_length(recent, 1), 0) < lim THEN
        UPDATE rest_buckets SET calls = recent || now_ WHERE key = bucket;
        RETURN 0;
    END IF;
    UPDATE rest_buckets SET calls = recent WHERE key = bucket;
    RETURN greatest(0.001, extract(epoch FROM recent[1] + make_interval(secs => period) - now_));
END
$$;
