"""A mover's next hand picture is started when the move that leaves them to go on is saved,
and the message that shows it waits for that drawing instead of starting another; a turn
begun for another seat is drawn by its DM once the move is published (real store and service,
stub Discord, a painter that draws only when the test lets it)."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import discord

from db.models import Actor, GameStatus
from db.store import Store
from delivery import ahead
from delivery.ahead import AHEAD_AT_ONCE
from delivery.assemble import Delivery, assemble
from delivery.attachments import Attachments, always
from delivery.onpage import OnPage
from delivery.pacing import Pacer
from delivery.publisher import Publisher
from service.games import GameService
from service.reports import Loaded, Report
from tests.delivery.test_publisher_memory import HUMANS, _Bot, _Message

PNG = b"\x89PNG hand"
GUARD = 5.0  # seconds a test waits for what must happen at once (it fails past them)
_ids = itertools.count(50_000)


class _Painter:
    """Counts what it is asked to draw; each drawing waits until ``gate`` is open."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.asked: list[str] = []
        self.args: list[tuple[Any, ...]] = []
        self.urgent: list[bool] = []  # whether a click's answer waits, by drawing
        self.first = asyncio.Event()

    async def draw(
        self, method: str, *args: Any, urgent: bool = False, **kwargs: Any
    ) -> bytes | None:
        self.asked.append(method)
        self.args.append(args)
        self.urgent.append(urgent)
        self.first.set()
        await self.gate.wait()
        return PNG

    async def close(self) -> None:
        return None

    def forget(self) -> None:
        """What is asked is counted afresh."""
        self.asked.clear()
        self.urgent.clear()

    def hold(self) -> None:
        """Drawings wait from now on; what is asked is counted afresh."""
        self.gate.clear()
        self.forget()
        self.first = asyncio.Event()


class _Counted(Attachments):
    """Attachments that count every ask for a hand picture (drawn or not)."""

    def __init__(self, painter: _Painter) -> None:
        super().__init__(painter, always)
        self.asks = 0
        self.asked_twice = asyncio.Event()

    async def hand_png(self, loaded: Loaded, seat: int, *, urgent: bool = False) -> bytes | None:
        self.asks += 1
        if self.asks >= 2:
            self.asked_twice.set()
        return await super().hand_png(loaded, seat, urgent=urgent)


class _Dms:
    """A DM channel that records what is sent to it."""

    def __init__(self, sent: list[tuple[int, dict[str, Any]]], channel_id: int) -> None:
        self.sent = sent
        self.channel_id = channel_id

    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        self.sent.append((self.channel_id, kwargs))
        return _Message(next(_ids))


class _RecordingBot(_Bot):
    def __init__(self) -> None:
        self.sent: list[tuple[int, dict[str, Any]]] = []

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Dms:  # type: ignore[override]  # a stand-in
        return _Dms(self.sent, channel_id)


def _delivery(store: Store, attachments: Attachments, bot: _Bot | None = None) -> Delivery:
    service = GameService(store, turn_timeout=0)
    client = cast(discord.Client, bot or _Bot())
    return assemble(client, service, pacer=Pacer(scale=0.0001), attachments=attachments)


async def _started(service: GameService, channel_id: int) -> Report:
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=channel_id, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    return await service.start(lobby.row.id, HUMANS[0])


def _dm_channel(loaded: Loaded, seat_no: int) -> int:
    """The seat's DM channel as the stub bot opens it."""
    user_id = loaded.seats[seat_no].user_id
    assert user_id is not None
    return user_id + 5_000


def _due_after(loaded: Loaded, mover: int, action: Any) -> set[int]:
    """Who is to play once ``mover`` played ``action`` and the moves played for a player
    when they are their only one followed, as the service plays them."""
    game = loaded.game
    after = game.apply(loaded.state, mover, action)
    while (due := game.to_act(after)) and (forced := game.forced(after, min(due))):
        after = game.apply(after, min(due), forced)
    return due


def _passing_move(loaded: Loaded) -> str | None:
    """A move of the seat to play after which the other player is to play."""
    (mover,) = loaded.game.to_act(loaded.state)
    for action in loaded.game.legal_actions(loaded.state, mover):
        due = _due_after(loaded, mover, action)
        if due and mover not in due:
            return str(action)
    return None


def _going_on_move(loaded: Loaded) -> str | None:
    """A move of the seat to play after which that seat is still to play (a turn of several
    steps)."""
    (mover,) = loaded.game.to_act(loaded.state)
    for action in loaded.game.legal_actions(loaded.state, mover):
        if mover in _due_after(loaded, mover, action):
            return str(action)
    return None


async def _to_a_move(
    service: GameService,
    report: Report,
    pick: Callable[[Loaded], str | None],
    publisher: Publisher | None = None,
) -> tuple[Report, str]:
    """Play random moves until ``pick`` finds the move wanted; the report then and that move."""
    rng = random.Random(3)
    while (move := pick(report.after)) is None:
        loaded = report.after
        (seat_no,) = loaded.game.to_act(loaded.state)
        seat = loaded.seats[seat_no]
        assert seat.user_id is not None
        action = str(rng.choice(loaded.game.legal_actions(loaded.state, seat_no)))
        report = await service.act(loaded.row.id, seat.user_id, seat.step, action)
        if publisher is not None:
            publisher.publish(report)
    return report, move


async def _published_to_a_move(
    delivery: Delivery, channel_id: int, pick: Callable[[Loaded], str | None]
) -> tuple[Report, str]:
    """A game started in ``channel_id`` and played, every move published, until ``pick``
    finds the move wanted; returns once all it started is done (the report, that move)."""
    service, publisher = delivery.desk.service, delivery.publisher
    report = await _started(service, channel_id)
    publisher.publish(report)
    report, move = await _to_a_move(service, report, pick, publisher)
    await publisher.outbox.idle()
    await asyncio.gather(*publisher.ahead._under_way)
    return report, move


async def _act(service: GameService, report: Report, move: str) -> tuple[Report, int]:
    """The seat to play plays ``move``: the new report and that seat."""
    loaded = report.after
    (mover,) = loaded.game.to_act(loaded.state)
    user_id = loaded.seats[mover].user_id
    assert user_id is not None
    return await service.act(loaded.row.id, user_id, loaded.seats[mover].step, move), mover


async def _settle() -> None:
    """Let every task the last step started reach the painter."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_the_movers_next_picture_starts_at_the_save_and_its_hand_waits_for_it(
    store: Store,
) -> None:
    painter = _Painter()
    attachments = _Counted(painter)
    delivery = _delivery(store, attachments)
    service, publisher = delivery.desk.service, delivery.publisher
    report, move = await _published_to_a_move(delivery, 700, _going_on_move)
    painter.hold()
    attachments.asks = 0

    report, mover = await _act(service, report, move)
    assert mover in report.after.game.to_act(report.after.state)
    await asyncio.wait_for(painter.first.wait(), GUARD)
    # The picture is being drawn, and no message has asked for it: nothing is published yet.
    # The click's answer will wait for it: it is drawn before any picture no click waits for.
    assert painter.asked == ["hand"] and attachments.asks == 1
    assert painter.urgent == [True]
    assert not publisher.outbox.busy(report.after.row.id)

    publisher.publish(report)  # the mover's hand asks for the picture under way
    await asyncio.wait_for(attachments.asked_twice.wait(), GUARD)
    painter.gate.set()
    await publisher.outbox.idle()
    assert painter.asked == ["hand"]  # drawn once


async def test_a_turn_begun_for_another_seat_is_drawn_by_its_dm_once_published(
    store: Store,
) -> None:
    """Nothing is drawn ahead for the seat whose turn the move began: the painter is asked
    once the move is published (after the click's answer), by the DM that shows the turn."""
    painter, bot = _Painter(), _RecordingBot()
    delivery = _delivery(store, Attachments(painter, always), bot)
    service, publisher = delivery.desk.service, delivery.publisher
    report, move = await _published_to_a_move(delivery, 703, _passing_move)
    painter.forget()
    bot.sent.clear()

    report, mover = await _act(service, report, move)
    (due,) = report.after.game.to_act(report.after.state)
    assert due != mover
    await _settle()
    assert painter.asked == [] and not publisher.ahead._under_way
    publisher.publish(report)
    await publisher.outbox.idle()
    assert painter.asked == ["hand"] and painter.urgent == [False]  # a paced DM waits for it
    pictures = [(channel, kw["files"]) for channel, kw in bot.sent if kw.get("files")]
    assert [channel for channel, _ in pictures] == [_dm_channel(report.after, due)]
    assert pictures[0][1][0].fp.read() == PNG


async def test_a_picture_under_way_is_drawn_once_whoever_stops_waiting(store: Store) -> None:
    painter = _Painter()
    attachments = Attachments(painter, always)
    report = await _started(GameService(store, turn_timeout=0), 701)  # nothing drawn ahead
    loaded = report.after
    (seat,) = loaded.game.to_act(loaded.state)
    painter.hold()

    first = asyncio.ensure_future(attachments.hand_png(loaded, seat))
    impatient = asyncio.ensure_future(attachments.hand_png(loaded, seat))
    await asyncio.wait_for(painter.first.wait(), GUARD)
    await asyncio.sleep(0)  # both are waiting now
    impatient.cancel()  # a click's answer past its wait
    painter.gate.set()
    assert await first == PNG
    assert impatient.cancelled()
    assert await attachments.hand_png(loaded, seat) == PNG  # kept: not drawn again
    assert painter.asked == ["hand"]


async def test_pictures_drawn_ahead_are_bounded(store: Store) -> None:
    painter = _Painter()
    delivery = _delivery(store, Attachments(painter, always))
    service = delivery.desk.service
    games = AHEAD_AT_ONCE + 4
    moves = []
    for channel in range(games):
        moves.append(
            await _to_a_move(service, await _started(service, 800 + channel), _going_on_move)
        )
    await asyncio.gather(*delivery.publisher.ahead._under_way)
    painter.hold()
    for report, move in moves:  # each leaves its player to go on
        await _act(service, report, move)
    await _settle()
    assert len(painter.asked) == AHEAD_AT_ONCE
    painter.gate.set()
    await delivery.publisher.close(1.0)


class _OnPage:
    """Who has a channel's live table open: ``people`` of every channel."""

    def __init__(self, people: set[int]) -> None:
        self.people = people
        self.asked: list[tuple[int, int]] = []

    async def has(self, channel_id: int, user_id: int) -> bool:
        self.asked.append((channel_id, user_id))
        return user_id in self.people


async def test_no_picture_is_drawn_ahead_for_a_player_on_the_live_tables_page(
    store: Store,
) -> None:
    painter = _Painter()
    delivery = _delivery(store, Attachments(painter, always))
    ahead = delivery.publisher.ahead
    service = delivery.desk.service
    for channel, on_page in ((900, set(HUMANS)), (901, set())):
        report, move = await _to_a_move(service, await _started(service, channel), _going_on_move)
        await asyncio.gather(*ahead._under_way)
        pages = _OnPage(on_page)
        ahead.on_page = cast(OnPage, pages)
        painter.asked.clear()
        report, mover = await _act(service, report, move)  # the mover's next hand, ahead or not
        await asyncio.gather(*ahead._under_way)
        assert pages.asked == [(channel, report.after.seats[mover].user_id)]
        assert painter.asked == ([] if on_page else ["hand"])
    await delivery.publisher.close(1.0)


async def test_a_picture_reads_the_seat_view_the_messages_read(store: Store) -> None:
    """The hand picture is drawn from the write path's remembered view of the seat (one
    memo for the messages and the pictures), not from a view computed again."""
    painter = _Painter()
    attachments = Attachments(painter, always)
    delivery = _delivery(store, attachments)
    assert delivery.publisher.views is attachments.views
    report = await _started(GameService(store, turn_timeout=0), 702)
    loaded = report.after
    (seat,) = loaded.game.to_act(loaded.state)
    shown = delivery.publisher.views.of(loaded.game, loaded.state, seat)  # the hand's message
    assert await attachments.hand_png(loaded, seat) == PNG
    assert painter.asked == ["hand"]
    assert painter.args[0][0] is shown


async def test_only_the_movers_still_to_play_are_drawn_ahead() -> None:
    """A click that leaves its player to go on, a move forced for another seat, a third
    seat's turn begun: only the clicker's picture (the one their click's answer shows) is
    asked of the painter."""
    asked: list[int] = []

    class _Recording:
        async def hand_png(self, loaded: Any, seat: int, *, urgent: bool = False) -> bytes:
            asked.append(seat if urgent else -seat)  # the click's answer waits for it
            return PNG

    class _Speaking:
        async def private(self, loaded: Any, user_id: int) -> str:
            return "en"

    seats = [
        SimpleNamespace(user_id=100 + n, is_computer=False, autopilot=False, dm_closed=False)
        for n in range(3)
    ]
    game = SimpleNamespace(to_act=lambda state: {0, 1, 2})
    after = SimpleNamespace(
        seats=seats,
        row=SimpleNamespace(id=1, channel_id=2, status=GameStatus.ACTIVE),
        game=game,
        state=object(),
    )
    moves = [
        SimpleNamespace(seat=2, actor=Actor.PLAYER),
        SimpleNamespace(seat=1, actor=Actor.FORCED),  # played for seat 1: no click of theirs
    ]
    report = cast(Report, SimpleNamespace(after=after, moves=moves))
    assert ahead.going_on(report) == {2}
    people = SimpleNamespace(dm_closed=set())
    pictures = ahead.PicturesAhead(
        cast(Attachments, _Recording()), cast(Any, _Speaking()), cast(Any, people)
    )
    pictures.saved(report)
    await asyncio.gather(*pictures._under_way)
    assert asked == [2]
    after.row.status = GameStatus.FINISHED
    assert ahead.going_on(report) == set()


async def test_the_pictures_a_player_waits_for_are_asked_as_urgent(store: Store) -> None:
    """A click's answer and My hand ask for the hand's picture as urgent: the drawing
    process draws it before the pictures only a paced message waits for (a DM's own, above)."""
    report = await _started(GameService(store, turn_timeout=0), 704)
    loaded = report.after
    (seat_no,) = loaded.game.to_act(loaded.state)
    for ask in ("a click's answer", "My hand"):
        painter = _Painter()
        desk = _delivery(store, Attachments(painter, always)).desk
        if ask == "My hand":
            shown = await desk.hand_picture(loaded, seat_no)
            assert shown["files"][0].fp.read() == PNG
        else:
            shown = await desk.hands.edit_with_picture(loaded, seat_no, {})
            assert shown["attachments"][0].fp.read() == PNG
        assert (ask, painter.urgent) == (ask, [True])
