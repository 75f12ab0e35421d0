-- PostgreSQL only: the REST budget that several processes share (db/budget.py). One process
-- on its SQLite file paces its calls in memory (delivery/pacing.py); nothing to store here.
SELECT 1;
