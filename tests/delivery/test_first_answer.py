"""What a move's answer shows: the game after the computers' answers when they come quickly,
else after the player's move alone; a move that was not saved raises."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from delivery.moves import FOLLOW_WAIT, first_answer
from service.errors import StaleMove
from service.reports import Acting, Report

OWN = cast(Report, "the player's move")
ALL = cast(Report, "with the computers' answers")


def _start(think: float, fail: Exception | None = None) -> Acting:
    async def play(saved: asyncio.Future[Report]) -> Report:
        await asyncio.sleep(0)
        saved.set_result(OWN)
        await asyncio.sleep(think)
        if fail is not None:
            raise fail
        return ALL

    return Acting.start(play)


async def test_quick_computers_are_in_the_answer() -> None:
    assert await first_answer(_start(think=0)) is ALL


async def test_slow_computers_follow_later() -> None:
    acting = _start(think=FOLLOW_WAIT * 4)
    assert await first_answer(acting) is OWN
    assert await acting is ALL  # they still move, and the desk publishes that afterwards


async def test_a_failure_after_the_move_was_saved_still_answers_with_the_move() -> None:
    acting = _start(think=0, fail=RuntimeError("a computer move could not be saved"))
    assert await first_answer(acting) is OWN
    with pytest.raises(RuntimeError):
        await acting.settled


async def test_a_refused_move_raises_in_both_stages() -> None:
    async def refused(_saved: asyncio.Future[Report]) -> Report:
        raise StaleMove("That move is no longer available.")

    acting = Acting.start(refused)
    with pytest.raises(StaleMove):
        await first_answer(acting)
    with pytest.raises(StaleMove):
        await acting.settled


async def test_no_move_saved_still_gives_the_first_stage() -> None:
    """A call that saved no move of the player's (it only took them off autopilot) still
    gives its report as the first stage."""

    class Back:
        def copy(self) -> Back:
            return self

    back = cast(Report, Back())

    async def off_autopilot(_saved: asyncio.Future[Report]) -> Report:
        return back

    acting = Acting.start(off_autopilot)
    assert await acting.saved is back
    assert await first_answer(acting) is back
