-- Who has the live table open: a person's page in a channel, as the process holding its socket
-- says (``holder``), until ``until`` (unix seconds) unless that process renews it. A seat whose
-- player is on the page gets no DM hand edits; the hand is brought up to date when the page
-- closes (db/presence.py). Not copied between databases: it lasts a minute and a half.
CREATE TABLE live_presence (
    user_id    BIGINT           NOT NULL,
    channel_id BIGINT           NOT NULL,
    holder     TEXT             NOT NULL,
    until      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, user_id, holder)
);

-- A page opened or closed is announced on game_changes as "0:<channel id>" (no game), so that
-- every process drops what it knew of the channel's open pages; a renewal (an update) is not.
CREATE OR REPLACE FUNCTION announce_presence_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('game_changes', '0:' || OLD.channel_id);
    ELSE
        PERFORM pg_notify('game_changes', '0:' || NEW.channel_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER live_presence_announced AFTER INSERT OR DELETE ON live_presence
    FOR EACH ROW EXECUTE FUNCTION announce_presence_change();
