-- The last game version whose table and hands were all shown in Discord. After a restart only
-- games with a move committed after that (version > rendered_version) are redrawn.
ALTER TABLE games ADD COLUMN rendered_version BIGINT NOT NULL DEFAULT -1;
UPDATE games SET rendered_version = version WHERE status IN ('finished', 'cancelled');
