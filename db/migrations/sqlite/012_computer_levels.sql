-- A computer player's strength (docs/computer-players.md), chosen per seat: every seat stored
-- before levels existed played today's computer, the normal one. The server's default level
-- is what "Add a computer player" offers first, what a leaver's seat gets and what autopilot
-- and timeouts play at.
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal'
    CHECK (level IN ('easy', 'normal', 'hard'));
ALTER TABLE guild_settings ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (computer_level IN ('easy', 'normal', 'hard'));
