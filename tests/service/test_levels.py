"""Computer levels in the service: the level a move is thought at (a computer seat's own, the
server's default for autopilot and timeouts), a leaver's computer, a rematch, and ratings."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import i18n
from db.models import GameStatus
from db.servers import GuildSettings
from db.store import Store
from engine import GAMES
from engine.base import Level
from service.games import GameService
from service.leaving import leave_game
from service.ratings import COMPUTER_SKILLS, DEFAULT_SKILL, Ratings, rate_match
from service.rematch import rematch
from service.reports import Loaded
from service.servers import BadSetting, ServerSettings, parse_level

HOST, BOB = 100, 101


class Recorder:
    """A ``think`` that notes the level of every call and plays the first legal action."""

    def __init__(self) -> None:
        self.levels: list[tuple[str, Level]] = []

    async def __call__(
        self, game: str, view: Any, legal: list[Any], rng: random.Random, level: Level
    ) -> Any:
        self.levels.append((game, level))
        return legal[0]


async def _lobby(service: GameService, *levels: Level | None) -> Loaded:
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    loaded = await service.join(lobby.row.id, BOB, "Bob")
    for level in levels:
        loaded = await service.add_computer(lobby.row.id, HOST, level=level)
    return loaded


async def _set_default(store: Store, level: Level) -> None:
    await store.servers.save_guild_settings(replace(GuildSettings(1), computer_level=level))


async def _play_people(service: GameService, loaded: Loaded, rng: random.Random) -> Loaded:
    """The people play at random until the game is over."""
    game = GAMES[loaded.row.game]
    while loaded.row.status == GameStatus.ACTIVE:
        seat = next(s for s in loaded.seats if s.user_id and s.seat in game.to_act(loaded.state))
        assert seat.user_id is not None
        action = str(rng.choice(game.legal_actions(loaded.state, seat.seat)))
        loaded = (await service.act(loaded.row.id, seat.user_id, seat.step, action)).after
    return loaded


async def test_each_computer_thinks_at_its_own_level(store: Store) -> None:
    think = Recorder()
    service = GameService(store, turn_timeout=0, think=think)
    await _set_default(store, Level.EASY)
    lobby = await _lobby(service, Level.HARD, None)  # None: the server's default
    assert [s.level for s in lobby.seats[2:]] == [Level.HARD, Level.EASY]
    loaded = (await service.start(lobby.row.id, HOST)).after
    await _play_people(service, loaded, random.Random(3))
    assert {level for _game, level in think.levels} == {Level.HARD, Level.EASY}
    assert all(game == "grinch" for game, _level in think.levels)


async def test_autopilot_thinks_at_the_servers_default_level(store: Store) -> None:
    think = Recorder()
    service = GameService(store, turn_timeout=0, think=think)
    lobby = await _lobby(service, Level.HARD)
    await _set_default(store, Level.EASY)  # changed after the computer was added
    loaded = (await service.start(lobby.row.id, HOST)).after
    await store.timers.set_seat_flags(loaded.row.id, 1, autopilot=True)  # Bob is away
    think.levels.clear()
    loaded = await _play_people(
        service, (await service.resume(loaded.row.id)).after, random.Random(4)
    )
    actors = {a.actor for a in await service.actions(loaded.row.id)}
    assert "autopilot" in actors
    assert {level for _game, level in think.levels} == {Level.HARD, Level.EASY}
    # Bob's autopilot moves are exactly the easy ones: one think call per automatic move.
    automatic = [a for a in await service.actions(loaded.row.id) if a.actor != "player"]
    easy = [level for _game, level in think.levels if level is Level.EASY]
    assert len(easy) == sum(a.actor == "autopilot" for a in automatic) > 0


async def test_a_timeout_thinks_at_the_servers_default_level(store: Store) -> None:
    think = Recorder()
    clock = [1_000_000.0]
    service = GameService(store, turn_timeout=60, think=think, clock=lambda: clock[0])
    await _set_default(store, Level.HARD)
    lobby = await _lobby(service)  # two people, no computer
    loaded = (await service.start(lobby.row.id, HOST)).after
    assert any(s.deadline for s in loaded.seats)
    clock[0] += 61
    reports = await service.expire_due()
    assert reports and all(m.actor == "timeout" for r in reports for m in r.moves)
    assert think.levels and {level for _game, level in think.levels} == {Level.HARD}


async def test_a_leavers_seat_goes_to_a_computer_at_the_servers_default(store: Store) -> None:
    think = Recorder()
    service = GameService(store, turn_timeout=0, think=think)
    await _set_default(store, Level.HARD)
    lobby = await _lobby(service)
    await service.start(lobby.row.id, HOST)
    left = await leave_game(service, lobby.row.id, BOB)
    seat = (await service.load(lobby.row.id)).seats[1]
    assert seat.is_computer and seat.level is Level.HARD and seat.left_user_id == BOB
    assert left.level is Level.HARD
    notice = str(left.report.notices[0])
    assert notice == f"🚪 Bob left the game; {left.computer} 🤖 hard plays their seat."
    with i18n.using("ro"):
        assert f"{left.computer} 🤖 greu joacă" in str(left.report.notices[0])


async def test_a_rematch_keeps_each_computers_level(store: Store) -> None:
    service = GameService(store, turn_timeout=0, think=Recorder())
    lobby = await _lobby(service, Level.EASY, Level.HARD)
    loaded = (await service.start(lobby.row.id, HOST)).after
    await _play_people(service, loaded, random.Random(5))
    await _set_default(store, Level.NORMAL)
    again = await rematch(service, lobby.row.id, BOB, "Bob", channel_id=10)
    computers = [(s.name, s.level) for s in again.lobby.seats if s.is_computer]
    assert computers == [("Robo Max", Level.EASY), ("Cindy-Bot", Level.HARD)]


def test_beating_a_hard_computer_gains_more_than_beating_an_easy_one() -> None:
    # Seat 0, a new player, wins; seat 1 is a computer; seat 2 another new player, last.
    entrants = [(0, HOST, 1), (1, None, 2), (2, BOB, 3)]
    gained = {}
    for level in Level:
        new = rate_match(entrants, {}, {1: level})
        gained[level] = new[HOST][0] - DEFAULT_SKILL[0]
    assert 0 < gained[Level.EASY] < gained[Level.NORMAL] < gained[Level.HARD]
    # And losing to an easy computer costs more than losing to a hard one.
    lost = {
        level: rate_match([(0, None, 1), (1, HOST, 2)], {}, {0: level})[HOST][0] for level in Level
    }
    assert lost[Level.EASY] < lost[Level.NORMAL] < lost[Level.HARD] < DEFAULT_SKILL[0]
    easy, normal, hard = (COMPUTER_SKILLS[level][0] for level in Level)
    assert easy < DEFAULT_SKILL[0] == normal < hard


async def test_ratings_and_their_rebuild_use_each_computers_level(store: Store) -> None:
    """A game against a hard computer is rated with the hard computer's skill, game by game
    and in the rebuild from the stored games (not as a normal computer would be)."""
    service = GameService(store, turn_timeout=0, think=Recorder())
    lobby = await _lobby(service, Level.HARD)
    loaded = (await service.start(lobby.row.id, HOST)).after
    await _play_people(service, loaded, random.Random(6))
    ratings = Ratings(store)
    assert await ratings.rate(lobby.row.id)
    results = await store.games.result_rows(lobby.row.id)
    entrants = [(r.seat, r.user_id, r.place or 0) for r in results]
    as_hard = rate_match(entrants, {}, {2: Level.HARD})
    as_normal = rate_match(entrants, {}, {})
    assert as_hard != as_normal

    async def stored() -> list[float]:
        rows = [r for u in (HOST, BOB) for r in await store.players.player_ratings(1, u)]
        return [value for r in rows for value in (r.mu, r.sigma)]

    expected = [value for u in (HOST, BOB) for value in as_hard[u]]
    assert await stored() == pytest.approx(expected)
    await ratings.rebuild()
    assert await stored() == pytest.approx(expected)


async def test_settings_change_the_servers_default_level(store: Store) -> None:
    servers = ServerSettings(store, default_timeout=300)
    assert (await servers.get(1)).computer_level is Level.NORMAL
    saved = await servers.update(1, computer_level="hard")
    assert (
        saved.computer_level is Level.HARD and (await servers.get(1)).computer_level is Level.HARD
    )
    unchanged = await servers.update(1, pictures=False)  # other settings keep the level
    assert unchanged.computer_level is Level.HARD
    with pytest.raises(BadSetting, match="easy"):
        await servers.update(1, computer_level="brutal")
    assert parse_level(" Easy ") is Level.EASY
    service = GameService(store, turn_timeout=0)
    lobby = await _lobby(service, None)  # added without a level: the server's default
    assert lobby.seats[2].level is Level.HARD
