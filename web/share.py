"""**Share** on the live table's result screen: the final table's picture as a Discord CDN URL,
for the Embedded App SDK's share dialog (``openShareMomentDialog({mediaUrl})``).

Only the channel's last game, once finished (the one its result screen shows), may be shared.
Its picture is the bot's own (``Pictures.table`` of the final spectator view, drawn by the
bot's painter in the sharer's language), uploaded with the bot token through the guard
(``POST /applications/{app}/attachment``, web/discord_api.py). The URL is kept per game and
language for a while, and sharers asking together share one upload: however many press
**Share**, a finished game costs Discord one upload per language at most in that time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

import i18n
from db.models import GameStatus
from discordkit.replies import SORRY
from i18n import N_
from presentation.common import picture_names
from presentation.drawing.painters import Painter, PictureFailed
from presentation.viewing import names_of
from service.errors import NoGame
from service.games import GameService
from web.discord_api import DiscordApi, DiscordRefused, DiscordUnreachable
from web.guard import Busy

log = logging.getLogger(__name__)

KEEP_SECONDS = 900.0  # how long an uploaded picture's URL is given again
KEPT = 256  # URLs kept at most
NOT_SHAREABLE = N_("Only this table's last finished game can be shared.")
BUSY = N_("Discord is busy: try Share again in a moment.")

Key = tuple[int, str]  # game, language


class NotShared(Exception):
    """The viewer is told no (the message is an msgid, translated when sent)."""


@dataclass(eq=False)
class Shares:
    """The shared pictures' URLs of one process."""

    service: GameService
    api: DiscordApi
    painter: Painter
    _: KW_ONLY
    clock: Callable[[], float] = time.monotonic
    _urls: dict[Key, tuple[float, str]] = field(default_factory=dict, init=False)
    _uploading: dict[Key, asyncio.Future[str]] = field(default_factory=dict, init=False)

    async def url(self, channel_id: int, game_id: int, language: str) -> str:
        """The CDN URL of ``game_id``'s final table, if it is ``channel_id``'s last game and
        finished; :class:`NotShared` (its msgid) otherwise, or when it cannot be had now."""
        try:
            latest = await self.service.channel_game(channel_id, finished_too=True)
        except NoGame as exc:
            raise NotShared(NOT_SHAREABLE) from exc
        if latest.row.id != game_id or latest.row.status != GameStatus.FINISHED:
            raise NotShared(NOT_SHAREABLE)
        if latest.state is None:
            raise NotShared(NOT_SHAREABLE)
        key = (game_id, language)
        kept = self._urls.get(key)
        if kept is not None and self.clock() - kept[0] < KEEP_SECONDS:
            return kept[1]
        uploading = self._uploading.get(key)
        if uploading is None:  # sharers pressing together share one upload
            view = latest.game.view(latest.state, None)
            names = picture_names(names_of(latest))
            with i18n.using(language):  # the task draws in the context it is made in
                uploading = asyncio.ensure_future(self._upload(key, view, names))
            self._uploading[key] = uploading
            uploading.add_done_callback(lambda done: self._uploaded(key, done))
        return await asyncio.shield(uploading)

    def _uploaded(self, key: Key, done: asyncio.Future[str]) -> None:
        if self._uploading.get(key) is done:
            del self._uploading[key]
        if not done.cancelled():
            done.exception()  # retrieved: whoever waited for it has raised it already

    async def _upload(self, key: Key, view: object, names: list[str]) -> str:
        game_id, language = key
        try:
            png = await self.painter.draw("table", view, names, urgent=True)  # they wait
        except PictureFailed as exc:
            log.error("could not draw game %s's final table to share: %s", game_id, exc)
            raise NotShared(SORRY) from exc
        if png is None:
            raise NotShared(SORRY)
        try:
            url = await self.api.upload(png, f"game-{game_id}.png")
        except Busy as exc:
            raise NotShared(BUSY) from exc
        except (DiscordRefused, DiscordUnreachable) as exc:
            log.warning("could not upload game %s's final table: %s", game_id, exc)
            raise NotShared(SORRY) from exc
        now = self.clock()
        if len(self._urls) >= KEPT:
            self._urls = {k: v for k, v in self._urls.items() if now - v[0] < KEEP_SECONDS}
            while len(self._urls) >= KEPT:
                del self._urls[next(iter(self._urls))]
        self._urls[key] = (now, url)
        log.info("game %s's final table uploaded to share (%s)", game_id, language)
        return url
