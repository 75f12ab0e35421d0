"""The game service over a real SQLite store, with Grinch as the game."""

from __future__ import annotations

import random

import pytest

from db.store import Store
from engine import GAMES
from service.errors import GameClosed, LobbyProblem, NotAllowed, NotSeated, RejectedMove, StaleMove
from service.games import GameService
from service.reports import Loaded, Report
from tests.clock import Clock

HOST, BOB, CAROL, STRANGER = 100, 101, 102, 999


async def _lobby(service: GameService, channel: int = 10) -> Loaded:
    return await service.open_lobby(
        game="grinch", guild_id=1, channel_id=channel, host_id=HOST, host_name="Host"
    )


async def test_lobby_rules(store: Store) -> None:
    service = GameService(store)
    loaded = await _lobby(service)
    gid = loaded.row.id
    with pytest.raises(LobbyProblem, match="already has a game"):
        await _lobby(service)
    with pytest.raises(LobbyProblem, match="already in"):
        await service.join(gid, HOST, "Host")
    with pytest.raises(LobbyProblem, match="at least 2"):
        await service.start(gid, HOST)
    await service.join(gid, BOB, "Bob")
    with pytest.raises(NotAllowed):
        await service.start(gid, BOB)
    with pytest.raises(NotSeated):
        await service.add_computer(gid, STRANGER)
    for _ in range(4):
        await service.add_computer(gid, HOST)
    with pytest.raises(LobbyProblem, match="full"):
        await service.join(gid, CAROL, "Carol")
    left = await service.leave(gid, BOB)
    assert left is not None and [s.seat for s in left.seats] == [0, 1, 2, 3, 4]
    with pytest.raises(NotAllowed):
        await service.cancel(gid, BOB, is_admin=False)
    closed = await service.cancel(gid, BOB, is_admin=True)
    assert closed.row.status == "cancelled"
    with pytest.raises(LobbyProblem):
        await service.join(gid, CAROL, "Carol")


async def _started(service: GameService, humans: int = 2, computers: int = 1) -> Loaded:
    loaded = await _lobby(service)
    gid = loaded.row.id
    for n in range(1, humans):
        await service.join(gid, HOST + n, f"P{n}")
    for _ in range(computers):
        await service.add_computer(gid, HOST)
    report = await service.start(gid, HOST)
    return report.after


async def test_moves_double_clicks_strangers_and_a_full_game(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=3, computers=1)
    gid, game = loaded.row.id, GAMES["grinch"]
    users = {s.seat: s.user_id for s in loaded.seats}
    rng = random.Random(5)
    played = 0
    while loaded.row.status == "active":
        seat = min(s for s in game.to_act(loaded.state) if users[s] is not None)
        user = users[seat]
        assert user is not None
        step = loaded.seats[seat].step
        action = str(rng.choice(game.legal_actions(loaded.state, seat)))
        with pytest.raises(NotSeated):
            await service.act(gid, STRANGER, step, action)
        report = await service.act(gid, user, step, action)
        played += 1
        with pytest.raises((StaleMove, GameClosed)) as twice:  # the same button pressed twice
            await service.act(gid, user, step, action)
        loaded = report.after
        if isinstance(twice.value, StaleMove):  # refused on the latest saved version
            assert twice.value.version == loaded.row.version
        assert loaded.row.version == len(await store.games.actions(gid))
    outcome = game.outcome(loaded.state)
    assert outcome is not None
    results = await store.games.results(gid)
    assert [r[2] for r in results] == list(outcome.totals)
    assert {r[0] for r in results if r[3]} == set(outcome.winners)
    actors = {a.actor for a in await store.games.actions(gid)}
    assert actors == {"player", "computer"}
    # Replaying the stored log from the seed gives the stored snapshot.
    state = game.new_game(4, loaded.row.seed)
    for a in await store.games.actions(gid):
        state = game.apply(state, a.seat, game.parse_action(a.action))
    assert game.to_json(state) == loaded.row.snapshot
    assert played > 20


async def test_illegal_move_is_refused_with_a_reason_and_changes_nothing(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=2, computers=0)
    gid = loaded.row.id
    who = next(s for s in loaded.seats if s.seat != loaded.state.grinch)
    assert who.user_id is not None
    with pytest.raises(RejectedMove):
        await service.act(gid, who.user_id, who.step, "t.deck")  # Whos never take
    after = await service.load(gid)
    assert after.row.version == loaded.row.version
    assert after.row.snapshot == loaded.row.snapshot


async def test_timeouts_play_for_the_player_then_autopilot_until_they_return(
    store: Store,
) -> None:
    clock = Clock(1_000_000.0)
    service = GameService(store, turn_timeout=60, clock=clock)
    loaded = await _started(service, humans=2, computers=0)
    gid, game = loaded.row.id, GAMES["grinch"]
    due = game.to_act(loaded.state)
    assert all(loaded.seats[s].deadline == clock.now + 60 for s in due)
    assert await service.expire_due() == []  # nothing is late yet
    clock.now += 61
    reports = await service.expire_due()
    assert reports and reports[0].moves[0].actor == "timeout"
    assert "ran out of time" in str(reports[0].notices[0])
    loaded = await service.load(gid)
    late = reports[0].moves[0].seat
    assert loaded.seats[late].timeouts == 1 and not loaded.seats[late].autopilot
    # Time out again whenever this seat is due: on the second time it goes on autopilot.
    for _ in range(50):
        loaded = await service.load(gid)
        if loaded.seats[late].autopilot:
            break
        clock.now += 61
        await service.expire_due()
    loaded = await service.load(gid)
    assert loaded.seats[late].autopilot
    assert late not in game.to_act(loaded.state) or loaded.row.status != "active"
    user = loaded.seats[late].user_id
    assert user is not None
    if loaded.row.status == "active":
        back = await service.come_back(gid, user)
        assert not back.after.seats[late].autopilot
    else:  # the autopilot finished the game: nothing to come back to
        with pytest.raises(GameClosed):
            await service.come_back(gid, user)


async def test_a_failing_computer_player_never_stalls_the_game(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        def choose(self, view: object, legal: list[object], rng: random.Random) -> object:
            raise RuntimeError("bug in the computer player")

    monkeypatch.setattr("service.thinking.policy_for", lambda name, level: Broken())
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=1, computers=1)  # the computer may move first
    game = GAMES["grinch"]
    human = loaded.seats[0]
    assert human.user_id is not None
    while loaded.row.status == "active":
        assert 0 in game.to_act(loaded.state), "the computer seat left the game stuck"
        action = str(random.Random(1).choice(game.legal_actions(loaded.state, 0)))
        loaded = (
            await service.act(loaded.row.id, human.user_id, loaded.seats[0].step, action)
        ).after
    assert loaded.row.status == "finished"


async def test_scores_find_the_last_game_while_a_new_lobby_is_open(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    first = await _started(service, humans=1, computers=1)
    game, rng = GAMES["grinch"], random.Random(3)
    while first.row.status == "active":  # the human plays the game out
        action = str(rng.choice(game.legal_actions(first.state, 0)))
        first = (await service.act(first.row.id, HOST, first.seats[0].step, action)).after
    lobby = await _lobby(service)
    assert (await service.channel_game(10)).row.id == lobby.row.id
    shown = await service.channel_game(10, finished_too=True)
    assert shown.row.id == first.row.id and shown.state is not None


async def test_the_players_own_move_is_reported_before_the_computers_answer(
    store: Store,
) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=1, computers=1)
    game, rng = GAMES["grinch"], random.Random(5)
    seen: list[Report] = []
    answered_by_computer = 0
    while loaded.row.status == "active" and answered_by_computer < 3:
        action = str(rng.choice(game.legal_actions(loaded.state, 0)))
        acting = service.act(loaded.row.id, HOST, loaded.seats[0].step, action)
        own = await acting.saved
        seen.append(own)
        report = await acting.settled
        assert [m.actor for m in own.moves] == ["player"]  # a copy made before the rest
        assert own.after.row.version == loaded.row.version + 1
        assert report.moves[: len(own.moves)] == own.moves
        if len(report.moves) > 1:  # the computer answered after the copy was handed over
            answered_by_computer += 1
            assert own.after.row.version < report.after.row.version
            assert {m.actor for m in report.moves[1:]} <= {"computer", "forced"}
        loaded = report.after
    assert answered_by_computer == 3
    assert len(seen) == len({id(r) for r in seen})


async def test_a_refused_move_fails_both_stages_with_its_error(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=1, computers=1)
    action = str(GAMES["grinch"].legal_actions(loaded.state, 0)[0])
    acting = service.act(loaded.row.id, HOST, loaded.seats[0].step + 1, action)
    with pytest.raises(StaleMove) as first:
        await acting.saved
    with pytest.raises(StaleMove) as second:
        await acting.settled
    assert first.value is second.value
    assert (await service.load(loaded.row.id)).row.version == loaded.row.version


async def test_coming_back_is_checked_like_a_move(store: Store) -> None:
    """ "I'm back": a player of the game only, a running game only; a player who is not on
    autopilot is back already (nothing changes)."""
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=2, computers=0)
    gid = loaded.row.id
    await store.timers.set_seat_flags(gid, 1, autopilot=True, timeouts=2)
    with pytest.raises(NotSeated):
        await service.come_back(gid, STRANGER)
    assert (await service.come_back(gid, HOST)).after.seats[0].autopilot is False
    back = await service.come_back(gid, BOB)
    assert back.before.seats[1].autopilot and not back.after.seats[1].autopilot
    assert not (await service.load(gid)).seats[1].autopilot
    await store.timers.set_seat_flags(gid, 1, autopilot=True, timeouts=2)
    await service.cancel(gid, HOST, is_admin=False)
    with pytest.raises(GameClosed):
        await service.come_back(gid, BOB)
    assert (await service.load(gid)).seats[1].autopilot  # a cancelled game is left as it is
