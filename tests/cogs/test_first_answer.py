"""What a click's own response shows: the game after the computers' answers when they come
quickly, else after the player's move alone; a move that was not saved raises."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from cogs.table import FOLLOW_WAIT, _first_answer
from service.errors import StaleMove
from service.reports import Report

OWN = cast(Report, "the player's move")
ALL = cast(Report, "with the computers' answers")


async def _act(
    own: asyncio.Future[Report], *, think: float, fail: BaseException | None = None
) -> Report:
    await asyncio.sleep(0)
    own.set_result(OWN)
    await asyncio.sleep(think)
    if fail is not None:
        raise fail
    return ALL


def _start(think: float, fail: BaseException | None = None) -> tuple[Any, Any]:
    own: asyncio.Future[Report] = asyncio.get_running_loop().create_future()
    work = asyncio.ensure_future(_act(own, think=think, fail=fail))
    return own, work


async def test_quick_computers_are_in_the_answer() -> None:
    own, work = _start(think=0)
    assert await _first_answer(own, work) is ALL


async def test_slow_computers_follow_later() -> None:
    own, work = _start(think=FOLLOW_WAIT * 4)
    assert await _first_answer(own, work) is OWN
    assert await work is ALL  # they still move, and the cog publishes that afterwards


async def test_a_failure_after_the_move_was_saved_still_answers_with_the_move() -> None:
    own, work = _start(think=0, fail=RuntimeError("a computer move could not be saved"))
    assert await _first_answer(own, work) is OWN
    with pytest.raises(RuntimeError):
        await work


async def test_a_refused_move_raises() -> None:
    own: asyncio.Future[Report] = asyncio.get_running_loop().create_future()

    async def refused() -> Report:
        raise StaleMove("That move is no longer available.")

    with pytest.raises(StaleMove):
        await _first_answer(own, asyncio.ensure_future(refused()))
