"""The hub's choice between a table and a lobby frame (web/hub.py), with a service that
answers as the database would while a game ends under the read."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

from db.models import ActionRow, Actor, GameStatus
from engine import GAMES
from service.errors import NoGame
from service.reports import Loaded
from tests.web.sockets import Socket
from tests.web.test_frames import position
from web.hub import Hub, Viewer


def finished_hearts() -> tuple[Loaded, list[ActionRow]]:
    """A Hearts game played to its end by random moves, and its log."""
    game = GAMES["hearts"]
    state = game.new_game(2, 7)
    rng = random.Random(3)
    actions: list[ActionRow] = []
    while game.outcome(state) is None:
        seat = sorted(game.to_act(state))[0]
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        actions.append(ActionRow(1, len(actions) + 1, seat, str(action), Actor.PLAYER, 0.0))
    loaded = position("hearts", 0)
    row = replace(loaded.row, status=GameStatus.FINISHED, snapshot=game.to_json(state))
    return Loaded(row, loaded.seats, state), actions


class Service:
    """Reads the channel's open game as the finished game: it ended between the read of the
    channel's open game and its load."""

    def __init__(self, finished: Loaded, actions: list[ActionRow]) -> None:
        self.finished, self.log = finished, actions

    async def channel_game(self, channel_id: int, *, finished_too: bool = False) -> Loaded:
        if channel_id != 2:
            raise NoGame("no game")
        return self.finished

    async def actions(self, game_id: int) -> list[ActionRow]:
        return self.log

    async def computers_allowed(self, guild_id: int) -> bool:
        raise AssertionError("asked whether computers may join a lobby that is not one")


async def test_a_game_that_ended_under_the_read_is_shown_as_its_result() -> None:
    finished, actions = finished_hearts()
    hub = Hub(Service(finished, actions))  # type: ignore[arg-type]
    socket = Socket()
    viewer = Viewer(socket, 10, "p0", 2, 1, "en")  # type: ignore[arg-type]
    await hub.join(viewer)
    while viewer._sending is not None:
        await asyncio.sleep(0)
    [frame] = socket.sent
    assert frame["type"] == "lobby" and frame["lobby"] is None
    last = frame["last_result"]
    assert last["game_id"] == finished.row.id and last["standings"]
    assert last["table"]["status"] == "finished" and last["table"]["seat"] == 0
