-- Nothing to store: on SQLite (one process) the announcements of game changes come from
-- temporary triggers each connection creates for itself (db/changes.py), so a connection
-- without the bot's function (the sqlite3 shell, a backup) writes as before.
SELECT 1;
