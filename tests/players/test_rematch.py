"""Play again: the same people and computers, a new lobby in the same channel."""

from __future__ import annotations

import pytest

from db.store import Store
from discordkit.views import result_view
from service.errors import GameClosed, LobbyProblem, NotSeated
from service.games import GameService
from service.rematch import rematch
from tests.players.helpers import play_game


async def test_a_rematch_seats_the_computers_and_invites_the_people(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    old = await play_game(service, game="grinch", guild=1, channel=5, humans=[1, 2, 3], computers=2)
    view = result_view(old)
    assert view is not None and [getattr(i, "custom_id", "") for i in view.children] == [
        f"again:{old.row.id}"
    ]
    with pytest.raises(NotSeated):
        await rematch(service, old.row.id, 99, "Stranger", channel_id=5)
    with pytest.raises(NotSeated):
        await rematch(service, old.row.id, 2, "P1", channel_id=6)
    made = await rematch(service, old.row.id, 2, "P1", channel_id=5)
    lobby = made.lobby
    assert lobby.row.status == "lobby" and lobby.row.host_id == 2 and lobby.row.channel_id == 5
    assert [s.user_id for s in lobby.seats] == [2, None, None]
    assert sum(s.is_computer for s in lobby.seats) == 2
    assert made.invited == (1, 3)
    with pytest.raises(LobbyProblem, match="already has a game"):  # a second click
        await rematch(service, old.row.id, 1, "P0", channel_id=5)
    for user in made.invited:
        await service.join(lobby.row.id, user, f"P{user}")
    started = await service.start(lobby.row.id, 2)
    assert started.after.row.status == "active" and len(started.after.seats) == 5
    with pytest.raises(GameClosed):
        await rematch(service, lobby.row.id, 2, "P1", channel_id=5)


async def test_no_play_again_for_a_running_game(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=5, host_id=1, host_name="A"
    )
    assert result_view(lobby) is None
