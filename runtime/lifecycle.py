"""The bot's life: start-up checks, signals, the heartbeat, a graceful stop and the exit code.

SIGTERM and SIGINT stop the bot gracefully: handlers already running (a click being recorded,
say) get up to ``GRACE_SECONDS`` to finish, then the gateway and HTTP session close, then the
database; the exit code is 0.

The exit code says whether starting again can help, for whoever restarts the bot: 1 is an
unexpected error (a restart may well help), or the shard lease lost (leasing.py); 2 is a reason
a restart does not fix (settings, an unusable database, a token Discord refuses, a shard that
a live process runs), logged as one ERROR line. Discord or PostgreSQL
unreachable or failing (no network, a 5xx, a server still starting after a reboot) is not a
reason to exit at all: that step is tried again in this process, pausing
``RETRY_FIRST_SECONDS`` and doubling up to ``RETRY_MAX_SECONDS``, one WARNING line per try, as
discord.py itself reconnects once connected. So an outage never makes a restart loop, and the
bot is up the moment the server is back.

``ON_CANNOT_START=wait`` (the Docker image sets it) keeps the process waiting for SIGTERM after
that ERROR line, exit code 2 still. Docker's restart policies cannot leave out an exit code:
``unless-stopped`` restarts a bot that exits 2 forever (a minute apart, each try failing the
same way), and ``on-failure`` restarts on 2 as well while it does not bring the bot back after
the Docker daemon restarts (the bot exits 0 on its SIGTERM). A waiting bot is not restarted,
its health check says why it could not start, and ``unless-stopped`` still restarts it after
a crash or a reboot.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar

import aiohttp
import asyncpg
import discord
from discord.ext import commands

from db.errors import StoreError
from db.opening import open_store as open_database
from db.postgres import describe
from db.probe import DatabaseUnusable, check_writable
from db.store import Store
from runtime import sharding
from runtime.heartbeat import Beat, Heartbeat, heartbeat_path, write_beat
from runtime.leasing import LEASE_ERRORS, ShardHeld, ShardLease, shard_lease
from settings import Settings, SettingsError, database_path, on_cannot_start

log = logging.getLogger("lifecycle")

EXIT_OK = 0
EXIT_FAILED = 1  # an unexpected error: starting again may help
EXIT_CANNOT_START = 2  # a reason starting again does not fix (see the module's docstring)
RETRY_FIRST_SECONDS = 2.0  # Discord unreachable at start: the first pause before trying again
RETRY_MAX_SECONDS = 60.0  # the pause doubles up to this
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
    if getattr(bot, "http_only", False):  # a worker: logged in, no gateway to be connected to
        return bot.is_ready() and not bot.is_closed()
    if isinstance(bot, discord.AutoShardedClient):
        return bot.is_ready() and not bot.is_closed() and sharding.all_shards_open(bot)
    return bot.is_ready() and not bot.is_closed() and bot.ws is not None and bot.ws.open


class CannotStart(Exception):
    """Why the bot cannot start, in one line. ``transient``: a server that cannot be reached
    or fails now and will work again without a change (tried again in this process); else a
    reason starting again does not fix."""

    def __init__(self, line: str, *, transient: bool = False) -> None:
        super().__init__(line)
        self.transient = transient


def start_failure(exc: BaseException) -> CannotStart | None:
    """What a known error that ended the start means, or None for an unexpected one."""
    if isinstance(exc, discord.LoginFailure):
        return CannotStart(
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN in .env."
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return CannotStart(
            "Discord asks for privileged intents this bot does not use: check the portal."
        )
    if isinstance(exc, discord.HTTPException):
        return CannotStart(
            f"Discord answered {exc.status} {exc.response.reason} while logging in.",
            transient=exc.status >= 500 or exc.status == 429,
        )
    if isinstance(exc, discord.GatewayNotFound):
        return CannotStart("Cannot reach Discord's gateway: Discord may be down.", transient=True)
    if isinstance(exc, discord.ConnectionClosed):
        # Only the close codes discord.py does not resume get here: authentication failed,
        # invalid shard or intents (4004, 4010-4014).
        reason = exc.reason or "no reason"
        return CannotStart(f"Discord closed the connection (code {exc.code}): {reason}.")
    if isinstance(exc, aiohttp.ClientError | OSError | TimeoutError):
        return CannotStart(f"Cannot reach Discord: {exc or type(exc).__name__}.", transient=True)
    return None


# PostgreSQL not reachable yet or going away (still starting after a reboot, where Docker does
# not wait for its health check; restarting; no network): worth trying again. A refused
# password or a missing database is not.
POSTGRES_TRANSIENT = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.TooManyConnectionsError,
)


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


async def open_store(settings: Settings) -> Store:
    """The migrated store; CannotStart, saying why, if it cannot be used."""
    if settings.database_url is not None:
        where = describe(settings.database_url)
        try:
            return await open_database(settings.database_url)
        except (OSError, StoreError, asyncpg.PostgresError) as exc:
            transient = isinstance(exc.__cause__ or exc, POSTGRES_TRANSIENT)
            line = f"Cannot use the PostgreSQL database {where}: {exc}"
            raise CannotStart(line, transient=transient) from None
    path = settings.database_path
    try:
        await asyncio.to_thread(check_writable, path)
        return await open_database(path)
    except DatabaseUnusable as exc:
        raise CannotStart(f"Cannot use the database: {exc}.") from None
    except (OSError, sqlite3.Error) as exc:
        await _settle_sqlite_threads()
        raise CannotStart(f"Cannot open the database at {path}: {exc}") from None


class StopSignals:
    """SIGTERM and SIGINT set ``requested`` (and say which) instead of killing the process;
    so does :meth:`fail`, from inside, for an exit code of 1."""

    def __init__(self) -> None:
        self.requested = asyncio.Event()
        self.name = ""
        self.failed = False
        self._installed: list[signal.Signals] = []

    @property
    def installed(self) -> bool:
        """Whether a signal can stop the loop (not on Windows)."""
        return bool(self._installed)

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

    def fail(self, why: str) -> None:
        """Stop as a signal does, then exit 1 (the shard lease lost: a restart may help)."""
        if not self.requested.is_set():
            self.name, self.failed = why, True
            self.requested.set()

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


async def _serve(bot: commands.Bot, token: str, signals: StopSignals) -> int | CannotStart:
    """Run the bot until a signal (0), the connection closed (0), an unexpected error (1), or
    a known error that ends the start (what it means)."""
    if signals.requested.is_set():  # stopped while the database was being opened
        log.info("stopping (%s) before connecting", signals.name)
        return EXIT_OK
    serve = getattr(bot, "serve", bot.start)  # the bot's own way to run, else discord.py's
    running = asyncio.create_task(serve(token), name="discord-client")
    waiting = asyncio.create_task(signals.requested.wait(), name="stop-signal")
    await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if signals.requested.is_set():
        return await _stop(bot, running, signals.name)
    waiting.cancel()
    exc = running.exception()
    if exc is None:
        log.info("the connection to Discord was closed")
        return EXIT_OK
    failure = start_failure(exc)
    if failure is None:
        log.error("the bot stopped on an unexpected error", exc_info=exc)
        return EXIT_FAILED
    return failure


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
    """Open the store, run the bot built on it until a signal or an error; the exit code.

    Raises CannotStart, once everything it opened is closed, for a reason starting again does
    not fix (for :func:`cannot_start`).
    """
    signals = StopSignals()
    signals.install()
    try:
        store = await _retrying(lambda: open_store(settings), signals)
        if store is None:
            return EXIT_OK  # stopped while waiting for the database
        try:
            lease = shard_lease(settings, store, lambda: signals.fail("the shard lease is lost"))
            if lease is not None and not await _retrying(lambda: _take(lease), signals):
                return EXIT_OK  # stopped while waiting for the database
            try:
                code = await _run_bot(settings, lambda: build(store), signals)
            finally:
                if lease is not None:
                    await lease.release()
        finally:
            await store.close()
        if signals.failed:
            return EXIT_FAILED
        if code == EXIT_OK:
            log.info("stopped; database closed")
        return code
    finally:
        signals.remove()


async def _run_bot(
    settings: Settings, build: Callable[[], commands.Bot], signals: StopSignals
) -> int:
    """Run a bot from ``build``; while Discord cannot be reached, a new one after a pause.

    discord.py's client is not made to log in twice (its HTTP session is made at login), so
    each try has a bot of its own; the store and the heartbeat stay the same.
    """
    bot = build()
    store: Store | None = getattr(bot, "store", None)
    probe = store.check_writable if settings.database_url and store is not None else None
    heartbeat = Heartbeat(
        settings.database_path, settings.heartbeat_seconds, lambda: connected(bot), probe=probe
    )  # the lambda reads ``bot`` when called: the bot of the current try
    heartbeat.start()
    pause = RETRY_FIRST_SECONDS
    try:
        while True:
            for event in ("on_ready", "on_resumed", "on_disconnect"):
                bot.add_listener(heartbeat.wake, event)
            outcome = await _serve(bot, settings.token, signals)
            if isinstance(outcome, int):
                return outcome
            if not outcome.transient:
                raise outcome
            await bot.close()
            if not await _pause(outcome, pause, signals):
                return EXIT_OK
            pause = min(pause * 2, RETRY_MAX_SECONDS)
            bot = build()
    finally:
        await heartbeat.stop()
        if not bot.is_closed():
            await bot.close()


async def _take(lease: ShardLease) -> bool:
    """Take this process's shard lease and keep it (leasing.py); CannotStart if a live process
    holds a shard, or, tried again, if PostgreSQL cannot answer."""
    try:
        await lease.take()
    except ShardHeld as exc:
        raise CannotStart(str(exc)) from None
    except LEASE_ERRORS as exc:
        raise CannotStart(f"Cannot lease {lease.text}: {exc}", transient=True) from None
    lease.start()
    return True


Step = TypeVar("Step")


async def _retrying(step: Callable[[], Awaitable[Step]], signals: StopSignals) -> Step | None:
    """``step()``, tried again after a pause while it fails for a transient reason; None if a
    stop signal came meanwhile."""
    pause = RETRY_FIRST_SECONDS
    while True:
        try:
            return await step()
        except CannotStart as failure:
            if not failure.transient:
                raise
            if not await _pause(failure, pause, signals):
                return None
        pause = min(pause * 2, RETRY_MAX_SECONDS)


async def _pause(failure: CannotStart, seconds: float, signals: StopSignals) -> bool:
    """Say what failed and wait ``seconds`` to try again; False if a stop signal came."""
    log.warning("%s Trying again in %.0f s.", failure, seconds)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(signals.requested.wait(), seconds)
    if signals.requested.is_set():
        log.info("stopping (%s)", signals.name)
        return False
    return True


def cannot_start(line: str, source: Mapping[str, str]) -> int:
    """Log why the bot cannot start; exit code 2, at once or, with ON_CANNOT_START=wait, once
    SIGTERM or SIGINT comes (see the module's docstring for why a container waits)."""
    log.error("%s", line)
    try:
        wait = on_cannot_start(source) == "wait"
    except SettingsError:
        wait = False  # that error is the line above
    if not wait:
        return EXIT_CANNOT_START
    # The health check reads the reason from the heartbeat file (when its folder is there).
    beat = heartbeat_path(database_path(source))
    with contextlib.suppress(OSError):
        write_beat(beat, Beat(time.time(), False, "not opened", os.getpid(), failure=line))
    log.info("waiting to be stopped (ON_CANNOT_START=wait): starting again would fail the same way")
    asyncio.run(_wait_for_stop())
    with contextlib.suppress(OSError):
        beat.unlink(missing_ok=True)
    return EXIT_CANNOT_START


async def _wait_for_stop() -> None:
    signals = StopSignals()
    signals.install()
    try:
        if signals.installed:  # else (Windows) nothing could end the wait: exit now
            await signals.requested.wait()
    finally:
        signals.remove()
