"""A click that reaches the bot late still gets its answer within Discord's 3 s.

Discord counts its window from the interaction's making; a click held up on the way (a
backlog, or a process too busy to read its socket) has less of it left when its handler
starts. The bot counts its 1.5 s budget from the interaction's id, so a click that arrives
1.7 s late is deferred at once and answered by an edit, never past the window.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    bot_env,
    find_button,
    game_row,
    open_game,
    play_one_move,
    quiet,
)
from tests.fakediscord import FakeDiscord, InteractionRecord

LATE = 1.7  # past the bot's 1.5 s budget, 1.3 s before Discord's window closes


def in_time(rec: InteractionRecord) -> bool:
    """Acknowledged inside Discord's window, and no answer came after it."""
    return rec.ack_latency is not None and rec.ack_latency < 3.0 and not rec.late_callbacks


async def test_a_click_that_arrives_late_is_deferred_at_once_and_answered(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    lobby = (await (await fake.slash(alice, channel, "grinch start")).wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])

    fake.delivery_delay = LATE
    join = await fake.click(bob, lobby_id, find_button(lobby, "Join").custom_id or "")
    assert (await join.wait_response()).type == DEFERRED_UPDATE
    await fake.wait_for(lambda: bool(join.edits), timeout=10)
    assert "bob" in str((fake.message(lobby_id) or {}).get("embeds")), "the join was not shown"
    assert in_time(join), join.ack_latency

    fake.delivery_delay = 0.0
    lobby = fake.message(lobby_id) or lobby
    start = await fake.click(alice, lobby_id, find_button(lobby, "Start").custom_id or "")
    await start.wait_response()
    await quiet(fake)

    fake.delivery_delay = LATE
    rng = random.Random(3)
    late_move = await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert late_move is not None and late_move.response is not None
    assert late_move.response.type == DEFERRED_UPDATE
    assert in_time(late_move), late_move.ack_latency

    # The same kind of click on time is answered by its update (or deferred only once its
    # work took the whole budget, on a machine that busy).
    fake.delivery_delay = 0.0
    on_time = await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert on_time is not None and on_time.response is not None
    assert on_time.ack_latency is not None
    assert on_time.response.type == UPDATE_MESSAGE or on_time.ack_latency >= 1.4
    assert in_time(on_time)


async def test_a_game_opened_with_every_click_late_starts(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """The command, the join, the computer added and the start each arrive late, so each is
    deferred and its lobby shown by an edit: the driver's ``open_game`` waits for what the
    lobby shows (each click's answer alone is a deferral, the lobby not yet redrawn)."""
    fake = fake_discord
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    fake.delivery_delay = LATE
    await open_game(fake, channel, alice, [bob], 1)
    row = game_row(tmp_path / "bot.db")
    assert (row["game"], row["status"]) == ("grinch", "active")
    late = list(fake.interactions.values())
    assert len(late) == 4 and all(in_time(rec) for rec in late)
