"""SIGKILLs at random moments in every game: nothing acknowledged is lost, nothing doubled.

Each game is played by clicking (buttons and menus at random) while the bot is killed
``KILLS`` times: right after a move's commit (the moment the action log grows), after a random
delay from the click (before or after the answer, during the computer's thinking or the
publishing), or while it publishes. After every restart no due player is left without live
buttons. The game is then finished by the computers (a one-second turn timer puts the
players on autopilot), and the log must hold every acknowledged move exactly once, nothing
that was never sent, and replay from the seed to the stored snapshot.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from engine import GAMES as ENGINES
from tests.e2e.chaos import (
    Sent,
    check_log,
    check_replay,
    clean_log,
    db_read,
    finishes,
    send_random_move,
    stranded,
    wait_until,
)
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import action_count, bot_env, game_row, open_game, quiet
from tests.fakediscord import FakeDiscord

KILLS = 8  # per game: 32 over the four games
GAMES = {  # game: (humans, computers)
    "grinch": (["alice", "bob"], 1),
    "gnome": (["alice"], 2),
    "hearts": (["alice"], 1),
    "ten": (["alice"], 1),
}
MODES = ("after-commit", "after-commit", "random-delay", "publishing")


async def _kill_once(
    fake: FakeDiscord, bot: BotProcess, db: Path, users: list[int], rng: random.Random
) -> tuple[str, Sent | None]:
    """Click, then SIGKILL at a moment chosen by ``mode``."""
    mode = rng.choice(MODES)
    before = action_count(db)
    sent = await send_random_move(fake, users, rng)
    if sent is not None and mode == "after-commit":
        await wait_until(lambda: action_count(db) > before, timeout=5)
    elif sent is not None and mode == "random-delay":
        await asyncio.sleep(rng.uniform(0.0, 0.6))
    elif sent is not None:
        await sent.rec.wait_response(timeout=5)
        await asyncio.sleep(rng.uniform(0.0, 0.3))
    bot.kill()
    return mode, sent


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_killed_at_random_moments_nothing_lost(
    name: str, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    fake.click_settle = 0.05
    humans, computers = GAMES[name]
    users = [fake.user_named(n) for n in humans]
    await bot.start(env=bot_env(tmp_path))
    await open_game(fake, fake.channel_named("games"), users[0], users[1:], computers, game=name)
    game_id = int(game_row(db)["id"])
    rng = random.Random(f"kills:{name}")
    sent: list[Sent] = []
    modes: list[str] = []
    while len(modes) < KILLS and game_row(db)["status"] == "active":
        for _ in range(rng.randrange(2)):  # a plain move or none between kills
            move = await send_random_move(fake, users, rng)
            if move is not None:
                sent.append(move)
                await move.rec.wait_response()
                await quiet(fake)
        mode, move = await _kill_once(fake, bot, db, users, rng)
        modes.append(mode)
        if move is not None:
            sent.append(move)
        await bot.start(env=bot_env(tmp_path))
        await quiet(fake)
        assert stranded(fake, db, game_id) == [], f"after kill #{len(modes)} ({mode})"
    assert len(modes) == KILLS, f"the game ended after {len(modes)} kills"
    assert any(m.acknowledged for m in sent) and modes.count("after-commit") >= 2

    # The computers finish it: a 1 s timer, started by one more move, puts players on autopilot.
    bot.kill()
    await bot.start(env=bot_env(tmp_path, timeout="1"))
    await quiet(fake)
    move = await send_random_move(fake, users, rng)
    assert move is not None
    sent.append(move)
    await move.rec.wait_response()
    finished = await finishes(db, game_id)
    assert finished, "the computers did not finish the game"
    await quiet(fake)

    check_log(db, game_id, sent)
    assert check_replay(db, game_id) == "finished"
    assert clean_log(bot.log_text()) == []
    acked = sum(m.acknowledged for m in sent)
    print(f"{name}: {len(modes)} kills {modes}, {len(sent)} moves sent, {acked} acknowledged")


def _computer_due(db: Path, game_id: int) -> bool:
    (name, snapshot), *_ = db_read(db, "SELECT game, snapshot FROM games WHERE id = ?", game_id)
    due = ENGINES[name].to_act(ENGINES[name].from_json(snapshot))
    computers = db_read(db, "SELECT seat FROM seats WHERE game_id = ? AND is_computer", game_id)
    return any(seat in due for (seat,) in computers)


async def test_kill_right_after_commit_then_computer_moves_on_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """Hearts: the human's move commits, the bot dies before the computer answers (it thinks
    in a thread); after the restart the computer moves by itself."""
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    fake.click_settle = 0.05
    alice = fake.user_named("alice")
    await bot.start(env=bot_env(tmp_path))
    await open_game(fake, fake.channel_named("games"), alice, [], 1, game="hearts")
    game_id = int(game_row(db)["id"])
    rng = random.Random(1)
    started = time.monotonic()
    while time.monotonic() - started < 30:
        before = action_count(db)
        move = await send_random_move(fake, [alice], rng)
        assert move is not None

        def committed(n: int = before) -> bool:
            return action_count(db) > n

        await wait_until(committed, timeout=5)
        bot.kill()
        if action_count(db) == before + 1 and _computer_due(db, game_id):
            break  # the human's move is in, the computer's answer is not
        await bot.start(env=bot_env(tmp_path))
        await quiet(fake)
    else:
        pytest.fail("never caught the moment between the human's and the computer's move")
    count = action_count(db)
    await bot.start(env=bot_env(tmp_path))
    assert await wait_until(lambda: action_count(db) > count, timeout=10, step=0.05)
    await quiet(fake)
    assert stranded(fake, db, game_id) == []
    assert check_replay(db, game_id) == "active"
