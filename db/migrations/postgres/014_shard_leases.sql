-- Which live process runs which gateway shards (db/leases.py, leasing.py): one row per shard
-- a process holds, renewed every few seconds by its holder. A row past expires_at is free, so
-- a process that died without a word (SIGKILL, a lost machine) lets its shards go within one
-- lease. The database's clock decides; the hosts' clocks never meet.
CREATE TABLE IF NOT EXISTS shard_leases (
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_id INTEGER NOT NULL CHECK (shard_id >= 0 AND shard_id < shard_count),
    holder TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);

-- Take every shard in ``wanted`` (of ``wanted_count``) for ``me`` for ``ttl`` seconds, all or
-- none. Refused while a live lease of another holder overlaps one of them: returns that lease
-- (the first one, with the wanted shard it overlaps and its seconds left), and takes nothing.
-- Shard i of N and shard j of M serve a common guild exactly when i = j modulo gcd(N, M)
-- (guild g is on shard (g >> 22) % N): so the same count overlaps only on the same shard, and
-- an unsharded bot (shard 0 of 1) overlaps everything. Expired leases are cleared on the way.
-- The table lock puts takers and renewers in one line: no taker reads a lease as expired
-- while its holder's renewal is under way.
CREATE OR REPLACE FUNCTION take_shard_leases(
    wanted_count INTEGER, wanted INTEGER[], me TEXT, ttl DOUBLE PRECISION
) RETURNS TABLE (
    held_count INTEGER, held_id INTEGER, held_by TEXT, held_until TIMESTAMPTZ,
    seconds_left DOUBLE PRECISION, overlapping INTEGER
) LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE;
    RETURN QUERY
        SELECT l.shard_count, l.shard_id, l.holder, l.expires_at,
               extract(epoch FROM l.expires_at - clock_timestamp())::DOUBLE PRECISION, w.id
        FROM shard_leases AS l CROSS JOIN unnest(wanted) AS w(id)
        WHERE l.expires_at > clock_timestamp() AND l.holder <> me
          AND (l.shard_id - w.id) % gcd(l.shard_count, wanted_count) = 0
        ORDER BY w.id, l.shard_count, l.shard_id
        LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    DELETE FROM shard_leases AS l WHERE l.expires_at <= clock_timestamp() OR l.holder = me;
    INSERT INTO shard_leases (shard_count, shard_id, holder, expires_at)
        SELECT wanted_count, w.id, me, clock_timestamp() + make_interval(secs => ttl)
        FROM unnest(wanted) AS w(id);
END
$$;

-- Renew ``me``'s leases that have not expired for another ``ttl`` seconds; how many were
-- renewed (fewer than the holder took: lost, taken over once expired).
CREATE OR REPLACE FUNCTION renew_shard_leases(me TEXT, ttl DOUBLE PRECISION)
RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
    renewed INTEGER;
BEGIN
    LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE;
    UPDATE shard_leases AS l SET expires_at = clock_timestamp() + make_interval(secs => ttl)
    WHERE l.holder = me AND l.expires_at > clock_timestamp();
    GET DIAGNOSTICS renewed = ROW_COUNT;
    RETURN renewed;
END
$$;
