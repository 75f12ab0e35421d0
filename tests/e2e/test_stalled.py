"""A process that died between a player's saved move and the computer's answer leaves no game
waiting: a bot process still running on the same PostgreSQL database plays the computer's move
within seconds and shows it, and the game goes on.

The process that dies is this test's own service on the bot's database: it records a player's
move, as the killed process had, and never plays the computer seat that is due then (its clock
runs a grace period behind, so the move is overdue at once). Needs PostgreSQL, like
tests/e2e/test_shards.py (skipped without it; ``REQUIRE_POSTGRES=1`` makes that a failure).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest

from db.opening import open_store
from service.games import RESUME_GRACE
from service.reports import Loaded
from tests.e2e.driver import open_game, quiet
from tests.e2e.ledger import Database, Ledger, play
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess
from tests.service.test_recovery import CrashesBeforeComputers

pytestmark = pytest.mark.timeout(120)


def _computer_due(loaded: Loaded) -> bool:
    return any(loaded.seats[s].is_computer for s in loaded.game.to_act(loaded.state))


async def test_a_running_bot_plays_the_move_a_dead_process_left_undone(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake, ledger = fake_discord, Ledger()
    fake.click_settle = 0.1
    channel, alice = fake.channel_named("games"), fake.user_named("alice")
    bot = BotProcess(fake, tmp_path / "bot.log")
    db = Database(pg_database)
    db.watch_shown(fake)
    store = await open_store(pg_database)
    dead = CrashesBeforeComputers(store, turn_timeout=0, clock=lambda: time.time() - RESUME_GRACE)
    try:
        await bot.start(
            env={
                "DATABASE_URL": pg_database,
                "DATABASE_PATH": str(tmp_path / "bot.db"),  # its heartbeat file only
                "TURN_TIMEOUT_SECONDS": "0",
            }
        )
        await open_game(fake, channel, alice, [], computers=1, game="hearts")
        [game_id] = await db.statuses()
        loaded = await dead.load(game_id)
        # When the computer leads, the bot plays its opening card first; its search takes up
        # to 0.12 s and more on a busy machine, which quiet() can take for the end of it.
        deadline = time.monotonic() + 10
        while _computer_due(loaded):
            assert time.monotonic() < deadline, "the bot did not play the computer's lead"
            await asyncio.sleep(0.05)
            loaded = await dead.load(game_id)
        rng = random.Random(5)
        for _ in range(30):  # the other process: alice's moves, until the computer is due
            assert not _computer_due(loaded)
            seat = loaded.seat_of(alice)
            assert seat is not None
            action = rng.choice(loaded.game.legal_actions(loaded.state, seat.seat))
            loaded = (await dead.act(game_id, alice, seat.step, str(action))).after
            if _computer_due(loaded):
                break
        else:
            pytest.fail("the computer was never due after alice's move")
        left = loaded.row.version  # ... and that process is gone

        deadline = time.monotonic() + 20  # the bot looks every 5 s
        while (await store.games.game(game_id)).version == left:
            assert time.monotonic() < deadline, "nobody played the overdue computer move"
            await asyncio.sleep(0.1)
        actions = await store.games.actions(game_id)
        assert actions[left].actor == "computer"  # the move after the one left undone
        await quiet(fake)  # shown: the table and alice's hand at the new version
        before = sum(ledger.acked.values())
        await play(fake, [alice], rng, ledger, until=db.all_over, moves=2)
        assert sum(ledger.acked.values()) > before, "alice could not move after the resume"
        assert "waited" in bot.log_text()  # the bot says it finished another's work
    except BaseException:
        sys.stdout.write(f"\n---- bot log ----\n{bot.log_text()[-6000:]}\n")
        raise
    finally:
        await bot.stop()
        await db.close()
        await store.close()
