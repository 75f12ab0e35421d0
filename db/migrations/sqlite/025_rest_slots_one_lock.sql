-- PostgreSQL only: the shared REST budget's call in two statements (db/budget.py). One
-- process on its SQLite file paces its calls in memory.
SELECT 1;
