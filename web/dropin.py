"""The live table's lobby and drop-in operations beside joining and computers (web/live.py):
leaving or cancelling a lobby, **Play with computers** in one press, leaving a running game (a
computer takes the seat) and a spectator's **Join the next game**, or giving it up again
(docs/activity.md).

Each goes through the service call the chat's button or command uses (service/lobbies.py,
service/leaving.py), so the same rules refuse the same things; what changed is shown in the
channel by the same delivery faces (the lobby's message, the table, the hands).

A spectator's wish for the next game is kept by the service in the database
(``wait_for_next_game``): the channel's next lobby, opened anywhere and by any process, seats
each one waiting as a press of **Join** would, and the wish outlives a restart.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import i18n
from db.models import GameStatus
from delivery.lobbies import CANCELLED_BY, CLOSED_BY, LobbyMessages
from delivery.publisher import Publisher
from engine import GAMES
from engine.base import Level
from i18n import N_, later
from presentation.base import level_word
from service.errors import LobbyProblem, NotAllowed
from service.games import GameService
from service.leaving import leave_game
from service.lobbies import NO_COMPUTERS, ONLY_HOST, STARTED
from service.reports import here
from web.hub import Hub, Viewer

OPS = frozenset({"leave", "cancel", "play_computers", "leave_game", "next_game", "skip_next_game"})
LEFT = N_("You left the game; {computer} 🤖 {level} plays your seat.")


class Refused(Exception):
    """A request the viewer is told no to (the message is an msgid, translated when sent)."""


class DropIn:
    def __init__(
        self, hub: Hub, service: GameService, publisher: Publisher, lobbies: LobbyMessages
    ) -> None:
        self.hub = hub
        self.service = service
        self.publisher = publisher
        self.lobbies = lobbies
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def handle(self, viewer: Viewer, op: str, data: dict[str, Any], not_here: str) -> None:
        """Apply ``op`` for ``viewer``; a refusal raises (PlayError, or Refused)."""
        if op == "play_computers":
            await self.play_computers(viewer, data, not_here)
            return
        if op == "skip_next_game":  # giving up a wish is never refused, whatever is played
            await self.skip_next_game(viewer)
            return
        game_id = self.hub.games.get(viewer.channel_id)
        if game_id is None:
            raise Refused(not_here)
        if op in ("leave_game", "next_game") and data.get("game_id") != game_id:
            raise Refused(not_here)  # an old page: the channel moved on
        if op == "leave":
            await self.leave(viewer, game_id)
        elif op == "cancel":
            await self.cancel(viewer, game_id)
        elif op == "leave_game":
            await self.leave_game(viewer, game_id)
        else:
            await self.next_game(viewer, game_id, not_here)

    # -- a lobby -------------------------------------------------------------------------

    async def leave(self, viewer: Viewer, game_id: int) -> None:
        """The lobby's **Leave**: the host leaving closes it, as in the chat."""
        left = await self.service.leave(game_id, viewer.user_id, channel_id=viewer.channel_id)
        if left is None:
            closed = await self.service.load(game_id)
            self.publisher.close_lobby_message(closed, later(CLOSED_BY, name=viewer.name))
            return
        self.lobbies.show(left, computers=await self.service.computers_allowed(left.row.guild_id))

    async def cancel(self, viewer: Viewer, game_id: int) -> None:
        """The lobby's **Cancel**: its host's alone (the page cannot tell Manage Server)."""
        loaded = await self.service.cancel(
            game_id, viewer.user_id, is_admin=False, channel_id=viewer.channel_id
        )
        if loaded.state is None:
            self.publisher.close_lobby_message(loaded, later(CANCELLED_BY, name=viewer.name))
        else:
            self.publisher.cancelled(loaded)

    async def play_computers(self, viewer: Viewer, data: dict[str, Any], not_here: str) -> None:
        """Fill the viewer's lobby (or a new one of ``game`` when the channel has none) with
        computers at the normal level up to the game's count (its least, and at least two
        players), then start it: the service's own add and start, one after the other."""
        channel = viewer.channel_id
        guild = viewer.guild_id
        if guild is None:
            raise Refused(not_here)
        lock = self._locks.get(channel)
        if lock is None:
            lock = self._locks[channel] = asyncio.Lock()  # one press at a time per channel
        async with lock:
            game_id = self.hub.games.get(channel)
            if game_id is None:
                name = data.get("game")
                if not isinstance(name, str) or name not in GAMES:
                    raise Refused(not_here)
                if not await self.service.computers_allowed(guild):
                    raise LobbyProblem(NO_COMPUTERS)
                loaded = await self.service.open_lobby(
                    game=name,
                    guild_id=guild,
                    channel_id=channel,
                    host_id=viewer.user_id,
                    host_name=viewer.name,
                )
            else:
                loaded = here(await self.service.load(game_id), channel)
                if loaded.row.status != GameStatus.LOBBY:
                    raise LobbyProblem(STARTED)
                if loaded.row.host_id != viewer.user_id:
                    raise NotAllowed(ONLY_HOST)
                if not await self.service.computers_allowed(guild):
                    raise LobbyProblem(NO_COMPUTERS)
            game = loaded.game
            wanted = min(max(game.min_players, 2), game.max_players)
            while len(loaded.seats) < wanted:
                loaded = await self.service.add_computer(
                    loaded.row.id, viewer.user_id, channel_id=channel, level=Level.NORMAL
                )
            report = await self.service.start(loaded.row.id, viewer.user_id, channel_id=channel)
        self.lobbies.started(report.after)
        self.publisher.publish(report)

    # -- a running game ------------------------------------------------------------------

    async def leave_game(self, viewer: Viewer, game_id: int) -> None:
        """The chat's `/<game> leave` once confirmed: a computer takes the viewer's seat."""
        left = await leave_game(self.service, game_id, viewer.user_id, channel_id=viewer.channel_id)
        self.publisher.publish(left.report)
        with i18n.using(viewer.language):
            text = i18n._(LEFT, computer=left.computer, level=level_word(left.level))
        await viewer.send_now({"type": "notice", "text": text})

    async def next_game(self, viewer: Viewer, game_id: int, not_here: str) -> None:
        """A spectator of the running game asks for a seat in the channel's next game."""
        loaded = await self.service.load(game_id)
        if loaded.row.status == GameStatus.LOBBY:
            raise Refused(not_here)  # a lobby is joined with Join
        if loaded.seat_of(viewer.user_id) is not None:
            raise Refused(not_here)
        await self.service.wait_for_next_game(viewer.channel_id, viewer.user_id, viewer.name)
        await viewer.send_now({"type": "waiting", "next_game": True})

    async def skip_next_game(self, viewer: Viewer) -> None:
        """The spectator no longer wants a seat in the channel's next game (pressed twice:
        the same answer)."""
        await self.service.skip_next_game(viewer.channel_id, viewer.user_id)
        await viewer.send_now({"type": "waiting", "next_game": False})

    async def tell_waiting(self, viewer: Viewer) -> None:
        """Tell ``viewer`` whether they wait for the next game here (sent again on arrival)."""
        if await self.service.waits_for_next_game(viewer.channel_id, viewer.user_id):
            await viewer.send_now({"type": "waiting", "next_game": True})
