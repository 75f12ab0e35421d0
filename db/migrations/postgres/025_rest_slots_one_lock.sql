-- The shared REST budget's call in two statements: one that locks the buckets' rows and
-- reads whether they have room, then (granted) one UPDATE. The same answers as 024.
-- - A bucket's row keeps its last ``lim`` calls in time order (older ones included): a call
--   has room when the lim-th latest left the window, and the wait is until it leaves. The
--   rows 024 left (the calls still inside a window, at most ``lim``) read the same way.
-- - The room is read as each row is locked: a row another call changed meanwhile is read
--   again once it is free (PostgreSQL rereads a locked row that changed). The clock that
--   reads it may be older than the lock: calls then look more recent, never less. The
--   call's own time is read by the UPDATE, once every row is held, so calls are appended in
--   time order.
-- - A missing row (a channel's first call) is not made here: this transaction would make it
--   while holding another bucket's lock, and a call holding the new row could be waiting for
--   that one, a deadlock. The answer -1 tells the caller to make the rows, holding nothing,
--   and ask again (db/budget.py).
CREATE OR REPLACE FUNCTION take_rest_slots(
    buckets TEXT[], lims INTEGER[], periods DOUBLE PRECISION[]
) RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    held INTEGER;
    wait DOUBLE PRECISION;
BEGIN
    SELECT count(*), max(w.wait) INTO held, wait
    FROM (
        SELECT CASE WHEN r.calls[cardinality(r.calls) - b.lim + 1]
                         > clock_timestamp() - make_interval(secs => b.period)
               THEN greatest(0.001, extract(epoch FROM r.calls[cardinality(r.calls) - b.lim + 1]
                         + make_interval(secs => b.period) - clock_timestamp()))
               END AS wait
        FROM rest_buckets AS r
        JOIN unnest(buckets, lims, periods) AS b(k, lim, period) ON r.key = b.k
        ORDER BY r.key
        FOR UPDATE OF r
    ) AS w;
    IF held < cardinality(buckets) THEN
        RETURN -1;
    END IF;
    IF wait IS NOT NULL THEN
        RETURN wait;
    END IF;
    UPDATE rest_buckets AS r
    SET calls = r.calls[cardinality(r.calls) - b.lim + 2:] || clock_timestamp()
    FROM unnest(buckets, lims) AS b(k, lim)
    WHERE r.key = b.k;
    RETURN 0;
END
$$;
