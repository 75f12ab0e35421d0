"""A button click and a page move take one path, the move desk, and a stale, a replayed and a
finished-game move get the same answer from either edge (real store and service, stub
Discord, the page's own answer on a stub socket)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import discord

from db.models import SeatRow
from db.store import Store
from delivery.assemble import Delivery, assemble
from delivery.moves import Clicked, Outcome, Play, Verdict
from delivery.pacing import Pacer
from service.errors import PlayError
from service.games import GameService
from service.reports import Loaded
from tests.delivery.test_publisher_memory import HUMANS, _Bot
from web.hub import Viewer
from web.live import SocketAnswer

NO_LONGER = "That move is no longer available."
OVER = "This game is over."


@dataclass
class _Click:
    """A Discord click's answer as the desk sees it: on the player's hand DM."""

    clicked: Clicked | None
    said: list[str] = field(default_factory=list)  # every answer's text, in order

    async def within_budget(self, work: Any, deferring: Any) -> Any:
        return await work

    async def show(self, **kwargs: Any) -> bool:
        self.said.append(str(kwargs.get("content", "")))
        return True

    async def refuse(self, error: PlayError) -> None:
        self.said.append(error.translated())

    async def fail(self) -> None:
        self.said.append("sorry")


class _Socket:
    """What the page's answer writes to: a socket that stays open."""

    closed = False

    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_str(self, text: str) -> None:
        self.frames.append(text)


def _page(user_id: int) -> tuple[SocketAnswer, _Socket]:
    socket = _Socket()
    viewer = Viewer(cast(Any, socket), user_id, "A", 700, 1, "en")
    return SocketAnswer(viewer), socket


async def _started(store: Store) -> tuple[Delivery, Loaded, SeatRow]:
    service = GameService(store, turn_timeout=0)
    delivery = assemble(cast(discord.Client, _Bot()), service, pacer=Pacer(scale=0.0001))
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=700, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    started = await service.start(lobby.row.id, HUMANS[0])
    delivery.publisher.publish(started)
    await delivery.publisher.outbox.idle()
    loaded = started.after
    return delivery, loaded, loaded.seats[min(loaded.game.to_act(loaded.state))]


def _click_on_dm(delivery: Delivery, game_id: int, seat: int) -> _Click:
    dm = delivery.publisher.games[game_id].dm(seat)
    assert dm.message_id is not None
    return _Click(Clicked(dm.message_id, dm.channel_id, ephemeral=False))


def _same(click: Outcome, page: Outcome, verdict: Verdict, text: str) -> None:
    assert click.verdict == page.verdict == verdict
    assert click.error is not None and page.error is not None
    assert click.error.message == page.error.message == text


async def test_a_click_and_a_page_move_are_answered_alike(store: Store) -> None:
    delivery, loaded, seat = await _started(store)
    desk, game_id = delivery.desk, loaded.row.id
    assert seat.user_id is not None
    legal = [str(a) for a in loaded.game.legal_actions(loaded.state, seat.seat)]
    first = Play(game_id, seat.user_id, seat.step, legal[0])

    click = _click_on_dm(delivery, game_id, seat.seat)
    played = await desk.play(first, click)
    assert played.verdict == Verdict.PLAYED and played.report is not None
    assert played.report.moves[0].action == legal[0]
    await delivery.publisher.outbox.idle()

    # The same move delivered again (a double click, a resent message), from either edge.
    again = _click_on_dm(delivery, game_id, seat.seat)
    page, socket = _page(seat.user_id)
    _same(await desk.play(first, again), await desk.play(first, page), Verdict.REPLAYED, NO_LONGER)
    assert NO_LONGER in again.said[-1] and NO_LONGER in socket.frames[-1]

    # An old control: the step it carries has passed, and it is not the move just played.
    assert len(legal) > 1
    old = Play(game_id, seat.user_id, seat.step, legal[1])
    stale_click = _click_on_dm(delivery, game_id, seat.seat)
    page, socket = _page(seat.user_id)
    stale = await desk.play(old, stale_click), await desk.play(old, page)
    _same(*stale, Verdict.STALE, NO_LONGER)
    assert NO_LONGER in stale_click.said[-1] and NO_LONGER in socket.frames[-1]

    # The game is over (cancelled here): the same answer again.
    service = desk.service
    await service.cancel(game_id, HUMANS[0], is_admin=True)
    now = await service.load(game_id)
    mine = now.seats[seat.seat]
    late = Play(game_id, seat.user_id, mine.step, legal[0])
    closed_click = _click_on_dm(delivery, game_id, seat.seat)
    page, socket = _page(seat.user_id)
    _same(await desk.play(late, closed_click), await desk.play(late, page), Verdict.CLOSED, OVER)
    assert OVER in closed_click.said[-1] and OVER in socket.frames[-1]


async def test_a_click_is_answered_on_its_hand_and_a_page_move_by_the_table(store: Store) -> None:
    """The click's hand is redrawn by its answer; the page's move needs no answer of its own
    (its table frames show it), and both moves are published."""
    delivery, loaded, seat = await _started(store)
    assert seat.user_id is not None
    legal = [str(a) for a in loaded.game.legal_actions(loaded.state, seat.seat)]
    page, socket = _page(seat.user_id)
    played = await delivery.desk.play(Play(loaded.row.id, seat.user_id, seat.step, legal[0]), page)
    assert played.verdict == Verdict.PLAYED and socket.frames == []
    assert played.report is not None
    after = played.report.after
    assert delivery.publisher.games[loaded.row.id].version == after.row.version  # published
    due = after.seats[min(after.game.to_act(after.state))]
    assert due.user_id is not None
    click = _click_on_dm(delivery, loaded.row.id, due.seat)
    action = str(after.game.legal_actions(after.state, due.seat)[0])
    moved = await delivery.desk.play(Play(after.row.id, due.user_id, due.step, action), click)
    assert moved.verdict == Verdict.PLAYED
    assert len(click.said) == 1 and NO_LONGER not in click.said[0]  # the hand, redrawn
