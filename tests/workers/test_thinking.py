"""Computers thinking in their own process choose what they would have chosen in a thread,
and a game never waits on a broken thinking process."""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import AsyncIterator

import pytest

from engine import GAMES
from service.games import think_in_thread
from workers import runner as children
from workers.thinking import Thinker

PLAYERS = {"grinch": 3, "gnome": 3, "hearts": 2, "ten": 3}
MOVES = 40
TIMED = {"hearts"}  # its computer searches for a fixed time: how far it gets varies anyway


@pytest.fixture
async def thinker() -> AsyncIterator[Thinker]:
    made = Thinker()
    yield made
    await made.close()


@pytest.mark.parametrize("name", sorted(PLAYERS))
async def test_the_process_chooses_what_the_thread_chooses(thinker: Thinker, name: str) -> None:
    game = GAMES[name]
    state = game.new_game(PLAYERS[name], 11)
    for move in range(MOVES):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        seed = f"{name}:{move}:{seat}"
        far = await thinker(name, view, legal, random.Random(seed))
        assert str(far) in {str(a) for a in legal}, (name, move)
        if name not in TIMED:
            near = await think_in_thread(name, view, legal, random.Random(seed))
            assert str(far) == str(near), (name, move)
        state = game.apply(state, seat, far)  # what came back is a playable action
    assert thinker.child.started == 1


def _first_choice(name: str) -> tuple[object, list[object]]:
    game = GAMES[name]
    state = game.new_game(PLAYERS[name], 5)
    seat = sorted(game.to_act(state))[0]
    return game.view(state, seat), game.legal_actions(state, seat)


async def test_a_dead_process_is_thought_around_and_replaced(thinker: Thinker) -> None:
    view, legal = _first_choice("ten")
    wanted = str(await think_in_thread("ten", view, legal, random.Random(3)))
    assert str(await thinker("ten", view, legal, random.Random(3))) == wanted
    pid = thinker.child.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    assert str(await thinker("ten", view, legal, random.Random(3))) == wanted
    assert str(await thinker("ten", view, legal, random.Random(3))) == wanted
    assert thinker.child.started == 2


async def test_started_ahead_the_process_answers_at_once(thinker: Thinker) -> None:
    await thinker.start()
    pid = thinker.child.pid
    assert pid is not None
    view, legal = _first_choice("hearts")
    assert await thinker("hearts", view, legal, random.Random(4)) in legal
    assert thinker.child.pid == pid and thinker.child.started == 1


async def test_a_process_that_cannot_start_leaves_the_thinking_to_a_thread() -> None:
    thinker = Thinker(command=("/nonexistent/python",))
    view, legal = _first_choice("grinch")
    wanted = str(await think_in_thread("grinch", view, legal, random.Random(8)))
    assert str(await thinker("grinch", view, legal, random.Random(8))) == wanted
    await thinker.close()


async def test_a_hung_process_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(children, "CALL_TIMEOUT", 0.5)
    thinker = Thinker(command=(sys.executable, "-c", "import time; time.sleep(60)"))
    view, legal = _first_choice("gnome")
    wanted = str(await think_in_thread("gnome", view, legal, random.Random(2)))
    assert str(await thinker("gnome", view, legal, random.Random(2))) == wanted
    await thinker.close()


async def test_a_policy_that_fails_fails_the_call_as_in_a_thread(thinker: Thinker) -> None:
    view, _ = _first_choice("hearts")
    with pytest.raises(children.ChildFailed) as failed:
        await thinker("hearts", view, [], random.Random(1))  # nothing legal to choose from
    assert not failed.value.crashed
    with pytest.raises(Exception):  # noqa: B017 - whatever the policy raises
        await think_in_thread("hearts", view, [], random.Random(1))
