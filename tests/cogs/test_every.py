"""discordkit.every: a cog's background job keeps its rounds through a failure, until stopped."""

from __future__ import annotations

import asyncio

import pytest

from discordkit.every import Every


async def test_a_failed_round_is_logged_and_the_next_one_comes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rounds: list[float] = []

    async def job(now: float) -> None:
        rounds.append(now)
        if len(rounds) == 1:
            raise RuntimeError("the first round fails")

    every = Every(0, job, name="testing rounds")
    every.start()
    while len(rounds) < 3:
        await asyncio.sleep(0)
    await every.stop()
    assert "testing rounds failed" in caplog.text
    done = len(rounds)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(rounds) == done  # stopped: no more rounds
    assert rounds == sorted(rounds)  # each round is given the time it runs at


async def test_stopping_what_never_started_does_nothing() -> None:
    async def job(now: float) -> None:
        raise AssertionError("never run")

    await Every(60, job, name="idle").stop()
