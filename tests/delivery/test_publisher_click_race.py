"""A hand edit that was under way when a player clicked, and finished after the click's answer,
has put older buttons over that answer: the hand is drawn again (stub Discord, real store)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord

from db.models import SeatRow
from db.store import Store
from delivery.assemble import assemble
from delivery.pacing import Pacer
from delivery.publisher import Publisher
from delivery.shown import Answered
from service.games import GameService
from service.reports import Report
from tests.delivery.test_publisher_memory import HUMANS, _Bot, _Http


class _HeldHttp(_Http):
    """Message edits are recorded (message id) and wait while ``gate`` is closed."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.edits: list[int] = []

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        await self.gate.wait()
        self.edits.append(message_id)


class _HeldBot(_Bot):
    http: _HeldHttp

    def __init__(self) -> None:
        self.http = _HeldHttp()


async def _started(service: GameService, publisher: Publisher) -> tuple[Report, SeatRow]:
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=700, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    started = await service.start(lobby.row.id, HUMANS[0])
    publisher.publish(started)
    await publisher.outbox.idle()
    loaded = started.after
    return started, loaded.seats[min(loaded.game.to_act(loaded.state))]


async def _click(
    service: GameService, publisher: Publisher, bot: _HeldBot, *, late_edit: bool
) -> list[int]:
    """The due player clicks while an edit of their hand is under way; that edit finishes
    after the click's answer (``late_edit``) or before it. Returns the hand's edits after."""
    started, seat = await _started(service, publisher)
    game_id = started.after.row.id
    shown = publisher.games[game_id]
    dm = shown.dm(seat.seat)
    assert dm.message_id is not None and seat.user_id is not None
    bot.http.gate.clear()
    dm.key = None  # the hand is to be edited: the job starts and waits for Discord
    publisher._hand_later(shown, seat.seat)
    await asyncio.sleep(0.05)
    if not late_edit:
        bot.http.gate.set()
        await publisher.outbox.idle()
    writes = shown.dm(seat.seat).writes  # just before the click's answer
    action = str(started.after.game.legal_actions(started.after.state, seat.seat)[0])
    report = await service.act(game_id, seat.user_id, seat.step, action)
    bot.http.gate.set()  # a late edit lands now, after the answer
    await asyncio.sleep(0.05)
    publisher.publish(report, answered=Answered(seat.seat, dm.message_id, report.after, writes))
    await publisher.outbox.idle()
    return [m for m in bot.http.edits if m == dm.message_id]


async def test_a_hand_edit_landing_after_the_answer_is_drawn_over(store: Store) -> None:
    bot = _HeldBot()
    service = GameService(store, turn_timeout=0)
    publisher = assemble(cast(discord.Client, bot), service, pacer=Pacer(scale=0.0001)).publisher
    edits = await _click(service, publisher, bot, late_edit=True)
    assert len(edits) == 2  # the late, older edit, then the hand drawn again over it


async def test_a_hand_edit_done_before_the_answer_is_left_alone(store: Store) -> None:
    bot = _HeldBot()
    service = GameService(store, turn_timeout=0)
    publisher = assemble(cast(discord.Client, bot), service, pacer=Pacer(scale=0.0001)).publisher
    edits = await _click(service, publisher, bot, late_edit=False)
    assert len(edits) == 1  # the answer shows the hand: no edit after it


async def test_only_another_message_in_the_players_dm_is_an_older_hand(store: Store) -> None:
    bot = _HeldBot()
    service = GameService(store, turn_timeout=0)
    delivery = assemble(cast(discord.Client, bot), service, pacer=Pacer(scale=0.0001))
    publisher, hands = delivery.publisher, delivery.desk.hands
    started, seat = await _started(service, publisher)
    game_id, user_id = started.after.row.id, seat.user_id
    dm = publisher.games[game_id].dm(seat.seat)
    assert user_id is not None and dm.channel_id is not None and dm.message_id is not None
    older = dm.message_id - 1
    assert hands.is_old_hand(game_id, user_id, dm.channel_id, older)
    assert not hands.is_old_hand(game_id, user_id, dm.channel_id, dm.message_id)  # current
    assert not hands.is_old_hand(game_id, user_id, 700, older)  # an ephemeral hand
    assert not hands.is_old_hand(game_id, 999, dm.channel_id, older)  # not a player
    assert not hands.is_old_hand(game_id + 1, user_id, dm.channel_id, older)  # unknown game
