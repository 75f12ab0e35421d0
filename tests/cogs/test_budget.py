"""The acknowledgement budget counts from the interaction's creation, as Discord's window does:
a click that reached a busy process late is deferred sooner, at once when already past it."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

import discord

from discordkit.replies import waited, within_budget


def made_ago(seconds: float) -> int:
    """An interaction id (a snowflake) dated ``seconds`` before now."""
    millis = int((time.time() - seconds) * 1000) - discord.utils.DISCORD_EPOCH
    return millis << 22


class _Response:
    def __init__(self) -> None:
        self.deferred_at: float | None = None
        self.deferred = asyncio.Event()

    def is_done(self) -> bool:
        return self.deferred_at is not None

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        assert self.deferred_at is None, "an interaction is acknowledged once"
        self.deferred_at = time.monotonic()
        self.deferred.set()


class _Interaction:
    """What within_budget reads of a discord.Interaction."""

    def __init__(self, made_seconds_ago: float) -> None:
        self.id = made_ago(made_seconds_ago)
        self.response = _Response()


def _as_discord(fake: _Interaction) -> discord.Interaction[Any]:
    return cast("discord.Interaction[Any]", fake)


async def _deferral_after(made_seconds_ago: float, budget: float) -> float:
    """Seconds from within_budget's start to its deferral, for work that outlasts it."""
    fake, release = _Interaction(made_seconds_ago), asyncio.Event()

    async def work() -> str:
        await release.wait()
        return "done"

    started = time.monotonic()
    running = asyncio.create_task(within_budget(_as_discord(fake), work(), budget=budget))
    await asyncio.wait_for(fake.response.deferred.wait(), timeout=budget + 5)
    release.set()
    assert await running == "done"
    assert fake.response.deferred_at is not None
    return fake.response.deferred_at - started


def test_waited_is_the_age_by_the_id_within_discords_window() -> None:
    assert 0.9 <= waited(_as_discord(_Interaction(1.0))) < 2.0
    assert waited(_as_discord(_Interaction(-10.0))) == 0.0  # this clock behind Discord's
    assert waited(_as_discord(_Interaction(60.0))) == 0.0  # past any answer: a clock off


async def test_a_click_past_the_budget_is_deferred_at_once() -> None:
    # counted from the handler's start, the deferral would come after 2.9 s
    assert await _deferral_after(2.5, budget=2.9) < 1.5


async def test_a_late_click_has_only_the_rest_of_the_budget() -> None:
    after = await _deferral_after(2.0, budget=2.9)
    assert 0.85 <= after < 2.5  # about 0.9 s: 2.9 less the 2.0 s it already waited


async def test_a_clock_that_disagrees_leaves_the_whole_budget() -> None:
    assert await _deferral_after(-10.0, budget=0.3) >= 0.29
    assert await _deferral_after(60.0, budget=0.3) >= 0.29


async def test_quick_work_is_answered_without_a_deferral() -> None:
    fake = _Interaction(1.0)

    async def work() -> int:
        return 7

    assert await within_budget(_as_discord(fake), work()) == 7
    assert not fake.response.is_done()
