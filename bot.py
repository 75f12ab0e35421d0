"""Composition root: settings from .env, logging, the database, the cogs, command sync.

``python bot.py`` runs the bot (runtime/lifecycle.py: signals, heartbeat, graceful stop);
``python bot.py health`` is the container health check; ``python bot.py backup [PATH]`` copies
the live database consistently; ``python bot.py ratings rebuild`` recomputes every rating from
the stored results.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

from runtime import launcher

# The first import of the bot's packages: started by a Python without them, see
# runtime/launcher.py.
try:
    import discord
    from discord.ext import commands
except ImportError as missing:
    launcher.use_project_environment(missing, __name__, __file__)
    raise

import presentation
from cogs import Playing
from cogs.guard import GuardCog
from cogs.help import HelpCog
from cogs.history import HistoryCog
from cogs.language import LanguageCog
from cogs.leaving import LeavingCog
from cogs.lobby import LobbyCog
from cogs.players import PlayersCog
from cogs.rematch import RematchCog
from cogs.settings import SettingsCog
from cogs.table import TableCog
from cogs.upkeep import UpkeepCog
from cogs.watching import WatchCog
from db.backup import BackupError, backup
from db.errors import StoreError
from db.generation import generation_path
from db.opening import open_store
from db.store import Store
from delivery.assemble import assemble
from delivery.attachments import Attachments
from delivery.pacing import Pacer
from delivery.pending import PendingClicks
from discordkit import client
from discordkit import sync as command_sync
from discordkit.clicks import ControlButton, step_guarded
from discordkit.locale import LocalizedTree
from discordkit.translator import CommandTranslator
from discordkit.views import result_view
from runtime import lifecycle, sharding
from runtime.heartbeat import check_health, heartbeat_path
from service.boards import Boards
from service.games import GameService
from service.languages import Languages
from service.ratings import Ratings
from service.replays import Replays
from service.servers import ServerSettings
from settings import (
    Settings,
    SettingsError,
    database_path,
    database_url,
    environment,
    heartbeat_seconds,
    http_only,
)
from web.activity import Activity
from web.clients import Clients
from web.discord_api import DiscordApi
from web.guard import Guard
from web.interactions import InteractionsEndpoint
from web.server import WebServer
from workers.drawing import DrawingProcess
from workers.thinking import Thinker

log = logging.getLogger("bot")

CLOSE_GRACE = 2.0  # seconds queued messages get at shutdown


def minimal_intents() -> discord.Intents:
    """Guild events (channels and names for the table and DMs) and guild message events (to
    hear of a deleted table); no message content, no message cache."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    return intents


class CardBot(client.CardBot):
    """The bot, with its store and settings injected; it owns every long-lived object. The cogs
    see it as :class:`discordkit.client.CardBot` (they may not import this module)."""

    def __init__(self, settings: Settings, store: Store) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=minimal_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,
            tree_cls=LocalizedTree,
            **sharding.shard_options(settings),
        )
        self.settings = settings
        self.store = store
        self.thinker = Thinker()
        self.service = GameService(store, turn_timeout=settings.turn_timeout, think=self.thinker)
        self.servers = ServerSettings(
            store, default_timeout=settings.turn_timeout, pictures=settings.pictures
        )
        self.painter = DrawingProcess()
        pictures = Attachments(self.painter, self.servers.pictures_on)
        # With several processes on PostgreSQL, one token's limits are shared through it.
        shared = getattr(store, "take_rest_slots", None) if settings.database_url else None
        pacer = Pacer(scale=settings.rate_limit_scale, shared=shared)
        self.languages = Languages(store)
        pending = None
        if settings.database_url is None:  # one process per database: its file beside it
            database = settings.database_path
            pending = PendingClicks(database.with_name(database.name + ".clicks"))
        delivery = assemble(
            self,
            self.service,
            pacer=pacer,
            attachments=pictures,
            languages=self.languages,
            pending=pending,
            result_view=result_view,
            live_button=settings.offers_activity,
        )
        self.publisher, self.desk = delivery.publisher, delivery.desk
        self.collector_tuned = False  # see lifecycle.tune_collector
        self.ratings = Ratings(store)
        self.service.on_finished.append(self.ratings.rate)
        self.http_only = not settings.gateway  # `bot.py worker`: see serve()
        self._ended = asyncio.Event()
        self.web: WebServer | None = None
        if settings.web_port is not None:
            clients = Clients(settings.trusted_proxies)
            self.web = WebServer(
                settings.web_host,
                settings.web_port,
                self.serving,
                clients=clients,
                client_id=settings.client_id,
            )
            if settings.interactions == "http" and settings.public_key is not None:
                seen = getattr(store, "first_interaction", None) if settings.database_url else None
                endpoint = InteractionsEndpoint(
                    settings.public_key,
                    self.interaction_posted,
                    shared=seen,
                    step_guarded=step_guarded,
                    clients=clients,
                )
                self.web.add_routes(endpoint.routes())
        self.live: Activity | None = None  # the live table (discord.py's `activity` is taken)
        if self.web is not None and settings.client_id and settings.client_secret:
            self.live = self.live_table(settings.client_id, settings.client_secret)
            self.web.add_routes(self.live.routes())

    def live_table(self, client_id: str, secret: str) -> Activity:
        """The live table's backend (web/activity.py): Discord's API where discord.py's is,
        every call to it through one guard (web/guard.py), whose share of the token's budget
        is shared by every process on one PostgreSQL database, as the pacer's is."""
        settings = self.settings
        shared = getattr(self.store, "take_rest_slot", None) if settings.database_url else None
        api = DiscordApi(
            discord.http.Route.BASE,
            bot_token=settings.token,
            client_id=client_id,
            client_secret=secret,
            guard=Guard(shared=shared),
        )
        return Activity(
            api=api,
            secret=secret,
            service=self.service,
            publisher=self.publisher,
            desk=self.desk,
            languages=self.languages,
            clients=Clients(settings.trusted_proxies),
            session_seconds=self.settings.live_session_seconds,
            painter=self.painter,
        )

    def interaction_posted(self, data: dict[str, Any]) -> None:
        """An interaction Discord POSTed (web/interactions.py), verified: handled as the
        gateway's INTERACTION_CREATE is, by the command tree and the controls. discord.py has
        no public entry for a payload that did not come from its gateway; this is the one
        its gateway calls."""
        self._connection.parse_interaction_create(cast(Any, data))

    def serving(self) -> bool:
        """Whether this process serves players now (the web server's /health)."""
        return self.is_ready() and not self.is_closed()

    async def serve(self, token: str) -> None:
        """Run until closed: on the gateway (discord.py's ``start``), or, for `bot.py worker`,
        logged in over REST alone, serving the interactions Discord POSTs to the web server.

        A worker has no gateway to say it is ready: once logged in (the cogs loaded, the web
        server up) it is, so discord.py's ready flag is set and ``on_ready`` dispatched for
        what waits on them (the turn timers, the repairs)."""
        if not self.http_only:
            await self.start(token)
            return
        await self.login(token)
        self._ready.set()
        self.dispatch("ready")
        await self._ended.wait()

    async def setup_hook(self) -> None:
        # The helpers import Pillow and the computers while the bot logs in, not at the first click.
        await asyncio.gather(self.painter.start(), self.thinker.start())
        await self.add_cogs()
        await self.sync_commands()
        if self.live is not None:
            await self.live.start()
        if self.web is not None:
            await self.web.start()

    async def add_cogs(self) -> None:
        """Every cog and component; commands carry their translations (discordkit/translator.py)."""
        await self.tree.set_translator(CommandTranslator())
        self.add_dynamic_items(ControlButton)  # every button but moves (cogs/guard.py routes those)
        await self.add_cog(GuardCog(self))
        playing = Playing(self, self.service, self.publisher, self.desk)
        table = TableCog(playing)
        await self.add_cog(table)
        live = self.settings.offers_activity
        await self.add_cog(LobbyCog(playing, table, live=live))
        generation = (
            None if self.settings.database_url else generation_path(self.settings.database_path)
        )
        shared = bool(self.settings.database_url)
        await self.add_cog(UpkeepCog(playing, generation, shared=shared))
        await self.add_cog(HelpCog())
        await self.add_cog(PlayersCog(self, Boards(self.store), self.ratings))
        await self.add_cog(HistoryCog(self, Replays(self.store)))
        await self.add_cog(RematchCog(playing))
        await self.add_cog(SettingsCog(self, self.servers, self.publisher))
        await self.add_cog(LeavingCog(playing))
        await self.add_cog(WatchCog(playing))
        await self.add_cog(LanguageCog(self.languages))

    async def sync_commands(self) -> None:
        """Shard 0's process syncs (discordkit/sync.py: the Entry Point command kept; a sync
        Discord refuses is logged and the bot goes on with the commands Discord had)."""
        if not sharding.syncs_commands(self.settings):
            log.info("%s: the process running shard 0 syncs the commands", self.shard_text)
        else:
            await command_sync.sync_commands(self.tree, self.settings.dev_guild_id)

    @property
    def shard_text(self) -> str:
        return sharding.describe(self.settings)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers (%s)", self.user, len(self.guilds), self.shard_text)
        if not self.collector_tuned:  # on_ready comes again after a reconnect
            self.collector_tuned = True
            lifecycle.tune_collector()

    async def close(self) -> None:
        """Let running handlers finish (a click being recorded), give queued messages a moment,
        then close the connection. Messages still queued are redrawn at the next start
        (``rendered_version``).

        The store is not closed here: whoever opened it (lifecycle.run) closes it afterwards.
        """
        if not self.is_closed():
            await lifecycle.finish_in_flight()
            if self.live is not None:
                await self.live.close()
            if self.web is not None:
                await self.web.stop()
            await self.publisher.close(timeout=CLOSE_GRACE)
            await self.painter.close()
            await self.thinker.close()
        await super().close()
        self._ended.set()


@contextlib.asynccontextmanager
async def offline_bot() -> AsyncIterator[CardBot]:
    """The bot with every cog, without Discord, on a scratch database (catalog tools, tests)."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token="offline",
            database_path=Path(folder) / "offline.db",
            dev_guild_id=None,
            turn_timeout=0.0,
            log_level="WARNING",
        )
        store = await open_store(settings.database_path)
        bot = CardBot(settings, store)
        logging.disable(logging.CRITICAL)  # the cogs' loops end at once: no Discord here
        try:
            await bot.add_cogs()
            yield bot
        finally:
            for name in list(bot.cogs):  # stops the cogs' background loops
                await bot.remove_cog(name)
            await store.close()
            logging.disable(logging.NOTSET)


class ShardedCardBot(CardBot, commands.AutoShardedBot):
    """The same bot over SHARD_IDS of SHARD_COUNT gateway shards (discord.py's own sharding)."""


def build_bot(settings: Settings, store: Store) -> CardBot:
    """Unsharded without SHARD_COUNT (as a single process always was), else auto-sharded."""
    if sharding.sharded(settings):
        return ShardedCardBot(settings, store)
    return CardBot(settings, store)


def quiet_voice_warnings() -> None:
    """The bot never joins voice: no warning at start about PyNaCl or davey being absent."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def configure_logging(level: str = "INFO") -> None:
    logging.basicConfig(level=level, format=launcher.LOG_FORMAT, force=True)
    lifecycle.quiet_reconnects()  # one line per reconnect attempt during an outage


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bot.py", description="Card table bot for Discord; settings come from .env."
    )
    commands_ = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands_.add_parser("run", help="start the bot (what happens without a command)")
    commands_.add_parser(
        "worker",
        help="serve interactions over HTTP only, without a gateway connection "
        "(INTERACTIONS=http; docs/scaling.md)",
    )
    health = commands_.add_parser(
        "health", help="exit 0 if the running bot is connected and can write its database"
    )
    health.add_argument(
        "--max-age",
        type=float,
        default=None,
        help="seconds a heartbeat counts as fresh (default: 3 × HEARTBEAT_SECONDS)",
    )
    backup = commands_.add_parser("backup", help="write a consistent copy of the live database")
    backup.add_argument(
        "target",
        nargs="?",
        type=Path,
        help="the copy to write (default: backups/bot-<UTC time>.db beside the database)",
    )
    ratings = commands_.add_parser("ratings", help="ratings kept from finished games")
    ratings.add_argument(
        "action", choices=["rebuild"], help="rebuild: recompute every rating from the results"
    )
    return parser.parse_args(argv)


def default_backup_path(database: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return database.parent / "backups" / f"{database.stem}-{stamp}.db"


def health_command(source: dict[str, str], max_age: float | None) -> int:
    interval = heartbeat_seconds(source)
    healthy, line = check_health(heartbeat_path(database_path(source)), max_age or 3 * interval)
    if healthy:
        log.info("healthy: %s", line)
        return 0
    log.error("unhealthy: %s", line)
    return 1


def backup_command(source: dict[str, str], target: Path | None) -> int:
    database = database_path(source)
    destination = target or default_backup_path(database)
    try:
        written = backup(database, destination)
    except BackupError as exc:
        log.error("Backup failed: %s.", exc)
        return 1
    log.info("backed up %s to %s", database, written)
    return 0


async def _rebuild_ratings(target: str | Path) -> int:
    store = await open_store(target)
    try:
        rebuilt = await Ratings(store).rebuild()
    finally:
        await store.close()
    log.info("ratings rebuilt: %d games, %d ratings", rebuilt.games, rebuilt.players)
    return 0


def ratings_command(source: dict[str, str]) -> int:
    """Recompute every rating from the stored results (SQLite: with the bot stopped)."""
    target: str | Path = database_url(source) or database_path(source)
    try:
        return asyncio.run(_rebuild_ratings(target))
    except (StoreError, OSError) as exc:
        log.error("Cannot rebuild the ratings: %s", exc)
        return 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    configure_logging()
    source = environment()
    try:
        if args.command == "health":
            return health_command(source, args.max_age)
        if args.command == "backup":
            return backup_command(source, args.target)
        if args.command == "ratings":
            return ratings_command(source)
    except SettingsError as exc:
        log.error("Cannot start: %s", exc)
        return lifecycle.EXIT_CANNOT_START
    if presentation.UNSERVED:  # a registered game without presentation/<package>/
        folders = ", ".join(f"presentation/{p}/" for p in presentation.UNSERVED)
        line = f"Cannot start: a game in engine.PACKAGES has no {folders} (UI, look, picture)."
        return lifecycle.cannot_start(line, source)
    try:
        return run_command(source, worker=args.command == "worker")
    except SettingsError as exc:
        return lifecycle.cannot_start(f"Cannot start: {exc}", source)
    except lifecycle.CannotStart as exc:
        return lifecycle.cannot_start(str(exc), source)


def run_command(source: dict[str, str], *, worker: bool = False) -> int:
    """Run the bot (``worker``: over HTTP only); SettingsError or lifecycle.CannotStart when
    it cannot start."""
    settings = Settings.from_env(source)
    if worker:
        settings = http_only(settings)
    logging.getLogger().setLevel(settings.log_level)
    quiet_voice_warnings()
    factory = lifecycle.loop_factory(settings.event_loop)
    log.info("event loop: %s", "asyncio" if factory is None else factory.__module__)
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(lifecycle.run(settings, lambda store: build_bot(settings, store)))
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were in place
        return lifecycle.EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
