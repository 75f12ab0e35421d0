"""``GET /api/live``: one websocket per viewer of the live table (docs/activity.md).

The first message is the hello (session, activity instance); the instance gives the channel
whose game the viewer watches (web/hub.py sends the frames). A move goes to the move desk, as
a button click does (delivery/moves.py: a stale, replayed or finished-game move is told apart
and refused there, and a played one is published like a click's, so the DMs and the
channel's table show it); a lobby operation is published likewise (leaving, cancelling,
playing with computers, leaving a running game and the next game's seat: web/dropin.py); a
``share`` is answered with the URL of the finished game's picture (web/share.py). A
refusal is a ``refused`` frame (:class:`SocketAnswer`); nothing is applied. A ``renew`` gives
the socket a new session of the same user before its own ends; the socket's session and its
user's place in the instance are watched for its whole life (web/membership.py). Each socket
has its viewer's language (web/language.py); a ``language`` message changes it for that
socket alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

import i18n
from delivery.lobbies import LobbyMessages
from delivery.moves import Clicked, MoveDesk, Play
from delivery.publisher import Publisher
from discordkit.replies import IN_A_SERVER, SORRY
from engine import GAMES
from engine.base import Level
from i18n import N_
from service.errors import PlayError
from service.games import GameService
from service.languages import Languages
from service.rematch import rematch
from service.reports import Loaded
from web.clients import Clients
from web.discord_api import DiscordApi, DiscordUnreachable, NotInInstance, channel_for
from web.dropin import OPS, DropIn, Refused
from web.guard import Busy, Per
from web.hub import Hub, Viewer
from web.language import picked, viewer_language
from web.limits import Ticket, address_key
from web.membership import Membership
from web.pages import OpenPages
from web.sessions import Sessions
from web.share import NOT_SHAREABLE, NotShared, Shares

log = logging.getLogger(__name__)

T = TypeVar("T")

HELLO_SECONDS = 10.0
FLOOD_MESSAGES, FLOOD_SECONDS = 20, 5.0
MAX_MESSAGE = 4096
BAD_MESSAGE, BAD_SESSION, BAD_INSTANCE, FLOODING = 4000, 4001, 4003, 4008
TRY_AGAIN = 1013  # a limit of the web edge (web/guard.py): the page reconnects after a while
NOT_HERE = N_("That game is not at this table.")
CANNOT_POST = N_(
    "I can't post in this channel: ask an admin to let me send messages here, "
    "or open the table in another channel."
)


class SocketAnswer:
    """A page move's answer (the desk's ``Answer``): a played move needs none, the table's
    frames show it; a refusal is a ``refused`` frame in the viewer's language."""

    clicked: Clicked | None = None  # the page has no hand message to redraw

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer

    async def within_budget(self, work: Awaitable[T], deferring: Callable[[], None]) -> T:
        return await work  # a socket has no deadline to acknowledge by

    async def show(self, **kwargs: Any) -> bool:
        return False

    async def refuse(self, error: PlayError) -> None:
        with i18n.using(self.viewer.language):
            reason = error.translated()
        await self.viewer.send_now({"type": "refused", "reason": reason})

    async def fail(self) -> None:
        with i18n.using(self.viewer.language):
            reason = i18n._(SORRY)
        await self.viewer.send_now({"type": "refused", "reason": reason})


@dataclass(eq=False)
class LiveEndpoint:
    hub: Hub
    service: GameService
    publisher: Publisher
    desk: MoveDesk
    languages: Languages
    api: DiscordApi
    sessions: Sessions
    membership: Membership
    lobbies: LobbyMessages
    clients: Clients = field(default_factory=Clients)
    _: KW_ONLY
    shares: Shares | None = None  # the result screen's Share (web/share.py); else refused
    dropin: DropIn = field(init=False)
    pages: OpenPages = field(init=False)  # this process's open pages (web/pages.py)

    def __post_init__(self) -> None:
        self.dropin = DropIn(self.hub, self.service, self.publisher, self.lobbies)
        self.pages = OpenPages(self.service, self.publisher)

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/api/live", self.handle)]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        address = self.clients.address(request)
        ticket = self.api.guard.sockets.open(address_key(address))
        if ticket is None:
            self.api.guard.refused(address, "a socket", "too many open sockets from there")
            await ws.close(code=TRY_AGAIN, message=b"too many sockets from here; try again later")
            return ws
        try:
            await self._watch(ws, address, ticket, request.query.get("instance"))
        finally:
            ticket.close()
        return ws

    async def _watch(
        self, ws: web.WebSocketResponse, address: str, ticket: Ticket, named: str | None
    ) -> None:
        viewer = await self._hello(ws, address, ticket, named)
        if viewer is None:
            return
        opened = False
        try:
            self.membership.watch(viewer)
            await viewer.send_now(
                {
                    "type": "welcome",
                    "user": {"id": str(viewer.user_id), "name": viewer.name},
                    "channel_id": str(viewer.channel_id),
                    "language": viewer.language,
                    "expires_in": self.sessions.left(viewer.expires),
                }
            )
            await self.hub.join(viewer)
            await self.pages.opened(viewer.user_id, viewer.channel_id)
            opened = True
            await self.dropin.tell_waiting(viewer)
            await self._serve(viewer)
        finally:
            self.membership.unwatch(viewer)
            self.hub.leave(viewer)
            if opened:
                await self.pages.closed(viewer.user_id, viewer.channel_id)

    async def _hello(
        self, ws: web.WebSocketResponse, address: str, ticket: Ticket, named: str | None
    ) -> Viewer | None:
        """The hello's viewer, or None once the socket is closed. ``named``: the instance in
        the socket's address (for a balancer's hash), which must be the hello's."""
        guard = self.api.guard
        try:
            message = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            guard.refused(address, "a hello", "none came")
            await ws.close(code=BAD_SESSION, message=b"no hello")
            return None
        data = _json(message)
        if data is None or data.get("type") != "hello":
            guard.refused(address, "a hello", "the first message was not one")
            await ws.close(code=BAD_MESSAGE, message=b"the first message must be a hello")
            return None
        who = self.sessions.read(data.get("session"))
        if who is None:
            guard.refused(address, "a hello", "a bad or expired session")
            await ws.close(code=BAD_SESSION, message=b"bad or expired session")
            return None
        user = str(who.user_id)
        instance = data.get("instance")
        instance_id = instance if isinstance(instance, str) else ""
        claimed = data.get("channel_id")
        if named is not None and named != instance_id:
            guard.refused(address, f"user {user}'s hello", "the address names another instance")
            await ws.close(code=BAD_INSTANCE, message=b"the address names another instance")
            return None
        try:
            guard.check(Per.HELLO_USER, user)  # first: a user's refused hellos cost others none
            guard.check(Per.HELLO_ADDRESS, address_key(address))
            if not ticket.seat(who.user_id):
                raise Busy("too many open sockets of this user", 30.0, yours=True)
            channel_id = await channel_for(
                self.api,
                instance_id,
                who.user_id,
                int(claimed) if isinstance(claimed, str | int) and str(claimed).isdigit() else None,
                charge=lambda: guard.check(Per.LOOKUP_USER, user),
            )
            found = await self.api.instance(instance_id)
        except Busy as exc:
            guard.refused(address, f"user {user}'s hello", exc.reason)
            reason = f"busy; try again in {exc.seconds} s".encode()
            await ws.close(code=TRY_AGAIN, message=reason)
            return None
        except NotInInstance as exc:
            guard.refused(address, f"user {user}'s hello", f"instance {instance_id!r}: {exc}")
            await ws.close(code=BAD_INSTANCE, message=b"not an instance of yours")
            return None
        except DiscordUnreachable as exc:
            log.warning("cannot check an activity instance for %s: %s", address, exc)
            await ws.close(code=1011, message=b"Discord cannot be reached; try again")
            return None
        language = await viewer_language(self.languages, who.user_id, data, found.guild_id)
        return Viewer(
            ws,
            who.user_id,
            who.name,
            channel_id,
            found.guild_id,
            language,
            instance=instance_id,
            expires=who.expires,
        )

    async def _serve(self, viewer: Viewer) -> None:
        ws = viewer.ws
        recent: deque[float] = deque()
        async for message in ws:
            now = time.monotonic()
            recent.append(now)
            while recent and now - recent[0] > FLOOD_SECONDS:
                recent.popleft()
            if len(recent) > FLOOD_MESSAGES:
                log.info("user %s flooded the live table; closing", viewer.user_id)
                await ws.close(code=FLOODING, message=b"too many messages")
                return
            data = _json(message)
            kind = None if data is None else data.get("type")
            if data is None or kind not in ("move", "lobby", "renew", "language", "share"):
                await ws.close(code=BAD_MESSAGE, message=b"not a message of the live table")
                return
            if kind == "language":
                if not await self._pick(viewer, data):
                    return
                continue
            if kind == "renew":
                if not await self._renew(viewer, data):
                    return
                continue
            try:
                if kind == "move":
                    await self._move(viewer, data)
                elif kind == "share":
                    await self._share(viewer, data)
                else:
                    await self._lobby(viewer, data)
            except (PlayError, Refused) as exc:
                with i18n.using(viewer.language):
                    reason = exc.translated() if isinstance(exc, PlayError) else i18n._(str(exc))
                await viewer.send_now({"type": "refused", "reason": reason})

    async def _pick(self, viewer: Viewer, data: dict[str, Any]) -> bool:
        """The language picked on the page, for this socket's frames from now on (its current
        frame is sent again in it); a language the bot has not closes the socket (4000)."""
        language = picked(data.get("language"))
        if language is None:
            await viewer.ws.close(code=BAD_MESSAGE, message=b"not one of the table's languages")
            return False
        viewer.language = language
        await self.hub.resend(viewer)
        return True

    async def _renew(self, viewer: Viewer, data: dict[str, Any]) -> bool:
        """A new session for the socket: only a valid one of the same user is taken, and it
        moves the socket's end; anything else closes the socket (the page signs in again)."""
        who = self.sessions.read(data.get("session"))
        if who is None or who.user_id != viewer.user_id:
            log.info("user %s sent a bad session to renew with; closing", viewer.user_id)
            await viewer.ws.close(code=BAD_SESSION, message=b"bad or expired session")
            return False
        viewer.expires = max(viewer.expires, who.expires)
        await viewer.send_now({"type": "renewed", "expires_in": self.sessions.left(viewer.expires)})
        return True

    async def _move(self, viewer: Viewer, data: dict[str, Any]) -> None:
        game_id, step, action = data.get("game_id"), data.get("step"), data.get("action")
        if not isinstance(game_id, int) or not isinstance(step, int):
            raise Refused(NOT_HERE)
        if not isinstance(action, str) or not action or len(action) > 100:
            raise Refused(NOT_HERE)
        if self.hub.games.get(viewer.channel_id) != game_id:
            raise Refused(NOT_HERE)
        await self.desk.play(Play(game_id, viewer.user_id, step, action), SocketAnswer(viewer))

    async def _share(self, viewer: Viewer, data: dict[str, Any]) -> None:
        """The result screen's **Share**: the URL of the finished game's picture, for the
        page's share dialog (only the channel's last game, once finished)."""
        game_id = data.get("game_id")
        if not isinstance(game_id, int) or isinstance(game_id, bool) or self.shares is None:
            raise Refused(NOT_SHAREABLE)
        try:
            url = await self.shares.url(viewer.channel_id, game_id, viewer.language)
        except NotShared as exc:
            raise Refused(str(exc)) from exc
        await viewer.send_now({"type": "shared", "game_id": game_id, "url": url})

    async def _lobby(self, viewer: Viewer, data: dict[str, Any]) -> None:
        op, channel = data.get("op"), viewer.channel_id
        if viewer.guild_id is None:
            raise Refused(IN_A_SERVER)
        if op == "open":
            game = data.get("game")
            if not isinstance(game, str) or game not in GAMES:
                raise Refused(NOT_HERE)
            if self.lobbies.can_post(viewer.guild_id, channel) is False:
                raise Refused(CANNOT_POST)
            loaded = await self.service.open_lobby(
                game=game,
                guild_id=viewer.guild_id,
                channel_id=channel,
                host_id=viewer.user_id,
                host_name=viewer.name,
            )
            computers = await self._computers(viewer.guild_id)
            self.lobbies.show(loaded, computers=computers, refused=self._unposted)
            return
        if op == "play_again":
            await self._play_again(viewer, data)
            return
        if op == "check":  # the start screen asks again whether the bot may post here
            await self.hub.resend(viewer)
            return
        if isinstance(op, str) and op in OPS:
            await self.dropin.handle(viewer, op, data, NOT_HERE)
            return
        game_id = self.hub.games.get(channel)
        if game_id is None:
            raise Refused(NOT_HERE)
        if op == "join":
            user, name = viewer.user_id, viewer.name
            loaded = await self.service.join(game_id, user, name, channel_id=channel)
        elif op == "add_computer":
            level = data.get("level")
            chosen = Level(level) if level in {str(v) for v in Level} else None
            loaded = await self.service.add_computer(
                game_id, viewer.user_id, channel_id=channel, level=chosen
            )
        elif op in ("remove_computer", "computer_level"):
            loaded = await self._change_computer(viewer, game_id, op, data)
        elif op == "start":
            report = await self.service.start(game_id, viewer.user_id, channel_id=channel)
            self.lobbies.started(report.after)
            self.publisher.publish(report)
            return
        else:
            raise Refused(NOT_HERE)
        self.lobbies.show(loaded, computers=await self._computers(viewer.guild_id))

    async def _unposted(self, lobby: Loaded) -> None:
        """Discord refused the post of a lobby opened from the page: the lobby nobody in the
        chat can see is closed, and the channel's viewers are told the bot cannot post there
        (their start screen's ``can_post``)."""
        row = lobby.row
        try:
            await self.service.cancel(row.id, row.host_id, is_admin=True, channel_id=row.channel_id)
        except PlayError:  # started or closed meanwhile: nothing to take back
            log.info("the unposted lobby of game %s had moved on", row.id)
        self.hub.refresh(row.channel_id)

    async def _play_again(self, viewer: Viewer, data: dict[str, Any]) -> None:
        """A finished game's players get a new lobby, its computers seated again: the service
        call of the chat's **Play again** (service/rematch.py), posted in the channel as a
        lobby opened from the page is."""
        old = data.get("game_id")
        if not isinstance(old, int) or isinstance(old, bool):
            raise Refused(NOT_HERE)
        made = await rematch(
            self.service, old, viewer.user_id, viewer.name, channel_id=viewer.channel_id
        )
        computers = await self._computers(made.lobby.row.guild_id)
        self.lobbies.show(made.lobby, computers=computers, refused=self._unposted)

    async def _change_computer(
        self, viewer: Viewer, game_id: int, op: str, data: dict[str, Any]
    ) -> Loaded:
        """A lobby's computer removed (``remove_computer``) or given ``level``
        (``computer_level``): the computer is named by its seat (its place in the lobby
        frame's ``players``) and its name, so an old or doubled op is refused, as in Discord."""
        seat, name, level = data.get("seat"), data.get("name"), data.get("level")
        if not isinstance(seat, int) or not 0 <= seat < 100:
            raise Refused(NOT_HERE)
        if not isinstance(name, str) or not name or len(name) > 100:
            raise Refused(NOT_HERE)
        user, channel = viewer.user_id, viewer.channel_id
        if op == "remove_computer":
            return await self.service.remove_computer(game_id, user, seat, name, channel_id=channel)
        if level not in {str(v) for v in Level}:
            raise Refused(NOT_HERE)
        return await self.service.set_computer_level(
            game_id, user, seat, name, Level(str(level)), channel_id=channel
        )

    async def _computers(self, guild_id: int) -> bool:
        return await self.service.computers_allowed(guild_id)


def _json(message: Any) -> dict[str, Any] | None:
    if message.type != WSMsgType.TEXT:
        return None
    try:
        data = json.loads(message.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def close_all(hub: Hub) -> None:
    """Close every viewer's socket (the bot is stopping): they reconnect to another process,
    or to this one once it is back."""
    sockets = [v.ws for viewers in hub.channels.values() for v in viewers]
    await asyncio.gather(*(ws.close(code=1012, message=b"restarting") for ws in sockets))
