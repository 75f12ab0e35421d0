-- A move the rules left no choice about is played for the player and logged as 'forced'.
ALTER TABLE actions DROP CONSTRAINT IF EXISTS actions_actor_check;
ALTER TABLE actions ADD CONSTRAINT actions_actor_check
    CHECK (actor IN ('player', 'computer', 'timeout', 'autopilot', 'forced'));
