-- Every write to a game or its seats is announced to every process that LISTENs on
-- game_changes (the live table's viewers, web/): the payload is "<game id>:<channel id>",
-- delivered at commit (never for a rolled-back write; repeats in one transaction once).
CREATE OR REPLACE FUNCTION announce_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed_game BIGINT;
    changed_channel BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        changed_game := NEW.id;
        changed_channel := NEW.channel_id;
    ELSE
        IF TG_OP = 'DELETE' THEN
            changed_game := OLD.game_id;
        ELSE
            changed_game := NEW.game_id;
        END IF;
        SELECT g.channel_id INTO changed_channel FROM games AS g WHERE g.id = changed_game;
    END IF;
    PERFORM pg_notify('game_changes', changed_game || ':' || coalesce(changed_channel, 0));
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS games_announced ON games;
CREATE TRIGGER games_announced
    AFTER INSERT OR UPDATE OF status, version, updated_at, host_id ON games
    FOR EACH ROW EXECUTE FUNCTION announce_game_change();

DROP TRIGGER IF EXISTS seats_announced ON seats;
CREATE TRIGGER seats_announced AFTER INSERT OR DELETE ON seats
    FOR EACH ROW EXECUTE FUNCTION announce_game_change();

DROP TRIGGER IF EXISTS seats_updated_announced ON seats;
CREATE TRIGGER seats_updated_announced AFTER UPDATE ON seats
    FOR EACH ROW WHEN (
        OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.name IS DISTINCT FROM NEW.name
        OR OLD.accepted IS DISTINCT FROM NEW.accepted
        OR OLD.autopilot IS DISTINCT FROM NEW.autopilot
        OR OLD.is_computer IS DISTINCT FROM NEW.is_computer
        OR OLD.level IS DISTINCT FROM NEW.level
    )
    EXECUTE FUNCTION announce_game_change();
