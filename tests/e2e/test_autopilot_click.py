"""A player on autopilot who clicks a button of a step the computer already played for them
is taken off autopilot and told their move was not played, on their hand as it is now."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    OLD_CONTROL,
    UPDATE_MESSAGE,
    action_count,
    alice_and_bob_playing,
    live_move_buttons,
    move_accepted,
    quiet,
)
from tests.fakediscord import FakeDiscord


async def test_an_old_step_clicked_on_autopilot_says_the_move_was_not_played(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    _, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    await quiet(fake)
    found = live_move_buttons(fake.dm_messages(alice)) or live_move_buttons(fake.dm_messages(bob))
    assert found is not None
    message, options = found
    user = alice if message in fake.dm_messages(alice) else bob
    # As if the computer had played this step for them while their DM's edit still waited
    # for its rate-limit slot: the seat is a step on and on autopilot, the DM shows the old one.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE seats SET step = step + 1, autopilot = 1 WHERE user_id = ?", (user,))
    before = action_count(db)

    rec = await fake.click(user, int(message["id"]), options[0].custom_id or "")
    reply = await rec.wait_response()
    assert reply.type == UPDATE_MESSAGE  # the hand itself, redrawn as it is now
    assert OLD_CONTROL in reply.content
    assert not move_accepted(reply)
    await quiet(fake)
    assert action_count(db) == before  # nothing played
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT autopilot FROM seats WHERE user_id = ?", (user,)).fetchone()
    assert row[0] == 0  # and they are back
