-- The embedded database serves one process: it remembers interactions in memory
-- (web/interactions.py), so this migration only keeps the numbers of both dialects in step.
SELECT 1;
