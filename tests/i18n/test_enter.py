"""An interaction runs in its person's language, and never waits long for the database."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import i18n
from discordkit.locale import LOOKUP_BUDGET, enter
from service.languages import Languages


class SlowLanguages(Languages):
    def __init__(self, delay: float, answer: str) -> None:
        self.delay, self.answer, self.finished = delay, answer, False

    def cached_for_interaction(self, *args: Any, **kwargs: Any) -> str | None:
        return None  # nothing cached: every interaction reads

    async def for_interaction(self, *args: Any, **kwargs: Any) -> str:
        await asyncio.sleep(self.delay)
        self.finished = True
        return self.answer


class CachedLanguages(SlowLanguages):
    def cached_for_interaction(self, *args: Any, **kwargs: Any) -> str | None:
        return self.answer


def interaction(languages: Languages, locale: str) -> Any:
    return SimpleNamespace(
        client=SimpleNamespace(languages=languages),
        user=SimpleNamespace(id=7),
        locale=locale,
        guild_id=5,
        guild_locale="en-US",
    )


async def test_the_stored_choice_wins_when_it_comes_in_time() -> None:
    with i18n.using("en"):
        assert await enter(interaction(SlowLanguages(0.0, "et"), "ro")) == "et"
        assert i18n.current() == "et"


async def test_a_slow_database_does_not_hold_the_answer() -> None:
    slow = SlowLanguages(LOOKUP_BUDGET * 5, "et")
    started = time.monotonic()
    with i18n.using("en"):
        assert await enter(interaction(slow, "lt")) == "lt"  # Discord's locale meanwhile
    assert time.monotonic() - started < LOOKUP_BUDGET * 3
    await asyncio.sleep(LOOKUP_BUDGET * 5)
    assert slow.finished  # the read went on (it fills the cache for the next click)


async def test_a_cached_language_is_used_without_reading() -> None:
    cached = CachedLanguages(LOOKUP_BUDGET * 5, "et")
    started = time.monotonic()
    with i18n.using("en"):
        assert await enter(interaction(cached, "ro")) == "et"
        assert i18n.current() == "et"
    assert time.monotonic() - started < LOOKUP_BUDGET
    await asyncio.sleep(0)
    assert not cached.finished  # no read was started
