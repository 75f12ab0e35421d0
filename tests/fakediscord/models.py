"""State kept by the fake Discord and the JSON payloads built from it (Discord API v10 shapes)."""

from __future__ import annotations

import copy
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (Discord API "Permissions" table).
ADD_REACTIONS = 1 << 6
MANAGE_GUILD = 1 << 5
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# The locales Discord clients send (Discord API "Locales"); there is no Estonian.
DISCORD_LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt",
        "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el",
        "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip
DEFAULT_LOCALE = "en-US"


def check_locale(locale: str) -> str:
    """``locale`` if Discord has it, else ValueError (e.g. "et": Discord has no Estonian)."""
    if locale not in DISCORD_LOCALES:
        raise ValueError(f"{locale!r} is not a Discord locale: {sorted(DISCORD_LOCALES)}")
    return locale


class Snowflakes:
    """Generates real-looking, strictly increasing snowflake ids."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would live on ``shard_id``: ``(id >> 22) % count == id``."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} of {shard_count}")
        candidate = self.next()
        millis = candidate >> 22
        if millis % shard_count != shard_id:
            millis += (shard_id - millis) % shard_count
            candidate = millis << 22
        self._last = candidate
        return candidate


def now_iso() -> str:
    """The current time as Discord writes timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user; ``bot`` marks the bot's own account."""

    id: int
    name: str
    dms_open: bool = True
    manage_guild: bool = False
    bot: bool = False
    locale: str = DEFAULT_LOCALE
    avatar: str | None = None  # the avatar's hash (None: Discord's default avatar)
    global_name: str | None = None  # the display name (None: the username, as the fake had)

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else (self.global_name or self.name),
            "discriminator": "0",
            "avatar": self.avatar,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeGuild:
    """A guild: its channels and members; role ids are derived from the guild's."""

    id: int
    name: str
    owner_id: int
    manager_role_id: int
    bot_role_id: int
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)
    locale: str = DEFAULT_LOCALE
    nicks: dict[int, str] = field(default_factory=dict)  # user -> their nickname in the guild
    avatars: dict[int, str] = field(default_factory=dict)  # user -> their guild avatar's hash

    def roles_payload(self) -> list[JSON]:
        def role(role_id: int, name: str, perms: int, position: int, managed: bool) -> JSON:
            return {
                "id": str(role_id),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
            }

        return [
            role(self.id, "@everyone", EVERYONE_PERMISSIONS, 0, False),
            role(self.manager_role_id, "Manager", EVERYONE_PERMISSIONS | MANAGE_GUILD, 1, False),
            role(self.bot_role_id, "Bot", BOT_PERMISSIONS, 2, True),
        ]


@dataclass
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1)."""

    id: int
    name: str
    guild_id: int | None
    recipient_id: int | None = None
    # Permission overwrites as Discord sends them ({"id", "type" (0 role, 1 member), "allow",
    # "deny"}); only a member overwrite for the bot is read (bot_permissions_in).
    overwrites: list[JSON] = field(default_factory=list)

    @property
    def type(self) -> int:
        return 0 if self.guild_id is not None else 1


def bot_permissions_in(channel: FakeChannel, bot_id: int) -> int:
    """The bot's permissions in a channel: its role's, changed by a member overwrite for it
    (without View Channel Discord grants nothing in the channel)."""
    perms = BOT_PERMISSIONS
    for overwrite in channel.overwrites:
        if overwrite["type"] == 1 and int(overwrite["id"]) == bot_id:
            perms = (perms & ~int(overwrite["deny"])) | int(overwrite["allow"])
    return perms if perms & VIEW_CHANNEL else 0


@dataclass
class StoredMessage:
    """One message with every version it ever had (``versions[-1]`` is the current one)."""

    id: int
    channel_id: int
    data: JSON
    versions: list[JSON] = field(default_factory=list)
    ephemeral_to: int | None = None
    deleted: bool = False
    last_write: float = 0.0
    interaction_id: int | None = None

    def write(self, data: JSON) -> None:
        self.data = data
        self.versions.append(copy.deepcopy(data))
        self.last_write = time.monotonic()


def permissions_of(guild: FakeGuild, user: FakeUser) -> int:
    """Total permissions of a member in any channel (no overwrites are modelled)."""
    if user.bot:
        return BOT_PERMISSIONS
    if user.manage_guild:
        return EVERYONE_PERMISSIONS | MANAGE_GUILD
    return EVERYONE_PERMISSIONS


def member_payload(guild: FakeGuild, user: FakeUser, *, with_user: bool = True) -> JSON:
    """A guild member object; ``permissions`` is included (as in interactions)."""
    roles: list[str] = []
    if user.bot:
        roles.append(str(guild.bot_role_id))
    elif user.manage_guild:
        roles.append(str(guild.manager_role_id))
    data: JSON = {
        "roles": roles,
        "nick": guild.nicks.get(user.id),
        "avatar": guild.avatars.get(user.id),
        "banner": None,
        "joined_at": guild.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "permissions": str(permissions_of(guild, user)),
    }
    if with_user:
        data["user"] = user.payload()
    return data


def channel_payload(channel: FakeChannel, users: dict[int, FakeUser]) -> JSON:
    """A channel object as returned by GET /channels/{id}."""
    if channel.type == 1:
        recipients = []
        if channel.recipient_id is not None:
            recipients.append(users[channel.recipient_id].payload())
        return {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": recipients,
        }
    return {
        "id": str(channel.id),
        "type": 0,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": 0,
        "permission_overwrites": copy.deepcopy(channel.overwrites),
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild_payload(
    guild: FakeGuild,
    channels: dict[int, FakeChannel],
    users: dict[int, FakeUser],
    *,
    full: bool,
) -> JSON:
    """A guild object; ``full`` adds the GUILD_CREATE extras (channels, members, ...)."""
    data: JSON = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": guild.roles_payload(),
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": guild.locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }
    if full:
        data.update(
            {
                "joined_at": guild.joined_at,
                "large": False,
                "unavailable": False,
                "member_count": len(guild.member_ids),
                "voice_states": [],
                "members": [member_payload(guild, users[uid]) for uid in guild.member_ids],
                "channels": [channel_payload(channels[cid], users) for cid in guild.channel_ids],
                "threads": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
    return data
