"""Leaving a running game and closing idle lobbies, on both engines."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from db.store import Store
from presentation.viewing import names_of
from service.errors import GameClosed, NotSeated
from service.games import GameService
from service.leaving import close_idle_lobbies, leave_game
from service.ratings import Ratings

HOST, BOB, CAROL = 1, 2, 3


async def test_a_leaver_is_replaced_by_a_computer_that_finishes(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.on_finished.append(Ratings(store).rate)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=5, host_id=HOST, host_name="Host"
    )
    gid = lobby.row.id
    for user, name in ((BOB, "Bob"), (CAROL, "Carol")):
        await service.join(gid, user, name)
    with pytest.raises(GameClosed, match="Leave"):
        await leave_game(service, gid, BOB)
    loaded = (await service.start(gid, HOST)).after
    with pytest.raises(NotSeated):
        await leave_game(service, gid, 99)

    left = await leave_game(service, gid, HOST, channel_id=5)
    assert left.new_host == "Bob" and "Host left the game" in str(left.report.notices[0])
    after = await service.load(gid)
    assert after.row.host_id == BOB
    seat = after.seats[0]
    assert (seat.user_id, seat.is_computer, seat.left_user_id) == (None, True, HOST)
    assert seat.name == left.computer and seat.left_name == "Host"
    names = names_of(after)  # what the result will name: the computer, and whose seat it took
    assert (names[0], names.left_by(0), names.left_by(1)) == (left.computer, "Host", None)
    await leave_game(service, gid, CAROL)
    assert (await service.load(gid)).row.host_id == BOB  # only the host's leaving moves it

    rng = random.Random(4)
    loaded = await service.load(gid)
    while loaded.row.status == "active":  # Bob plays; the computers play the other seats
        engine = loaded.game
        mine = loaded.seats[1]
        assert mine.seat in engine.to_act(loaded.state)
        action = str(rng.choice(engine.legal_actions(loaded.state, mine.seat)))
        loaded = (await service.act(gid, BOB, mine.step, action)).after
    results = await store.games.result_rows(gid)
    assert [(r.user_id, r.left_user_id) for r in results] == [
        (None, HOST),
        (BOB, None),
        (None, CAROL),
    ]
    with pytest.raises(GameClosed, match="over"):
        await leave_game(service, gid, BOB)

    # The people who left are rated in their seats, last, whatever their computers did.
    history = await store.games.export_rows("rating_history")
    assert {h["user_id"]: h["place"] for h in history if h["game_id"] == gid} == {
        HOST: 2,
        BOB: 1,
        CAROL: 2,
    }
    board = {r.user_id: r for r in await store.players.leaderboard(1, "grinch", limit=5)}
    assert board[BOB].ordinal > board[HOST].ordinal == board[CAROL].ordinal
    bob_won = next(r.won for r in await store.games.result_rows(gid) if r.user_id == BOB)
    assert (board[BOB].wins, board[HOST].wins, board[CAROL].wins) == (int(bob_won), 0, 0)
    before = (
        await store.games.export_rows("ratings"),
        await store.games.export_rows("rating_history"),
    )
    await Ratings(store).rebuild()
    assert (
        await store.games.export_rows("ratings"),
        await store.games.export_rows("rating_history"),
    ) == before


async def test_idle_lobbies_close_and_free_their_channel(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    idle = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=5, host_id=HOST, host_name="Host"
    )
    now = time.time()
    assert await close_idle_lobbies(service, now, idle=900) == []
    await asyncio.sleep(0.05)
    busy = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=6, host_id=BOB, host_name="Bob"
    )
    await asyncio.sleep(0.02)
    await store.lobbies.add_seat(busy.row.id, user_id=CAROL, name="Carol", max_seats=2)
    joined = await service.load(busy.row.id)
    assert joined.row.updated_at > busy.row.updated_at > idle.row.updated_at  # joining counts
    closed = await close_idle_lobbies(service, joined.row.updated_at + 1, idle=1.01)
    assert [c.row.id for c in closed] == [idle.row.id] and closed[0].row.status == "cancelled"
    again = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=5, host_id=HOST, host_name="Host"
    )
    assert again.row.status == "lobby"


async def test_a_leavers_hand_message_is_owed_its_closing_until_recorded(store: Store) -> None:
    """The seat keeps the leaver's hand message: its game stays among the stale ones (a
    restart closes it) until the closing edit is recorded, and a press of theirs is answered
    that they left, not that the buttons are someone else's."""
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=5, host_id=HOST, host_name="Host"
    )
    gid = lobby.row.id
    await service.join(gid, BOB, "Bob")
    await service.start(gid, HOST)
    await store.seats.set_dm(gid, 1, channel_id=70, message_id=700)
    loaded = await service.load(gid)
    await store.shown.set_shown_versions({gid: loaded.row.version}, {(gid, 1): loaded.row.version})
    await store.seats.set_dm(gid, 0, channel_id=60, message_id=600)
    await store.shown.set_shown_versions({}, {(gid, 0): loaded.row.version})
    assert gid not in await store.shown.stale_games()

    await leave_game(service, gid, BOB)
    after = await service.load(gid)
    assert after.seats[1].dm_message_id == 700 and after.left_by(BOB)
    assert gid in await store.shown.stale_games()
    with pytest.raises(NotSeated, match="You left this game"):
        await service.act(gid, BOB, 0, "x")
    with pytest.raises(NotSeated, match="belong to a player"):
        await service.act(gid, 99, 0, "x")

    await store.seats.leaver_dm_closed(gid, 1, 699)  # another message: nothing changes
    assert (await service.load(gid)).seats[1].dm_message_id == 700
    await store.seats.leaver_dm_closed(gid, 1, 700)
    assert (await service.load(gid)).seats[1].dm_message_id is None
    after = await service.load(gid)
    await store.shown.set_shown_versions({gid: after.row.version}, {(gid, 0): after.row.version})
    assert gid not in await store.shown.stale_games()
