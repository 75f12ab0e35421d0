-- The shared REST budget's call with fewer statements inside, the same answers: the bot's
-- costliest statement, made once per REST call.
-- - The buckets' rows are inserted only when one is missing (a channel's first call), seen by
--   a plain read before any row is locked: a call that inserted after locking a row could
--   then wait for a row locked by a call waiting for its own, a deadlock.
-- - A refused call writes nothing: it counts in no bucket, and the calls that have left a
--   window are dropped by the next call granted there.
-- - A granted call drops them and appends itself in one UPDATE.
-- A bucket's calls are appended in time order, under its row's lock, so the earliest call
-- still inside its window is the one whose leaving gives the bucket room.
CREATE OR REPLACE FUNCTION take_rest_slots(
    buckets TEXT[], lims INTEGER[], periods DOUBLE PRECISION[]
) RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ;
    wait DOUBLE PRECISION;
BEGIN
    IF (SELECT count(*) FROM rest_buckets WHERE key = ANY(buckets)) < cardinality(buckets) THEN
        INSERT INTO rest_buckets (key, calls)
        SELECT k, '{}' FROM unnest(buckets) AS k ORDER BY k
        ON CONFLICT (key) DO NOTHING;
    END IF;
    PERFORM 1 FROM rest_buckets WHERE key = ANY(buckets) ORDER BY key FOR UPDATE;
    now_ := clock_timestamp();  -- the rows are ours: no other call is counted meanwhile
    SELECT max(greatest(0.001, extract(epoch FROM w.earliest + w.span - now_)))
    INTO wait
    FROM (
        SELECT b.lim, make_interval(secs => b.period) AS span,
               (SELECT count(*) FROM unnest(r.calls) AS c
                WHERE c > now_ - make_interval(secs => b.period)) AS recent,
               (SELECT min(c) FROM unnest(r.calls) AS c
                WHERE c > now_ - make_interval(secs => b.period)) AS earliest
        FROM rest_buckets AS r
        JOIN unnest(buckets, lims, periods) AS b(k, lim, period) ON r.key = b.k
    ) AS w
    WHERE w.recent >= w.lim;
    IF wait IS NOT NULL THEN
        RETURN wait;
    END IF;
    UPDATE rest_buckets AS r SET calls = ARRAY(
        SELECT c FROM unnest(r.calls) AS c
        WHERE c > now_ - make_interval(secs => b.period) ORDER BY c
    ) || now_
    FROM unnest(buckets, periods) AS b(k, period)
    WHERE r.key = b.k;
    RETURN 0;
END
$$;
