-- Languages (/language): what a person chose (NULL: follow Discord's own setting) and the last
-- locale Discord gave for them (their DMs are written in it between interactions); likewise
-- what a server's managers chose for public messages and the server's locale as Discord gave it.
CREATE TABLE IF NOT EXISTS user_languages (
    user_id        INTEGER PRIMARY KEY,
    language       TEXT,
    discord_locale TEXT,
    updated_at     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS server_languages (
    guild_id       INTEGER PRIMARY KEY,
    language       TEXT,
    discord_locale TEXT,
    updated_at     REAL NOT NULL
);
