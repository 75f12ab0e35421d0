-- Who has the live table open: a person's page in a channel, as the process holding its socket
-- says (``holder``), until ``until`` (unix seconds) unless that process renews it. A seat whose
-- player is on the page gets no DM hand edits; the hand is brought up to date when the page
-- closes (db/presence.py). Not copied between databases: it lasts a minute and a half.
CREATE TABLE live_presence (
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    holder     TEXT    NOT NULL,
    until      REAL    NOT NULL,
    PRIMARY KEY (channel_id, user_id, holder)
);
