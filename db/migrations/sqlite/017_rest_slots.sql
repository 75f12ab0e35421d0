-- PostgreSQL only: a REST call's slots of the shared budget taken in one call (db/budget.py).
-- One process on its SQLite file paces its calls in memory; this keeps the numbers in step.
SELECT 1;
