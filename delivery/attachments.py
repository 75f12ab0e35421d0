"""Pictures on messages the bot sends anyway: the hand on a turn's DM, the round on its summary,
the score chart on the result. Never a message of its own, so no REST call per move is added.

The bot draws in a process of its own (see presentation.drawing.painters: in a thread, drawing held
the interpreter lock the event loop needs), and a picture that fails to draw is logged and left
out: the text of every message is complete without it, for screen readers and for servers that
turn pictures off.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

import i18n
from db.models import ActionRow
from engine.base import View
from engine.sheet import ScoreSheet
from i18n import N_, _
from presentation.common import picture_names
from presentation.drawing.api import chart_sheet
from presentation.drawing.painters import Painter, PictureFailed
from presentation.viewing import Views, names_of
from service.reports import Loaded

log = logging.getLogger(__name__)

# A hand picture's game, seat, version and state (the game's snapshot), language and the
# names it shows.
HandKey = tuple[int, int, int, str | None, str, tuple[str, ...]]

MISSING_PERMISSIONS = 50013
HANDS_KEPT = 256  # hand pictures kept for a second use (a few MB at most)
NO_FILES_NOTICE = N_(
    "🖼️ I can't attach pictures in this channel (Attach Files permission), so the game is "
    "shown as text only."
)


async def always(guild_id: int) -> bool:
    """Every server wants pictures (a bot without server settings, tests)."""
    return True


async def _draw(drawing: Awaitable[bytes | None], name: str) -> discord.File | None:
    try:
        png = await drawing
    except PictureFailed as exc:  # a picture is a bonus: its failure must never cost a message
        log.error("could not draw %s: %s", name, exc)
        return None
    except Exception:
        log.exception("could not draw %s", name)
        return None
    return None if png is None else discord.File(io.BytesIO(png), filename=name)


class Attachments:
    """Pictures for one bot; ``enabled(guild_id)`` says whether a server wants them.

    ``views``: the seats' views of each state, remembered (the messages of the same moves
    ask for them too: delivery.assemble shares one), so a picture costs no engine work of
    its own."""

    def __init__(
        self,
        painter: Painter,
        enabled: Callable[[int], Awaitable[bool]],
        views: Views | None = None,
    ) -> None:
        self.painter = painter
        self.enabled = enabled
        self.views = views if views is not None else Views()
        self.no_files: set[int] = set()  # channels where Discord refused attachments
        # The newest hand pictures, by game, seat, version, state, language and the names
        # they show (a seat left to a computer changes them without a move).
        self._hands: dict[HandKey, bytes] = {}
        self._drawing: dict[HandKey, asyncio.Future[bytes | None]] = {}  # under way

    async def wanted(self, loaded: Loaded, channel_id: int | None = None) -> bool:
        return channel_id not in self.no_files and await self.enabled(loaded.row.guild_id)

    async def hand(self, loaded: Loaded, seat: int) -> discord.File | None:
        """The seat's own cards, from its own view only."""
        png = await self.hand_png(loaded, seat)
        return None if png is None else discord.File(io.BytesIO(png), filename="hand.png")

    async def hand_png(self, loaded: Loaded, seat: int, *, urgent: bool = False) -> bytes | None:
        """:meth:`hand` as PNG bytes, drawn once per game state, seat and language: a click's
        answer, the hand job after it and the drawing started as the move was being saved
        (delivery.ahead) often show the same state. A picture is found by the state it shows
        (the game's snapshot) as well as its version: one drawn for a move whose commit then
        failed is never shown for the state another process saved at that version. A picture
        being drawn is waited for, not drawn again; a caller that stops waiting (a click's
        answer past its wait) leaves it drawing for the others and for the next ask.
        ``urgent``: a click's answer waits for it, and it is drawn before the pictures
        that only paced messages wait for (an ask that finds it under way waits for it as it
        was asked)."""
        if not await self.wanted(loaded):
            return None
        names = picture_names(names_of(loaded))
        row = loaded.row
        key = (row.id, seat, row.version, row.snapshot, i18n.current(), tuple(names))
        png = self._hands.get(key)
        if png is not None:
            return png
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(self._draw_hand(loaded, seat, names, key, urgent))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _: self._drawing.pop(key, None))
        return await asyncio.shield(drawing)

    async def _draw_hand(
        self, loaded: Loaded, seat: int, names: list[str], key: HandKey, urgent: bool
    ) -> bytes | None:
        view = self.views.of(loaded.game, loaded.state, seat)
        file = await _draw(self.painter.draw("hand", view, names, urgent=urgent), "hand.png")
        if file is None:
            return None
        png = file.fp.read()
        self._hands[key] = png
        while len(self._hands) > HANDS_KEPT:
            del self._hands[next(iter(self._hands))]  # the oldest
        return png

    async def summary(self, loaded: Loaded, state: Any) -> discord.File | None:
        """The round (hand, turn) just scored in ``state``, from the spectator's view."""
        if not await self.wanted(loaded, loaded.row.channel_id):
            return None
        view = self.views.of(loaded.game, state, None)
        names = picture_names(names_of(loaded))
        return await _draw(self.painter.draw("summary", view, names), "round.png")

    async def chart(self, loaded: Loaded, actions: Sequence[ActionRow]) -> discord.File | None:
        """Every player's total after each round, replayed from the game's action log."""
        if not await self.wanted(loaded, loaded.row.channel_id):
            return None
        names = picture_names(names_of(loaded))
        final = self.views.of(loaded.game, loaded.state, None)

        def sheet() -> ScoreSheet:  # the game's score sheet, as the result and /scores show it
            return chart_sheet(final, lambda: _replayed_views(loaded, actions))

        async def draw() -> bytes | None:
            found = await asyncio.to_thread(sheet)  # a replay of the game: engine work
            if not found.rounds:
                return None
            series = [list(row) for row in found.rounds]
            winners = sorted(found.winners)
            return await self.painter.draw("chart", loaded.row.game, series, names, winners=winners)

        return await _draw(draw(), "scores.png")

    async def send(
        self,
        channel: discord.abc.Messageable,
        channel_id: int,
        files: list[discord.File],
        **kw: Any,
    ) -> discord.Message:
        """Send with ``files``; where Discord refuses attachments, send the text alone and say
        so once for that channel."""
        if not files:
            return await channel.send(**kw)
        try:
            return await channel.send(files=files, **kw)
        except discord.Forbidden as exc:
            if exc.code != MISSING_PERMISSIONS or channel_id in self.no_files:
                raise
            log.warning("no Attach Files permission in channel %s: text only", channel_id)
            self.no_files.add(channel_id)
            sent = await channel.send(**kw)
            await channel.send(_(NO_FILES_NOTICE))
            return sent


def _replayed_views(loaded: Loaded, actions: Sequence[ActionRow]) -> list[View]:
    """Spectator views after every move, replaying the log from the game's seed."""
    game = loaded.game
    options = json.loads(loaded.row.options or "{}") or None  # as the game was started
    state = game.new_game(len(loaded.seats), loaded.row.seed, options)
    views = []
    for action in actions:
        state = game.apply(state, action.seat, game.parse_action(action.action))
        views.append(game.view(state, None))
    return views
