-- Interactions POSTed by Discord (web/interactions.py), remembered by every worker on this
-- database so that a replay sent to another worker is refused too. A request older than the
-- signed timestamp's window is refused by its timestamp, so a row is kept only that long
-- (db/interactions.py prunes older ones). Unlogged: a crash may forget the last minutes.
CREATE UNLOGGED TABLE IF NOT EXISTS seen_interactions (
    id TEXT PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS seen_interactions_by_age ON seen_interactions (seen_at);
