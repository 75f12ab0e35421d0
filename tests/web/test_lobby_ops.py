"""The live table's lobby and drop-in operations (web/live.py, web/dropin.py) on a real store:
each is the chat's service call, a refusal changes nothing, a double press is refused, and a
spectator waiting for the next game gets a seat in the channel's next lobby."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, cast

import pytest

from db.models import GameStatus
from db.store import Store
from service.errors import GameClosed, LobbyProblem, NoGame, NotAllowed, NotSeated, PlayError
from service.games import GameService
from service.reports import Loaded, Report
from tests.web.sockets import Socket
from web.dropin import Refused
from web.hub import Hub, Viewer
from web.live import LiveEndpoint

GUILD, CHANNEL = 1, 10
HOST, BOB, CAROL = 100, 101, 102


class Channel:
    """The delivery faces web uses, recording what they were asked to show in the channel."""

    def __init__(self) -> None:
        self.shown: list[Loaded] = []
        self.on: list[Loaded] = []  # lobbies whose message says the game is on
        self.published: list[Report] = []
        self.closed: list[tuple[int, str]] = []
        self.cancelled: list[int] = []

    def show(self, loaded: Loaded, *, computers: bool, refused: Any = None) -> None:
        self.shown.append(loaded)

    def started(self, loaded: Loaded) -> None:
        self.on.append(loaded)

    def publish(self, report: Report, **_kwargs: Any) -> None:
        self.published.append(report)

    def close_lobby_message(self, loaded: Loaded, text: Any) -> None:
        self.closed.append((loaded.row.id, str(text)))

    def cancelled_game(self, loaded: Loaded) -> None:
        self.cancelled.append(loaded.row.id)

    def can_post(self, guild_id: int, channel_id: int) -> bool | None:
        return None  # as a process without the gateway's cache: it cannot tell before it tries


class Table:
    """One channel's live table: the endpoint and hub over a real service, and its viewers."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.channel = Channel()
        self.hub = Hub(service)
        publisher = cast(Any, self.channel)
        publisher.cancelled = self.channel.cancelled_game
        nothing = cast(Any, None)
        lobbies = cast(Any, self.channel)
        self.live = LiveEndpoint(
            self.hub, service, publisher, nothing, nothing, nothing, nothing, nothing, lobbies
        )
        self.viewers: dict[int, Viewer] = {}

    async def arrive(self, user: int, name: str) -> Viewer:
        viewer = Viewer(cast(Any, Socket()), user, name, CHANNEL, GUILD, "en")
        self.viewers[user] = viewer
        await self.hub.join(viewer)
        await self.live.dropin.tell_waiting(viewer)
        await self.flush()
        return viewer

    async def op(self, user: int, op: str, **extra: Any) -> None:
        """``op`` as the page sends it; then the hub reads the channel again (the database's
        announcement of the change, and anything it set off, such as seating)."""
        await self.live._lobby(self.viewers[user], {"type": "lobby", "op": op, **extra})
        await self.settle()

    async def settle(self) -> None:
        await self.hub._refresh_now(CHANNEL)
        await self.flush()

    async def flush(self) -> None:
        """Wait for every frame offered to the viewers to be sent."""
        for viewer in self.viewers.values():
            if viewer._sending is not None:
                await viewer._sending

    def sent(self, user: int) -> Socket:
        return cast(Socket, self.viewers[user].ws)

    async def game(self) -> Loaded:
        return await self.service.channel_game(CHANNEL, finished_too=True)


def seats(loaded: Loaded) -> list[tuple[str, bool, str]]:
    return [(s.name, s.is_computer, str(s.level)) for s in loaded.seats]


async def test_a_lobby_frame_names_its_host_each_seat_and_every_game(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    await table.op(HOST, "open", game="gnome")
    await table.arrive(BOB, "Bob")
    frame = table.sent(BOB).last("lobby")
    assert frame["lobby"]["host_name"] == "Host" and frame["lobby"]["host"] is False
    assert [(p["seat"], p["name"]) for p in frame["lobby"]["players"]] == [(0, "Host")]
    assert {g["game"]: (g["min"], g["max"]) for g in frame["games"]} == {
        "grinch": (2, 6),
        "gnome": (3, 7),
        "hearts": (2, 2),
        "ten": (1, 5),
    }


async def test_join_leave_and_cancel_follow_the_chat(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    await table.arrive(BOB, "Bob")
    await table.op(HOST, "open", game="grinch")
    await table.op(BOB, "join")
    with pytest.raises(LobbyProblem, match="already in"):  # the double press
        await table.op(BOB, "join")
    await table.op(BOB, "leave")
    assert seats(await table.game()) == [("Host", False, "normal")]
    assert table.sent(BOB).last("lobby")["lobby"]["joined"] is False
    with pytest.raises(LobbyProblem, match="not in this game"):
        await table.op(BOB, "leave")
    with pytest.raises(NotAllowed, match="Only the host"):  # not the creator
        await table.op(BOB, "cancel")
    assert (await table.game()).row.status == GameStatus.LOBBY
    game_id = (await table.game()).row.id
    await table.op(HOST, "cancel")
    assert (await store.games.game(game_id)).status == GameStatus.CANCELLED
    assert table.channel.closed == [(game_id, "🛑 Host cancelled this lobby.")]
    assert table.sent(BOB).last("lobby")["lobby"] is None
    with pytest.raises(Refused):  # nothing left to cancel
        await table.op(HOST, "cancel")


async def test_the_host_leaving_closes_the_lobby(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    await table.op(HOST, "open", game="hearts")
    game_id = (await table.game()).row.id
    await table.op(HOST, "leave")
    assert (await store.games.game(game_id)).status == GameStatus.CANCELLED
    assert table.channel.closed == [(game_id, "🛑 Host closed this lobby.")]


async def test_play_with_computers_fills_to_the_count_and_starts_once(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    await table.arrive(BOB, "Bob")
    await table.op(HOST, "open", game="gnome")
    with pytest.raises(NotAllowed, match="Only the host"):
        await table.op(BOB, "play_computers")
    assert len((await table.game()).seats) == 1  # nothing added for the refused press
    await table.op(HOST, "play_computers")
    game = await table.game()
    assert game.row.status == GameStatus.ACTIVE
    assert seats(game) == [
        ("Host", False, "normal"),
        ("Robo Max", True, "normal"),
        ("Cindy-Bot", True, "normal"),
    ]
    assert [r.started is not None for r in table.channel.published] == [True]
    assert [g.row.id for g in table.channel.on] == [game.row.id]
    with pytest.raises(LobbyProblem, match="already started"):  # the double press
        await table.op(HOST, "play_computers")
    assert len((await table.game()).seats) == 3
    assert table.sent(HOST).last("table")["seat"] == 0


async def test_play_with_computers_opens_a_game_when_the_channel_has_none(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    with pytest.raises(Refused):  # which game?
        await table.op(HOST, "play_computers")
    await table.op(HOST, "play_computers", game="ten")  # a solo game gets one computer
    game = await table.game()
    assert game.row.status == GameStatus.ACTIVE and game.row.game == "ten"
    assert seats(game) == [("Host", False, "normal"), ("Robo Max", True, "normal")]
    with pytest.raises(LobbyProblem):
        await table.op(HOST, "play_computers", game="ten")


async def test_computers_refused_by_the_server_open_nothing(store: Store) -> None:
    table = Table(GameService(store))
    settings = await store.servers.guild_settings(GUILD)
    await store.servers.save_guild_settings(replace(settings, computers=False))
    await table.arrive(HOST, "Host")
    with pytest.raises(LobbyProblem, match="do not allow computer"):
        await table.op(HOST, "play_computers", game="hearts")
    with pytest.raises(NoGame):
        await table.game()  # no game was opened


async def test_leaving_a_running_game_hands_the_seat_to_a_computer(store: Store) -> None:
    service = GameService(store)
    table = Table(service)
    await table.arrive(HOST, "Host")
    await table.arrive(BOB, "Bob")
    await table.op(HOST, "open", game="grinch")
    await table.op(BOB, "join")
    await table.op(HOST, "start")
    game_id = (await table.game()).row.id
    assert table.sent(BOB).last("table")["seat"] == 1
    with pytest.raises(Refused):  # an old page's game
        await table.op(BOB, "leave_game", game_id=game_id + 1)
    await table.op(BOB, "leave_game", game_id=game_id)
    game = await table.game()
    assert seats(game)[1] == ("Robo Max", True, "normal")
    assert str(table.channel.published[-1].notices[0]).startswith("🚪 Bob left the game")
    notice = table.sent(BOB).last("notice")["text"]
    assert notice == "You left the game; Robo Max 🤖 normal plays your seat."
    frame = table.sent(BOB).last("table")
    assert frame["seat"] is None and frame["moves"] == []  # watching now, no hand
    with pytest.raises(NotSeated):  # the double press
        await table.op(BOB, "leave_game", game_id=game_id)
    assert seats(await table.game()) == seats(game)


async def test_a_late_arrival_watches_and_is_seated_in_the_next_game(store: Store) -> None:
    table = Table(GameService(store))
    await table.arrive(HOST, "Host")
    await table.op(HOST, "play_computers", game="hearts")
    game_id = (await table.game()).row.id
    await table.arrive(CAROL, "Carol")
    watching = table.sent(CAROL).last("table")
    assert watching["seat"] is None and watching["moves"] == [] and watching["step"] is None
    assert "hand" not in watching["view"] or not watching["view"]["hand"]
    with pytest.raises(NotSeated):
        await table.op(CAROL, "leave_game", game_id=game_id)
    with pytest.raises(Refused):  # a seated player has their seat already
        await table.op(HOST, "next_game", game_id=game_id)
    await table.op(CAROL, "next_game", game_id=game_id)
    await table.op(CAROL, "next_game", game_id=game_id)  # twice: still one wish
    assert await store.waits.take(CHANNEL, time.time()) == [(CAROL, "Carol")]
    await table.op(CAROL, "next_game", game_id=game_id)  # asked again after that look
    assert table.sent(CAROL).last("waiting") == {"type": "waiting", "next_game": True}
    again = await table.arrive(CAROL, "Carol")  # a new socket is told too
    assert cast(Socket, again.ws).last("waiting")["next_game"] is True
    # The game ends (cancelled here); the next lobby, opened by anyone, seats Carol.
    await table.service.cancel(game_id, HOST, is_admin=False)
    await table.settle()
    await table.op(HOST, "open", game="hearts")
    lobby = await table.game()
    assert [s.name for s in lobby.seats] == ["Host", "Carol"]
    assert table.sent(CAROL).last("lobby")["lobby"]["joined"] is True
    assert table.channel.shown[-1].row.id == lobby.row.id  # the channel's lobby, Carol in it
    assert [s.name for s in table.channel.shown[-1].seats] == ["Host", "Carol"]
    assert not await table.service.waits_for_next_game(CHANNEL, CAROL)


async def carol_waits(table: Table) -> int:
    """The host plays Hearts with computers; Carol arrives, watches and asks for a seat in the
    channel's next game. The running game's id."""
    await table.arrive(HOST, "Host")
    await table.op(HOST, "play_computers", game="hearts")
    game_id = (await table.game()).row.id
    await table.arrive(CAROL, "Carol")
    await table.op(CAROL, "next_game", game_id=game_id)
    return game_id


async def test_a_wish_for_the_next_game_outlives_a_restart(store: Store) -> None:
    """The wish is the database's: a new process (a new service, hub and endpoint on the
    same store) tells the viewer, and the lobby it opens seats them."""
    table = Table(GameService(store))
    game_id = await carol_waits(table)
    await table.service.cancel(game_id, HOST, is_admin=False)
    restarted = Table(GameService(store))
    back = await restarted.arrive(CAROL, "Carol")
    assert cast(Socket, back.ws).last("waiting") == {"type": "waiting", "next_game": True}
    await restarted.arrive(HOST, "Host")
    await restarted.op(HOST, "open", game="hearts")
    assert [s.name for s in (await restarted.game()).seats] == ["Host", "Carol"]


async def test_refusals_reach_the_viewer_in_words(store: Store) -> None:
    table = Table(GameService(store))
    viewer = await table.arrive(BOB, "Bob")
    for op in ("leave", "cancel", "leave_game", "next_game"):
        with pytest.raises((PlayError, Refused, GameClosed)):
            await table.op(BOB, op, game_id=1)
    assert viewer.user_id == BOB


async def test_a_game_ending_between_two_reads_is_no_lobby(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel's open game is looked up, then loaded: ended in between, it is neither
    drawn as a lobby nor taken for the next game's lobby (the wish for it is kept)."""
    service = GameService(store)
    table = Table(service)
    game_id = await carol_waits(table)
    await service.cancel(game_id, HOST, is_admin=False)
    ended = await service.load(game_id)

    async def stale(channel_id: int, *, finished_too: bool = False) -> Loaded:
        return ended  # as if it were still open when looked up

    monkeypatch.setattr(service, "channel_game", stale)
    await table.settle()
    assert table.sent(CAROL).last("lobby")["lobby"] is None
    assert await service.waits_for_next_game(CHANNEL, CAROL)


async def test_a_wish_for_the_next_game_is_given_up_and_the_lobby_seats_nobody(
    store: Store,
) -> None:
    table = Table(GameService(store))
    game_id = await carol_waits(table)
    given_up = {"type": "waiting", "next_game": False}

    def answers() -> list[dict[str, object]]:
        return [f for f in table.sent(CAROL).sent if f == given_up]

    await table.op(CAROL, "skip_next_game", game_id=game_id)
    assert table.sent(CAROL).last("waiting") == given_up
    await table.op(CAROL, "skip_next_game", game_id=game_id)  # twice: the same answer
    assert len(answers()) == 2
    assert not await table.service.waits_for_next_game(CHANNEL, CAROL)
    await table.service.cancel(game_id, HOST, is_admin=False)
    await table.settle()
    await table.op(CAROL, "skip_next_game")  # no game running: still answered, nothing changes
    assert len(answers()) == 3
    await table.op(HOST, "open", game="hearts")
    assert [s.name for s in (await table.game()).seats] == ["Host"]
