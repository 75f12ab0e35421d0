"""A lobby's computer players removed or given another level: by anyone seated, never twice,
never another computer than the one meant, and never once the game started or closed."""

from __future__ import annotations

import pytest

from db.store import Store
from engine.base import Level
from service.errors import LobbyProblem, NotSeated
from service.games import GameService
from service.reports import Loaded

HOST, BOB, STRANGER = 100, 101, 999


def _seats(loaded: Loaded) -> list[tuple[int, str, bool, Level]]:
    return [(s.seat, s.name, s.is_computer, s.level) for s in loaded.seats]


async def _lobby(service: GameService) -> Loaded:
    """Host and Bob seated, then Robo Max (easy) and Cindy-Bot (hard)."""
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    await service.join(lobby.row.id, BOB, "Bob")
    await service.add_computer(lobby.row.id, HOST, level=Level.EASY)
    return await service.add_computer(lobby.row.id, BOB, level=Level.HARD)


async def test_anyone_seated_changes_a_level_and_removes_a_computer(store: Store) -> None:
    service = GameService(store)
    gid = (await _lobby(service)).row.id
    changed = await service.set_computer_level(gid, BOB, 2, "Robo Max", Level.NORMAL)
    assert _seats(changed)[2:] == [
        (2, "Robo Max", True, Level.NORMAL),
        (3, "Cindy-Bot", True, Level.HARD),
    ]
    removed = await service.remove_computer(gid, BOB, 2, "Robo Max")
    assert _seats(removed) == [
        (0, "Host", False, Level.NORMAL),
        (1, "Bob", False, Level.NORMAL),
        (2, "Cindy-Bot", True, Level.HARD),  # the gap closed
    ]
    # The double click: Robo Max is gone, and seat 2 is now Cindy-Bot, who stays.
    with pytest.raises(LobbyProblem, match="already left"):
        await service.remove_computer(gid, BOB, 2, "Robo Max")
    with pytest.raises(LobbyProblem, match="already left"):
        await service.set_computer_level(gid, HOST, 2, "Robo Max", Level.HARD)
    assert _seats(await service.load(gid)) == _seats(removed)
    # A person's seat is no computer to remove.
    with pytest.raises(LobbyProblem, match="already left"):
        await service.remove_computer(gid, HOST, 1, "Bob")
    report = await service.start(gid, HOST)
    assert _seats(report.after)[2] == (2, "Cindy-Bot", True, Level.HARD)
    assert report.started is not None and len(report.after.seats) == 3


async def test_strangers_and_old_menus_change_nothing(store: Store) -> None:
    service = GameService(store)
    loaded = await _lobby(service)
    gid, before = loaded.row.id, _seats(loaded)
    with pytest.raises(NotSeated, match="Join the game first"):
        await service.remove_computer(gid, STRANGER, 2, "Robo Max")
    with pytest.raises(NotSeated, match="Join the game first"):
        await service.set_computer_level(gid, STRANGER, 3, "Cindy-Bot", Level.EASY)
    assert _seats(await service.load(gid)) == before
    await service.start(gid, HOST)  # an old lobby message: the game is on
    with pytest.raises(LobbyProblem, match="already started"):
        await service.remove_computer(gid, HOST, 2, "Robo Max")
    with pytest.raises(LobbyProblem, match="already started"):
        await service.set_computer_level(gid, BOB, 3, "Cindy-Bot", Level.EASY)
    assert _seats(await service.load(gid)) == before


async def test_a_closed_lobby_keeps_its_computers(store: Store) -> None:
    service = GameService(store)
    gid = (await _lobby(service)).row.id
    await service.cancel(gid, HOST, is_admin=False)
    with pytest.raises(LobbyProblem, match="closed"):
        await service.remove_computer(gid, HOST, 2, "Robo Max")
    assert not await store.lobbies.remove_lobby_computer(
        gid, 2, "Robo Max"
    )  # the store refuses too
    assert not await store.lobbies.set_lobby_computer_level(gid, 3, "Cindy-Bot", Level.EASY)
    assert [s.name for s in (await service.load(gid)).seats] == [
        "Host",
        "Bob",
        "Robo Max",
        "Cindy-Bot",
    ]
