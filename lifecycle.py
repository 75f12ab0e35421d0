"""The bot's life: start-up checks, signals, the heartbeat, a graceful stop and the exit code.

Every start-up failure ends as one ERROR line and exit code 2 (bad database path, Discord
unreachable, token refused). SIGTERM and SIGINT stop the bot gracefully: handlers already
running (a click being recorded, say) get up to ``GRACE_SECONDS`` to finish, then the gateway
and HTTP session close, then the database; the exit code is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sqlite3
import threading
from collections.abc import Callable

import aiohttp
import asyncpg
import discord
from discord.ext import commands

import sharding
from db import open_store as open_database
from db.errors import StoreError
from db.postgres import describe
from db.probe import DatabaseUnusable, check_writable
from db.store import Store
from heartbeat import Heartbeat
from settings import Settings, SettingsError

log = logging.getLogger("lifecycle")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CANNOT_START = 2
GRACE_SECONDS = 5.0
CLOSE_SECONDS = 3.0
RECONNECT_WAIT = 1.0  # after closing: how long the client's own task may take to end
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# Names discord.py gives the tasks that run event handlers, slash commands and buttons.
HANDLER_TASK_PREFIXES = ("discord.py: ", "discord-ui-", "CommandTree-invoker")


async def finish_in_flight(timeout: float = GRACE_SECONDS) -> int:
    """Wait up to ``timeout`` s for the handlers running now; return how many did not finish."""
    current = asyncio.current_task()
    running = {
        task
        for task in asyncio.all_tasks()
        if task is not current
        and not task.done()
        and task.get_name().startswith(HANDLER_TASK_PREFIXES)
    }
    if not running:
        return 0
    log.info("letting %d interaction(s) in progress finish", len(running))
    _, unfinished = await asyncio.wait(running, timeout=timeout)
    if unfinished:
        log.warning("%d interaction(s) did not finish in %.0f s", len(unfinished), timeout)
    return len(unfinished)


def connected(bot: commands.Bot) -> bool:
    """Whether the gateway connection (every shard's, when sharded) is up and the bot past
    on_ready."""
    if isinstance(bot, discord.AutoShardedClient):
        return bot.is_ready() and not bot.is_closed() and sharding.all_shards_open(bot)
    return bot.is_ready() and not bot.is_closed() and bot.ws is not None and bot.ws.open


def start_failure(exc: BaseException) -> str | None:
    """One line for an error that ends the start, or None if it is not a known one."""
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN in .env."
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord asks for privileged intents this bot does not use: check the portal."
    if isinstance(exc, discord.HTTPException):
        return f"Discord answered {exc.status} {exc.response.reason} while logging in."
    if isinstance(exc, discord.GatewayNotFound):
        return "Cannot reach Discord's gateway: Discord may be down, try again later."
    if isinstance(exc, discord.ConnectionClosed):
        return f"Discord closed the connection (code {exc.code}): {exc.reason or 'no reason'}."
    if isinstance(exc, aiohttp.ClientError | OSError | TimeoutError):
        return f"Cannot reach Discord: {exc or type(exc).__name__}."
    return None


# What discord.py logs, with the traceback, each time it is about to retry a lost gateway
# connection: (logger, message template). During an outage that is one traceback per attempt,
# for an error the library handles itself; the reason fits on the line.
RECONNECT_MESSAGES = frozenset(
    {
        ("discord.client", "Attempting a reconnect in %.2fs"),
        ("discord.shard", "Attempting a reconnect for shard ID %s in %.2fs"),
        ("discord.shard", "Failed to connect for shard_id: %s. Retrying..."),
    }
)


class OneLineReconnects(logging.Filter):
    """Turns discord.py's reconnect records into one WARNING line naming the error.

    The record is changed in place (a filter on the logger runs before any handler sees it):
    the error's type and text join the message, the traceback is dropped. WARNING, not ERROR:
    the library retries by itself, and the heartbeat already reports "not connected".
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info is None or (record.name, record.msg) not in RECONNECT_MESSAGES:
            return True
        error = record.exc_info[1]
        if error is not None and isinstance(record.args, tuple):
            text = str(error).strip()
            reason = f"{type(error).__name__}: {text}" if text else type(error).__name__
            record.msg = f"{record.msg} (%s)"
            record.args = (*record.args, reason)
        record.exc_info = None
        record.exc_text = None
        record.levelno = logging.WARNING
        record.levelname = logging.getLevelName(logging.WARNING)
        return True


def quiet_reconnects() -> None:
    """Install :class:`OneLineReconnects` on the loggers discord.py reconnects through (a
    logger's own filters see only the records logged on it, not its children's)."""
    for name in sorted({logger for logger, _ in RECONNECT_MESSAGES}):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineReconnects) for f in logger.filters):
            logger.addFilter(OneLineReconnects())


async def _settle_sqlite_threads() -> None:
    """Let aiosqlite's worker threads end while the loop still runs.

    After a failed connect, aiosqlite stops its thread with a future on this loop; if the loop
    closes first, the thread prints "Event loop is closed" tracebacks at exit.
    """
    for thread in threading.enumerate():
        if thread.name.endswith("(_connection_worker_thread)"):
            await asyncio.to_thread(thread.join, 1.0)


async def open_store(settings: Settings) -> Store | None:
    """The migrated store, or None after logging one line saying why it cannot be used."""
    if settings.database_url is not None:
        where = describe(settings.database_url)
        try:
            return await open_database(settings.database_url)
        except (OSError, StoreError, asyncpg.PostgresError) as exc:
            log.error("Cannot use the PostgreSQL database %s: %s", where, exc)
            return None
    path = settings.database_path
    try:
        await asyncio.to_thread(check_writable, path)
        return await open_database(path)
    except DatabaseUnusable as exc:
        log.error("Cannot use the database: %s.", exc)
    except (OSError, sqlite3.Error) as exc:
        await _settle_sqlite_threads()
        log.error("Cannot open the database at %s: %s", path, exc)
    return None


class StopSignals:
    """SIGTERM and SIGINT set ``requested`` (and say which) instead of killing the process."""

    def __init__(self) -> None:
        self.requested = asyncio.Event()
        self.name = ""
        self._installed: list[signal.Signals] = []

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            try:
                loop.add_signal_handler(sig, self._received, sig)
            except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
                continue
            self._installed.append(sig)

    def remove(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in self._installed:
            loop.remove_signal_handler(sig)
        self._installed.clear()

    def _received(self, sig: signal.Signals) -> None:
        if self.requested.is_set():
            log.info("%s again: already stopping", sig.name)
            return
        self.name = sig.name
        self.requested.set()


async def _stop(bot: commands.Bot, running: asyncio.Task[None], why: str) -> int:
    log.info("stopping (%s)", why)
    try:
        async with asyncio.timeout(GRACE_SECONDS + CLOSE_SECONDS):
            await bot.close()
            # Closed, the client makes no more connections, but if Discord was unreachable it
            # may be sleeping out a reconnect back-off (seconds, growing): no need to wait.
            done, _ = await asyncio.wait({running}, timeout=RECONNECT_WAIT)
            if not done:
                running.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await running
    except TimeoutError:
        log.error("the bot did not stop within %.0f s", GRACE_SECONDS + CLOSE_SECONDS)
        return EXIT_FAILED
    return EXIT_OK


async def _serve(bot: commands.Bot, token: str, signals: StopSignals) -> int:
    if signals.requested.is_set():  # stopped while the database was being opened
        log.info("stopping (%s) before connecting", signals.name)
        return EXIT_OK
    running = asyncio.create_task(bot.start(token), name="discord-client")
    waiting = asyncio.create_task(signals.requested.wait(), name="stop-signal")
    await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if signals.requested.is_set():
        return await _stop(bot, running, signals.name)
    waiting.cancel()
    exc = running.exception()
    if exc is None:
        log.info("the connection to Discord was closed")
        return EXIT_OK
    line = start_failure(exc)
    if line is None:
        log.error("the bot stopped on an unexpected error", exc_info=exc)
        return EXIT_FAILED
    log.error("%s", line)
    return EXIT_CANNOT_START


# The cyclic garbage collector's thresholds for a busy bot. A click, its interaction and its
# views make reference cycles, so Python's defaults (700, 10, 10) collect often and pause the
# event loop long. What was loaded at start-up (modules, catalogs, the engine's tables) is
# moved out of the collector's way, and the first generation is larger, but not much larger:
# a young collection walks every object made since the last one that is still alive, mostly
# the games' newest states, so its pause grows with the threshold (figures in
# docs/performance.md).
COLLECTOR_THRESHOLDS = (2_500, 20, 20)


def tune_collector() -> None:
    """Set the collector for a long-running server; once, when the bot is ready."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop to run on (``EVENT_LOOP``): uvloop, asyncio's loop on libuv, where it is
    installed (``auto``; pyproject.toml installs it wherever it builds, which is not Windows),
    else asyncio's own (None). Every click, REST call and database answer passes through the
    loop: uvloop does the same work with less CPU (docs/performance.md)."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise SettingsError("EVENT_LOOP is uvloop, but uvloop is not installed.") from None
        return None
    return uvloop.new_event_loop


async def run(settings: Settings, build: Callable[[Store], commands.Bot]) -> int:
    """Open the store, run the bot built on it until a signal or a fatal error; the exit code."""
    signals = StopSignals()
    signals.install()
    try:
        store = await open_store(settings)
        if store is None:
            return EXIT_CANNOT_START
        try:
            code = await _run_bot(settings, build(store), signals)
        finally:
            await store.close()
        if code == EXIT_OK:
            log.info("stopped; database closed")
        return code
    finally:
        signals.remove()


async def _run_bot(settings: Settings, bot: commands.Bot, signals: StopSignals) -> int:
    store: Store | None = getattr(bot, "store", None)
    probe = store.check_writable if settings.database_url and store is not None else None
    heartbeat = Heartbeat(
        settings.database_path, settings.heartbeat_seconds, lambda: connected(bot), probe=probe
    )
    for event in ("on_ready", "on_resumed", "on_disconnect"):
        bot.add_listener(heartbeat.wake, event)
    heartbeat.start()
    try:
        return await _serve(bot, settings.token, signals)
    finally:
        await heartbeat.stop()
        if not bot.is_closed():
            await bot.close()
