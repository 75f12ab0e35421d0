"""Forged and stale input against a live game: always answered, never a change, never a crash.

Hypothesis makes custom_ids (ours with another game's id, ids past every bound, steps no seat
has, unknown prefixes, over-long and unicode ones) and select values; a player and a
stranger send them with the fake's click/select at a DM and at the table. Each must be
answered within Discord's 3 s, the game's log, version and snapshot must stay as they were,
and the bot's log must show no traceback and no ERROR. Stale or unknown slash commands get
"The bot was updated...".
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.e2e.chaos import clean_log, db_read, send_random_move
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    bot_env,
    channel_message_with_button,
    game_row,
    live_controls,
    open_game,
    quiet,
)
from tests.fakediscord import FakeDiscord, InteractionRecord

EXAMPLES = 200
UPDATED = "The bot was updated a moment ago; please try again in a minute."
ACTION = st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=12)
BIG = st.integers(10**15, 10**40)  # past the digits our templates accept
STEP = st.integers(10**6, 10**9 - 1)  # our template's digits, but no seat gets this far


def forged_ids(game_id: int, legal: list[str]) -> st.SearchStrategy[str]:
    other = st.integers(0, 10**15 - 1).filter(lambda g: g != game_id) | BIG
    ours = st.sampled_from(["g", "gs", "hand", "back", "lobby"])

    def ours_for(prefix: str, game: int, step: int, action: str) -> str:
        if prefix == "g":
            return f"g:{game}:{step}:{action}"
        if prefix == "gs":
            return f"gs:{game}:{step}:{step % 100}"
        if prefix == "lobby":
            return f"lobby:{game}:{action}"
        return f"{prefix}:{game}"

    wrong_game = st.builds(ours_for, ours, other, st.integers(0, 10**12) | BIG, ACTION)
    actions = st.sampled_from(legal) | ACTION  # a legal move with a step no seat has
    stale_step = st.builds(ours_for, st.sampled_from(["g", "gs"]), st.just(game_id), STEP, actions)
    anything = st.text(max_size=100) | st.text(min_size=101, max_size=400)
    prefixed = st.builds(lambda p, t: f"{p}:{t}", ours | st.text(max_size=8), st.text(max_size=60))
    return wrong_game | stale_step | anything | prefixed


def game_state(db: Path, game_id: int) -> tuple[Any, ...]:
    (row,) = db_read(db, "SELECT version, snapshot, status FROM games WHERE id = ?", game_id)
    log = db_read(db, "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", game_id)
    return (*row, tuple(log))


async def test_forged_clicks_and_values_are_answered_and_change_nothing(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.0
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    channel = fake.channel_named("games")
    await bot_process.start(env=bot_env(tmp_path))
    await open_game(fake, channel, alice, [bob], 1, game="grinch")
    game_id = int(game_row(db)["id"])
    rng = random.Random(5)
    moves = 0  # real moves first: steps above 0, and bob due (his moves are forged below)
    while moves < 3 or not live_controls(fake.dm_messages(bob)[-1])[0]:
        move = await send_random_move(fake, [alice, bob], rng)
        assert move is not None and moves < 30
        await move.rec.wait_response()
        await quiet(fake)
        moves += 1
    before = game_state(db, game_id)
    bob_dm = int(fake.dm_messages(bob)[-1]["id"])
    legal = sorted(
        (b.custom_id or "").split(":", 3)[3] for b in live_controls(fake.dm_messages(bob)[-1])[0]
    )
    assert legal
    table = int(channel_message_with_button(fake, channel, "My hand")["id"])
    loop = asyncio.get_running_loop()
    sent: list[InteractionRecord] = []

    async def forge(user: int, message: int, custom_id: str, values: list[str] | None) -> None:
        if values is None:
            rec = await fake.click(user, message, custom_id, force=True)
        else:
            rec = await fake.select(user, message, custom_id, values, force=True)
        sent.append(rec)
        await rec.wait_response(timeout=3.5)
        assert rec.ack_latency is not None and rec.ack_latency < 3, custom_id

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],  # no shrinking: each try may wait 3.5 s
    )
    @given(
        custom_id=forged_ids(game_id, legal),
        who=st.sampled_from(["player at their DM", "player at the table", "stranger"]),
        values=st.none() | st.lists(st.text(max_size=120), max_size=3),
    )
    def property(custom_id: str, who: str, values: list[str] | None) -> None:
        user, message = {
            "player at their DM": (bob, bob_dm),
            "player at the table": (bob, table),
            "stranger": (carol, table),
        }[who]
        done = asyncio.run_coroutine_threadsafe(forge(user, message, custom_id, values), loop)
        done.result(timeout=10)
        assert game_state(db, game_id) == before, custom_id

    await asyncio.to_thread(property)
    await quiet(fake)
    assert len(sent) >= EXAMPLES
    assert game_state(db, game_id) == before
    assert clean_log(bot_process.log_text()) == []
    # The game still plays.
    move = await send_random_move(fake, [alice, bob], rng)
    assert move is not None
    await move.rec.wait_response()
    assert move.acknowledged
    slowest = max(r.ack_latency or 0 for r in sent)
    print(f"{len(sent)} forged interactions, slowest answer {slowest:.2f} s")


async def test_stale_and_unknown_commands_say_the_bot_was_updated(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.user_named("alice")
    channel = fake.channel_named("games")
    await bot_process.start(env=bot_env(tmp_path))
    sub = [{"name": "teleport", "type": 1, "options": []}]
    for name, options in (("teleport", []), ("grinch", sub), ("scores", sub)):
        rec = await fake.unregistered_slash(alice, channel, name, options)
        reply = await rec.wait_response(timeout=3.5)
        assert rec.ack_latency is not None and rec.ack_latency < 3
        await fake.wait_for(rec.texts, timeout=5)
        assert [t for t in rec.texts() if t] == [UPDATED], (name, rec.texts(), reply)
        assert reply.ephemeral
    assert clean_log(bot_process.log_text()) == []
