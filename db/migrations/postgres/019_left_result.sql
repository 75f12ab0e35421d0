-- A person who leaves a running game keeps a result of their own: the number of moves made
-- before they left (a replay shows them in the seat until that step, then the computer) and
-- their total at that moment (their /stats count it, not the computer's final total).
ALTER TABLE seats ADD COLUMN IF NOT EXISTS left_step INTEGER;
ALTER TABLE seats ADD COLUMN IF NOT EXISTS left_total INTEGER;
