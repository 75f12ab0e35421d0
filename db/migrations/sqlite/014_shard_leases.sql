-- PostgreSQL only: the shard leases of several processes (db/leases.py). One process owns its
-- SQLite file through the store's OS lock on <file>.lock; nothing to store here.
SELECT 1;
