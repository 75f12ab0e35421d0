-- The round summaries a game's table message carries above the table (a round's summary and
-- the next round's table are one message: delivery/tables.py), as the JSON list of embeds
-- sent; NULL or '[]': the table alone. Every edit of the table sends them again, as Discord
-- replaces a message's embeds whole.
ALTER TABLE games ADD COLUMN table_head TEXT;
-- The table messages replaced and not yet retired (they still have their buttons), as a JSON
-- list of {"id": message id, "head": the summaries it carried}: a retirement waits for a
-- quiet moment of its channel, and a restart must not forget it.
ALTER TABLE games ADD COLUMN retiring_tables TEXT;
