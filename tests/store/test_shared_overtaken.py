"""Two processes on one database draw the same hands: the older drawing may land last. The
process whose edit was overtaken draws the newest state again, so each player's hand shows
the last move in the end (PostgreSQL; a stub Discord to which one process writes slowly)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord
import pytest

from db.store import Store
from delivery.assemble import assemble
from delivery.pacing import Pacer
from delivery.publisher import Publisher
from service.games import GameService
from service.reports import Report
from tests.fakediscord.forms import parse_multipart
from tests.store.conftest import OpenStore
from tests.store.test_shared_publishing import CHANNEL, HOST, Bot, Channel, Http, Message, World

GUEST = HOST + 1
Shown = dict[int, list[str]]  # message id -> the controls it shows now (their custom ids)


def controls(components: list[Any]) -> list[str]:
    """A message's controls: what a stale hand gets wrong (the moves, and the step they are
    for). The rest of a hand follows only its private part (delivery.shown.private_key)."""
    return [c.get("custom_id") for row in components for c in row.get("components", [])]


class HeldChannel(Channel):
    def __init__(self, world: World, channel_id: int, shown: Shown) -> None:
        super().__init__(world, channel_id)
        self.shown = shown

    async def send(self, *_: Any, **kwargs: Any) -> Message:
        message = await super().send()
        view = kwargs.get("view")
        self.shown[message.id] = controls(view.to_components() if view is not None else [])
        return message


class HeldHttp(Http):
    """Each edit replaces what its message shows, in the order Discord receives them; while
    ``gate`` is closed this process's edits wait on their way."""

    def __init__(self, world: World, shown: Shown) -> None:
        super().__init__(world)
        self.shown, self.gate = shown, asyncio.Event()
        self.gate.set()

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        await self.gate.wait()
        if "data" in kwargs:  # with a picture: the multipart body, its JSON part first
            body = kwargs["data"]
            payload, _ = parse_multipart(body.content_type, await body.as_bytes())
        else:
            payload = kwargs["params"].payload
        self.world.edits.append(message_id)
        self.shown[message_id] = controls(payload.get("components") or [])


class HeldBot(Bot):
    def __init__(self, world: World, shown: Shown) -> None:
        super().__init__(world)
        self.shown, self.http = shown, HeldHttp(world, shown)

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Channel:
        return HeldChannel(self.world, channel_id, self.shown)


def process(store: Store, world: World, shown: Shown) -> Publisher:
    service = GameService(store, turn_timeout=0)
    bot = cast(discord.Client, HeldBot(world, shown))
    return assemble(bot, service, pacer=Pacer(scale=0.0001)).publisher


async def move(publisher: Publisher, game_id: int) -> Report:
    """The due player makes their first legal move through this process's service."""
    loaded = await publisher.service.load(game_id)
    seat = loaded.seats[min(loaded.game.to_act(loaded.state))]
    assert seat.user_id is not None
    action = str(loaded.game.legal_actions(loaded.state, seat.seat)[0])
    return await publisher.service.act(game_id, seat.user_id, seat.step, action)


@pytest.mark.parametrize("game", ["grinch", "hearts", "ten"])
async def test_an_edit_that_lands_after_a_newer_one_is_drawn_over(
    open_store: OpenStore, engine: str, game: str
) -> None:
    if engine != "postgres":
        pytest.skip("two processes share PostgreSQL only")
    world, shown = World(), Shown()
    a, b = process(await open_store(), world, shown), process(await open_store(), world, shown)
    lobby = await a.service.open_lobby(
        game=game, guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="ann"
    )
    await a.service.join(lobby.row.id, GUEST, "bo")
    started = await a.service.start(lobby.row.id, HOST)
    game_id = started.after.row.id
    a.publish(started)
    await a.outbox.idle()

    held = cast(HeldHttp, a.bot.http).gate
    held.clear()  # process A's writes of the first move are slow to reach Discord
    a.publish(await move(a, game_id))
    await asyncio.sleep(0.05)
    b.publish(await move(b, game_id))  # process B serves the next move, and shows it first
    await b.outbox.idle()
    edits = len(world.edits)
    held.set()  # A's older edits land now, over B's
    await a.outbox.idle()
    assert len(world.edits) > edits, "no edit of A's landed after B's: no race to test"

    final = await a.service.load(game_id)
    for seat in final.seats:
        assert seat.dm_message_id is not None
        drawn = a.hands.kwargs(final, seat, final.row.table_message_id)
        expected = controls(drawn["view"].to_components())
        assert shown[seat.dm_message_id] == expected, f"seat {seat.seat} shows an older move"


@pytest.mark.parametrize("game", ["grinch", "hearts", "ten"])
async def test_a_whole_game_on_a_shared_store_ends_shown(
    open_store: OpenStore, engine: str, game: str
) -> None:
    """A game played to its end on a shared store: every job ends (a job draws again only
    while the database holds a move newer than the state it drew from), and the store says
    the table shows the last move."""
    if engine != "postgres":
        pytest.skip("the shared store (PostgreSQL) only")
    a = process(await open_store(), World(), Shown())
    lobby = await a.service.open_lobby(
        game=game, guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="ann"
    )
    await a.service.join(lobby.row.id, GUEST, "bo")
    report = await a.service.start(lobby.row.id, HOST)
    game_id = report.after.row.id
    while report.after.row.status == "active":
        a.publish(report)
        report = await move(a, game_id)
    a.publish(report)
    async with asyncio.timeout(30):
        await a.outbox.idle()
        await a.marks.flush()
    row = (await a.service.load(game_id)).row
    assert row.status == "finished"
    assert row.rendered_version == row.version
