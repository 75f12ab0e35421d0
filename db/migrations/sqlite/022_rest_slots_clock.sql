-- PostgreSQL only: the shared REST budget's functions read the clock once they hold their
-- buckets' rows (db/budget.py). One process on its SQLite file paces its calls in memory.
SELECT 1;
