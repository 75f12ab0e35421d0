"""Settings read once from the environment (and .env) into one frozen object.

Where a setting comes from, first match wins: the process environment, the env file, the
default. The env file is ``.env`` beside ``bot.py`` unless
``CARDTABLE_ENV_FILE`` names another one; ``CARDTABLE_ENV_FILE=`` (empty) reads none, which
is what the tests set so that a developer's ``.env`` never reaches them.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from dotenv import dotenv_values

DEFAULT_DATABASE = "data/bot.db"
DEFAULT_ENV_FILE = Path(__file__).resolve().with_name(".env")
ENV_FILE_VARIABLE = "CARDTABLE_ENV_FILE"
DEFAULT_HEARTBEAT_SECONDS = 10.0
EVENT_LOOPS = ("auto", "uvloop", "asyncio")
ON_CANNOT_START = ("exit", "wait")
INTERACTIONS = ("gateway", "http")
DEFAULT_LIVE_SESSION_MINUTES = 15.0


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line for the admin."""


def env_file(environ: Mapping[str, str]) -> Path | None:
    """The env file to read: CARDTABLE_ENV_FILE if set (empty: none), else .env beside bot.py."""
    chosen = environ.get(ENV_FILE_VARIABLE)
    if chosen is None:
        return DEFAULT_ENV_FILE
    return Path(chosen) if chosen.strip() else None


def environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process environment over the env file's values (the environment wins)."""
    process = dict(os.environ if environ is None else environ)
    path = env_file(process)
    merged: dict[str, str] = {}
    if path is not None and path.is_file():
        merged.update({k: v for k, v in dotenv_values(path).items() if v is not None})
    merged.update(process)
    return merged


def database_path(source: Mapping[str, str]) -> Path:
    """DATABASE_PATH, or the default; needs no token (backups and health checks use it)."""
    return Path(source.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)


def database_url(source: Mapping[str, str]) -> str | None:
    """DATABASE_URL (PostgreSQL; None: the SQLite file), with DATABASE_PASSWORD put in.

    A password inside a URL must be percent-encoded: ``@ : / ? # %`` would cut the URL in the
    wrong place. DATABASE_PASSWORD takes the password as it is and encodes it here, so that
    compose.yaml passes PostgreSQL's password on without building a URL from it.
    """
    url = source.get("DATABASE_URL", "").strip() or None
    password = source.get("DATABASE_PASSWORD", "")
    if url is None:
        if password.strip():
            raise SettingsError("DATABASE_PASSWORD is set but DATABASE_URL is not.")
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user@host/db), "
            "or empty for the SQLite file at DATABASE_PATH."
        )
    if not password.strip():
        return url
    parts = urlsplit(url)
    user, at, host = parts.netloc.rpartition("@")
    if not at or not user:
        raise SettingsError(
            "DATABASE_URL needs a user name for DATABASE_PASSWORD (postgresql://user@host/db)."
        )
    if ":" in user:
        raise SettingsError(
            "DATABASE_URL has a password and DATABASE_PASSWORD is set: keep one "
            "(DATABASE_PASSWORD takes any character as it is)."
        )
    netloc = f"{user}:{quote(password, safe='')}@{host}"
    return urlunsplit(parts._replace(netloc=netloc))


def _seconds(source: Mapping[str, str], name: str, default: float, hint: str = "") -> float:
    text = source.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {text!r}.") from None
    if value < 0:
        raise SettingsError(f"{name} cannot be negative{hint}.")
    return value


def heartbeat_seconds(source: Mapping[str, str]) -> float:
    """HEARTBEAT_SECONDS: how often the running bot rewrites its heartbeat file."""
    value = _seconds(source, "HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS)
    if value == 0:
        raise SettingsError("HEARTBEAT_SECONDS must be more than 0.")
    return value


def on_cannot_start(source: Mapping[str, str]) -> str:
    """ON_CANNOT_START: after a reason to stop that starting again would not fix (a bad setting,
    a refused token), ``exit`` with code 2 (the default) or ``wait`` to be stopped, for Docker
    (see runtime/lifecycle.py). Read apart from Settings: it applies when Settings cannot be
    made."""
    value = (source.get("ON_CANNOT_START", "").strip() or "exit").lower()
    if value not in ON_CANNOT_START:
        raise SettingsError(f"ON_CANNOT_START must be exit or wait, not {value!r}.")
    return value


def shards(source: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS (e.g. ``0,1`` or ``2``): how many shards in all and which of
    them this process runs; neither: unsharded. SHARD_COUNT alone runs every shard."""
    count_text = source.get("SHARD_COUNT", "").strip()
    ids_text = source.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the number of shards in all).")
        return None, None
    try:
        count = int(count_text)
    except ValueError:
        count = 0
    if count < 1:
        raise SettingsError(f"SHARD_COUNT must be a whole number of 1 or more, not {count_text!r}.")
    if not ids_text:
        return count, None
    try:
        ids = tuple(int(part) for part in ids_text.split(","))
    except ValueError:
        raise SettingsError(
            f"SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not {ids_text!r}."
        ) from None
    if any(not 0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise SettingsError(
            f"SHARD_IDS must name different shards from 0 to {count - 1} "
            f"(SHARD_COUNT is {count}), not {ids_text!r}."
        )
    return count, ids


def web_address(source: Mapping[str, str]) -> tuple[str, int | None]:
    """WEB_HOST (default 127.0.0.1; 0.0.0.0 in a container) and WEB_PORT (unset: no HTTP
    server; 0: any free port)."""
    host = source.get("WEB_HOST", "").strip() or "127.0.0.1"
    port_text = source.get("WEB_PORT", "").strip()
    if not port_text:
        return host, None
    try:
        port = int(port_text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise SettingsError(f"WEB_PORT must be a port number (0 to 65535), not {port_text!r}.")
    return host, port


def trusted_proxies(source: Mapping[str, str]) -> tuple[str, ...]:
    """TRUSTED_PROXIES: the addresses or networks (``10.0.0.5``, ``172.16.0.0/12``), separated
    by commas, whose ``X-Forwarded-For`` the web server believes (the balancer in front of it);
    empty: none, every request's address is the connection's own (web/clients.py)."""
    text = source.get("TRUSTED_PROXIES", "").strip()
    if not text:
        return ()
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    for part in parts:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise SettingsError(
                "TRUSTED_PROXIES must be addresses or networks separated by commas "
                f"(e.g. 127.0.0.1,172.16.0.0/12), not {part!r}."
            ) from None
    return parts


def live_session_seconds(source: Mapping[str, str]) -> float:
    """LIVE_SESSION_MINUTES: how long a live table's sign-in lasts (default 15); the page renews
    it over its open socket before then, and a socket whose session ran out is closed."""
    text = source.get("LIVE_SESSION_MINUTES", "").strip()
    if not text:
        return DEFAULT_LIVE_SESSION_MINUTES * 60
    try:
        minutes = float(text)
    except ValueError:
        minutes = 0.0
    if not 1 <= minutes <= 24 * 60:
        raise SettingsError(
            f"LIVE_SESSION_MINUTES must be a number of minutes from 1 to 1440, not {text!r}."
        )
    return minutes * 60


def interactions(source: Mapping[str, str], web_port: int | None) -> tuple[str, str | None]:
    """INTERACTIONS (``gateway``, the default, or ``http``: Discord POSTs them to the web
    server's /interactions) and DISCORD_PUBLIC_KEY, the application's key that signs them
    (64 hex digits; needed, with WEB_PORT, for ``http``)."""
    mode = (source.get("INTERACTIONS", "").strip() or "gateway").lower()
    if mode not in INTERACTIONS:
        raise SettingsError(f"INTERACTIONS must be gateway or http, not {mode!r}.")
    key = source.get("DISCORD_PUBLIC_KEY", "").strip().lower() or None
    if key is not None:
        try:
            valid = len(bytes.fromhex(key)) == 32
        except ValueError:
            valid = False
        if not valid:
            raise SettingsError(
                "DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits "
                "(Developer Portal, General Information)."
            )
    if mode == "http":
        if key is None:
            raise SettingsError(
                "INTERACTIONS=http needs DISCORD_PUBLIC_KEY (Developer Portal, General "
                "Information) to check Discord's signatures."
            )
        if web_port is None:
            raise SettingsError("INTERACTIONS=http needs WEB_PORT: the port Discord's POSTs reach.")
    return mode, key


def http_only(settings: Settings) -> Settings:
    """The settings of `bot.py worker`: no gateway connection, so interactions must come over
    HTTP (and a worker runs no shards)."""
    if settings.interactions != "http":
        raise SettingsError(
            "`bot.py worker` serves interactions over HTTP only: set INTERACTIONS=http, "
            "DISCORD_PUBLIC_KEY and WEB_PORT."
        )
    return replace(settings, gateway=False, shard_count=None, shard_ids=None)


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    turn_timeout: float
    log_level: str
    heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS
    database_url: str | None = None  # PostgreSQL, shared by several processes; else SQLite
    rate_limit_scale: float = 1.0  # tests against the fake Discord only: shorter windows
    pictures: bool = True  # card pictures on turn DMs, round summaries and results
    shard_count: int | None = None  # sharded: this many shards in all (None: unsharded)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)
    event_loop: str = "auto"  # "uvloop", "asyncio", or "auto": uvloop where it is installed
    web_host: str = "127.0.0.1"  # the bot's HTTP server (web/): where it listens
    web_port: int | None = None  # None: no HTTP server
    interactions: str = "gateway"  # "http": Discord POSTs interactions to /interactions
    public_key: str | None = None  # the application's Ed25519 key (hex), for "http"
    gateway: bool = True  # False for `bot.py worker`: interactions over HTTP only
    client_id: str | None = None  # the application's OAuth2 client id (the Activity)
    client_secret: str | None = None  # its OAuth2 secret: signs the Activity's sessions
    trusted_proxies: tuple[str, ...] = ()  # whose X-Forwarded-For is believed (web/clients.py)
    live_session_seconds: float = DEFAULT_LIVE_SESSION_MINUTES * 60  # a live table sign-in

    @property
    def activity(self) -> bool:
        """Whether this process serves the live table (the Activity, docs/activity.md)."""
        return self.web_port is not None and self.offers_activity

    @property
    def offers_activity(self) -> bool:
        """Whether tables offer the live table (its button, ``/<game> table``): the app's
        Activity is set up, served by this process or, without WEB_PORT here, by another one
        of the deployment (compose's shard bots behind the workers that serve it)."""
        return bool(self.client_id and self.client_secret)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``env`` as given (default: the environment over the env file)."""
        source = environment() if env is None else env
        token = source.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token."
            )
        guild_text = source.get("DEV_GUILD_ID", "").strip()
        try:
            guild = int(guild_text) if guild_text else None
        except ValueError:
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (a number), not {guild_text!r}."
            ) from None
        timeout = _seconds(source, "TURN_TIMEOUT_SECONDS", 300.0, " (0 turns timers off)")
        heartbeat = heartbeat_seconds(source)
        level = (source.get("LOG_LEVEL", "INFO").strip() or "INFO").upper()
        if not isinstance(logging.getLevelName(level), int):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        url = database_url(source)
        scale_text = source.get("RATE_LIMIT_SCALE", "").strip() or "1"
        try:
            scale = float(scale_text)
        except ValueError:
            scale = 0.0
        if not 0 < scale <= 1:
            raise SettingsError("RATE_LIMIT_SCALE must be a number above 0 and at most 1.")
        pictures_text = (source.get("PICTURES", "").strip() or "on").lower()
        if pictures_text not in ("on", "off"):
            raise SettingsError(f"PICTURES must be on or off, not {pictures_text!r}.")
        count, ids = shards(source)
        on_cannot_start(source)  # a wrong value is named at start like any other
        loop = (source.get("EVENT_LOOP", "").strip() or "auto").lower()
        if loop not in EVENT_LOOPS:
            raise SettingsError(f"EVENT_LOOP must be auto, uvloop or asyncio, not {loop!r}.")
        host, port = web_address(source)
        return cls(
            token,
            database_path(source),
            guild,
            timeout,
            level,
            heartbeat,
            url,
            scale,
            pictures_text == "on",
            count,
            ids,
            loop,
            host,
            port,
            *interactions(source, port),
            client_id=source.get("DISCORD_CLIENT_ID", "").strip() or None,
            client_secret=source.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            trusted_proxies=trusted_proxies(source),
            live_session_seconds=live_session_seconds(source),
        )
