-- Whether the server wants card pictures (hands, rounds, score charts) on the bot's messages.
ALTER TABLE guild_settings ADD COLUMN pictures BOOLEAN NOT NULL DEFAULT TRUE;
