"""The live table's viewers in this process, by channel, and what each is sent.

When the database announces a change to a game (service/changes.py: any process's write), the
channel's game is read once and each viewer there is sent its own frame (web/frames.py); a
burst of announcements for one channel becomes one read. A frame is made once per seat and
language and serialised once; a viewer is sent only a frame that differs from its last one,
and a slow viewer is sent only the newest (frames waiting behind a slow socket are replaced,
never queued).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

import i18n
from db.models import GameStatus
from presentation import UIS
from presentation.viewing import Views, names_of
from service.errors import NoGame
from service.games import GameService
from service.reports import Loaded
from web.ending import ending_json
from web.frames import JSON, lobby_frame, result_json, table_frame
from web.members import Face, Faces
from web.recent import Line, Recent

log = logging.getLogger(__name__)

MAX_ENDINGS = 256  # finished games whose standings are kept (one per channel shown lately)


@dataclass(eq=False)
class Viewer:
    """One open socket: who, where, in which language, until when; its sender of frames."""

    ws: web.WebSocketResponse
    user_id: int
    name: str
    channel_id: int
    guild_id: int | None
    language: str
    instance: str = ""  # the activity instance it was opened from
    expires: int = 0  # when its session ends (unix seconds); a renewal moves it
    last: str | None = None  # the last frame sent (or being sent)
    _next: str | None = None
    _sending: asyncio.Task[None] | None = field(default=None, repr=False)

    def offer(self, text: str) -> None:
        """Send ``text`` after what is being sent (replacing anything else waiting)."""
        if text == self.last and self._next is None:
            return
        self._next = text
        self.last = text
        if self._sending is None:
            self._sending = asyncio.get_running_loop().create_task(self._drain())

    async def send_now(self, frame: dict[str, Any]) -> None:
        """A reply of its own (welcome, refused), sent at once in order."""
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(frame))

    async def _drain(self) -> None:
        try:
            while self._next is not None and not self.ws.closed:
                text, self._next = self._next, None
                await self.ws.send_str(text)
        except (ConnectionError, RuntimeError):  # the socket closed under us
            log.debug("a viewer's socket closed while sending")
        finally:
            self._sending = None


# (guild, channel) -> whether the bot may post there (None: not known): delivery/lobbies.py.
CanPost = Callable[[int, int], bool | None]


class Hub:
    def __init__(
        self,
        service: GameService,
        *,
        can_post: CanPost | None = None,
        faces: Faces | None = None,
    ) -> None:
        self.service = service
        self.faces = faces
        self.can_post: CanPost = can_post or (lambda _guild, _channel: None)
        self.channels: dict[int, set[Viewer]] = {}
        self.games: dict[int, int] = {}  # channel -> the game its viewers were last shown
        self.views = Views()
        self.recent = Recent()
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self.pushed = 0  # frames handed to sockets (the benchmark counts them)
        self.endings: dict[int, JSON] = {}  # finished game -> its standings (web/ending.py)

    async def start(self) -> None:
        await self.service.changes.listen(self.changed)

    def viewers(self) -> int:
        return sum(len(v) for v in self.channels.values())

    async def join(self, viewer: Viewer) -> None:
        self.channels.setdefault(viewer.channel_id, set()).add(viewer)
        await self._refresh_now(viewer.channel_id, only=viewer)

    async def resend(self, viewer: Viewer) -> None:
        """Send ``viewer`` its frame again (made anew: its language changed)."""
        await self._refresh_now(viewer.channel_id, only=viewer)

    def leave(self, viewer: Viewer) -> None:
        watching = self.channels.get(viewer.channel_id)
        if watching is not None:
            watching.discard(viewer)
            if not watching:
                del self.channels[viewer.channel_id]
                self.games.pop(viewer.channel_id, None)

    def changed(self, game_id: int, channel_id: int) -> None:
        """The database announced a change (``(0, 0)``: maybe any): refresh who watches."""
        targets = list(self.channels) if channel_id == 0 else [channel_id]
        for channel in targets:
            if channel in self.channels:
                self.refresh(channel)

    def refresh(self, channel_id: int) -> None:
        """Read the channel's game and send its viewers their frames (coalesced)."""
        if channel_id in self._refreshing:
            self._dirty.add(channel_id)
            return
        task = asyncio.get_running_loop().create_task(self._refresh_loop(channel_id))
        self._refreshing[channel_id] = task

    async def _refresh_loop(self, channel_id: int) -> None:
        try:
            while True:
                self._dirty.discard(channel_id)
                try:
                    await self._refresh_now(channel_id)
                except Exception:
                    log.exception("could not refresh the live table of channel %s", channel_id)
                if channel_id not in self._dirty:
                    return
        finally:
            self._refreshing.pop(channel_id, None)

    async def _refresh_now(self, channel_id: int, only: Viewer | None = None) -> None:
        watching = [only] if only is not None else list(self.channels.get(channel_id, ()))
        if not watching:
            return
        try:
            loaded: Loaded | None = await self.service.channel_game(channel_id)
        except NoGame:
            loaded = None
        if loaded is not None and loaded.row.status not in (GameStatus.ACTIVE, GameStatus.LOBBY):
            loaded = None  # it ended between the look for the open game and its load
        if loaded is not None and loaded.row.status == GameStatus.ACTIVE:
            self.games[channel_id] = loaded.row.id
            await self._send_tables(loaded, watching)
            return
        await self._send_lobbies(channel_id, loaded, watching)

    async def _send_tables(self, loaded: Loaded, watching: list[Viewer]) -> None:
        moves = await self.recent.moves(loaded, self.service.actions)
        faces = await self._faces(loaded)
        made: dict[tuple[int | None, str], str] = {}
        for viewer in watching:
            seat = loaded.seat_of(viewer.user_id)
            key = (None if seat is None else seat.seat, viewer.language)
            text = made.get(key)
            if text is None:
                with i18n.using(viewer.language):
                    last = _lines(loaded, moves)
                    frame = table_frame(loaded, seat, self.views, last, faces)
                text = made[key] = json.dumps(frame)
            self._offer(viewer, text)

    async def _send_lobbies(
        self, channel_id: int, lobby: Loaded | None, watching: list[Viewer]
    ) -> None:
        self.games.pop(channel_id, None)
        computers = False
        if lobby is not None:
            self.games[channel_id] = lobby.row.id
            computers = await self.service.computers_allowed(lobby.row.guild_id)
        try:
            latest = await self.service.channel_game(channel_id, finished_too=True)
        except NoGame:
            latest = None
        ending = None if latest is None else await self._ending(latest)
        # The final table only while no lobby is open: the page draws it under the result.
        views = self.views if lobby is None and ending is not None else None
        moves = (
            []
            if latest is None or views is None
            else await self.recent.moves(latest, self.service.actions)
        )
        for viewer in watching:
            with i18n.using(viewer.language):
                last = None
                if latest is not None:
                    seat = latest.seat_of(viewer.user_id)
                    lines = _lines(latest, moves) if moves else []
                    last = result_json(latest, ending, seat=seat, views=views, last=lines)
                postable = (
                    None
                    if lobby is not None or viewer.guild_id is None
                    else self.can_post(viewer.guild_id, channel_id)
                )
                frame = lobby_frame(
                    lobby,
                    viewer.user_id,
                    computers=computers,
                    last_result=last,
                    can_post=postable,
                )
            self._offer(viewer, json.dumps(frame))

    async def _faces(self, loaded: Loaded) -> dict[int, Face]:
        """The seated people's names in the server and avatars (web/members.py)."""
        if self.faces is None:
            return {}
        users = [s.user_id for s in loaded.seats if not s.is_computer and s.user_id is not None]
        channel = loaded.row.channel_id
        return await self.faces.of(loaded.row.guild_id, users, later=lambda: self.refresh(channel))

    async def _ending(self, finished: Loaded) -> JSON | None:
        """A finished game's standings and rounds, worked out once (a replay of the game for
        the games whose final view keeps no rounds, off the event loop)."""
        if finished.row.status != GameStatus.FINISHED or finished.state is None:
            return None
        found = self.endings.get(finished.row.id)
        if found is None:
            actions = await self.service.actions(finished.row.id)
            try:
                found = await asyncio.to_thread(ending_json, finished, actions)
            except Exception:  # the result panel still goes out, without the standings
                log.exception("could not work out the standings of game %s", finished.row.id)
                return None
            while len(self.endings) >= MAX_ENDINGS:
                del self.endings[next(iter(self.endings))]
            self.endings[finished.row.id] = found
        return found

    def _offer(self, viewer: Viewer, text: str) -> None:
        if text != viewer.last:
            self.pushed += 1
        viewer.offer(text)


def _lines(loaded: Loaded, moves: list[Line]) -> list[str]:
    """The last moves in words, in the current language, each after its player's name."""
    names = names_of(loaded)
    ui = UIS[loaded.row.game]
    return [f"{names[s]} {ui.move_line(a, s, v, names)}" for s, a, v in moves]
