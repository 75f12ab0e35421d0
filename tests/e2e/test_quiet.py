"""``driver.quiet``, the wait most e2e steps end with: the short pause applies only while the
bot's own database says no automatic move is still to come."""

from __future__ import annotations

import time
from pathlib import Path

from db.opening import open_store
from tests.e2e.driver import SHORT_IDLE, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import no_automatic_move_due


async def test_a_move_still_to_come_is_read_from_the_bots_own_schema(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    assert not no_automatic_move_due(database)  # no database: unknown, so no short pause
    store = await open_store(database)
    try:
        lobby = await store.lobbies.create_lobby(
            guild_id=1, channel_id=2, game="hearts", host_id=7, host_name="a", seed=1
        )
        assert no_automatic_move_due(database)  # a lobby waits for no move
        await store.play.start(lobby.id, "{}", {0: None}, resume_after=time.time())
        assert not no_automatic_move_due(database)  # a computer's move is due
        await store.timers.stop_resuming(lobby.id, 0)
        assert no_automatic_move_due(database)
    finally:
        await store.close()


async def test_the_short_pause_needs_every_idle_check() -> None:
    fake = FakeDiscord()
    idle = 0.6
    fake.idle_checks.append(lambda: False)
    started = time.monotonic()
    await quiet(fake, idle=idle, timeout=10)
    assert time.monotonic() - started >= idle  # the long pause, however quiet the bot is

    fake.idle_checks[:] = [lambda: True]
    fake.settle_checks.append(lambda: True)
    started = time.monotonic()
    await quiet(fake, idle=30, timeout=10)  # would raise after 10 s without the short pause
    assert time.monotonic() - started >= SHORT_IDLE


async def test_no_idle_check_means_the_long_pause() -> None:
    fake = FakeDiscord()
    started = time.monotonic()
    await quiet(fake, idle=0.6, timeout=10)
    assert time.monotonic() - started >= 0.6


async def test_an_unsettled_bot_is_never_called_done_early() -> None:
    fake = FakeDiscord()
    fake.idle_checks.append(lambda: True)
    fake.settle_checks.append(lambda: False)
    try:
        await quiet(fake, idle=0.2, timeout=0.8)
    except TimeoutError:
        return
    raise AssertionError("quiet returned although a settle check failed")
