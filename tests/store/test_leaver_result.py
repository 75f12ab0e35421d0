"""A person who leaves a running game keeps a result of their own, on both engines: their
total when they left (their statistics count it, not the computer's final total), the step
they left at, the last place in the rating, and the game among theirs in /history."""

from __future__ import annotations

import random

from db.store import Store
from service.games import GameService
from service.leaving import leave_game
from service.ratings import Ratings
from service.reports import Loaded

A, B, C = 601, 602, 603


async def _move(service: GameService, loaded: Loaded, rng: random.Random) -> Loaded:
    engine = loaded.game
    to_act = engine.to_act(loaded.state)
    seat = next(s for s in loaded.seats if s.seat in to_act and s.user_id is not None)
    assert seat.user_id is not None
    action = str(rng.choice(engine.legal_actions(loaded.state, seat.seat)))
    return (await service.act(loaded.row.id, seat.user_id, seat.step, action)).after


async def test_a_leavers_own_total_step_and_place(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.on_finished.append(Ratings(store).rate)
    loaded = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=A, host_name="Ann"
    )
    gid = loaded.row.id
    await service.join(gid, B, "Bo")
    await service.join(gid, C, "Cy")
    loaded = (await service.start(gid, A)).after
    rng = random.Random(4)
    while loaded.game.view(loaded.state, None)["round"] < 2:  # one round scored
        loaded = await _move(service, loaded, rng)
    totals = list(loaded.game.view(loaded.state, None)["totals"])
    steps = len(await store.games.actions(gid))
    await leave_game(service, gid, B)
    seat = (await service.load(gid)).seats[1]
    assert (seat.left_user_id, seat.left_step, seat.left_total) == (B, steps, totals[1])
    loaded = await service.load(gid)
    while loaded.row.status == "active":
        loaded = await _move(service, loaded, rng)

    final = {r.seat: r.total for r in await store.games.result_rows(gid)}
    assert final[1] != totals[1]  # the computer scored on
    (line,) = await store.players.score_lines(1, B)
    assert (line.games, line.wins, line.total_sum) == (1, 0, totals[1])
    assert line.lowest == line.highest == totals[1]
    (rated,) = await store.players.rating_trend(1, B, "grinch", last=5)
    assert rated.place == 3
    assert [g.id for g in await store.players.recent_games(1, user_id=B)] == [gid]  # their /history
