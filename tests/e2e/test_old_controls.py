"""A click on a hand whose newer version has not reached Discord yet (the bot busy, an edit
retried): the answer draws that hand as it is now, with the reason on top, instead of leaving
the player with the same old buttons to click again."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    alice_and_bob_playing,
    live_move_buttons,
    move_accepted,
    old_control_answer,
    open_hand,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import SERVER_ERROR
from tests.fakediscord.records import UPDATE_MESSAGE


async def test_an_old_hand_is_answered_with_the_hand_as_it_is(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    owner = next(u for u in (alice, bob) if live_move_buttons(fake.dm_messages(u)))
    found = live_move_buttons(fake.dm_messages(owner))
    assert found is not None
    dm_message, old_buttons = found

    # The player's DM cannot be edited for a while (Discord errors, retried with backoff);
    # they play from an ephemeral hand, then press a button of the DM, which is now old.
    broken = fake.faults.add(
        "PATCH", "/channels/*", SERVER_ERROR, channel_id=fake.dm_channels[owner], times=3
    )
    hand_id = await open_hand(fake, owner, channel)
    hand = fake.message(hand_id)
    hand_buttons = live_move_buttons([hand]) if hand else None
    assert hand_buttons is not None
    played = await fake.click(owner, hand_id, hand_buttons[1][0].custom_id or "")
    assert move_accepted(await played.wait_response())
    await fake.wait_for(lambda: broken.hits >= 1, timeout=10)  # the move was published
    count = action_count(db)
    old_id = old_buttons[0].custom_id or ""
    assert old_id in {b.custom_id for b in fake.buttons(int(dm_message["id"]))}

    old = await fake.click(owner, int(dm_message["id"]), old_id)
    answer = await old.wait_response()
    assert old_control_answer(answer) and not move_accepted(answer)
    assert answer.type == UPDATE_MESSAGE and answer.message_id == int(dm_message["id"])
    assert answer.content.splitlines()[1] == "⚠️ That move is no longer available."
    # The hand as it is: the old step's buttons are gone and any move button carries the
    # step after the move played from the ephemeral hand (there may be none: the game may
    # wait for the others now).
    step = int(old_id.split(":")[2])
    now = [b.custom_id or "" for b in fake.buttons(int(dm_message["id"]))]
    assert old_id not in now
    assert all(int(c.split(":")[2]) == step + 1 for c in now if c.startswith("g:")), now
    assert action_count(db) == count

    # Its buttons are the player's current ones: a click on one of them is a move.
    await quiet(fake)
    refreshed = live_move_buttons([fake.message(int(dm_message["id"])) or {}])
    if refreshed is not None:  # unless the game now waits for someone else
        again = await fake.click(owner, int(dm_message["id"]), refreshed[1][0].custom_id or "")
        assert move_accepted(await again.wait_response())
        assert action_count(db) > count
