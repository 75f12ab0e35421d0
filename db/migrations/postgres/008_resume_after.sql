-- When a committed move leaves a computer, a player on autopilot or a forced move due, the game
-- should move on again within seconds; resume_after is that moment. A game still waiting past
-- it (its process stopped mid-chain, or the chain failed) is resumed by any running process.
ALTER TABLE games ADD COLUMN IF NOT EXISTS resume_after DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS games_resume_after ON games (resume_after)
    WHERE resume_after IS NOT NULL;
