"""Clicks on old hands. On a hand whose newer version has not reached Discord yet (the bot
busy, an edit retried) the answer draws that hand as it is now, with the reason on top, instead
of leaving the player with the same old buttons to click again. On an older hand DM that could
not be marked out of date (its edits refused: Discord caps the edits of messages older than an
hour) the click's answer marks it out of date; neither plays anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
from tests.fakediscord.components import Button
from tests.fakediscord.faults import EDIT_LIMIT, SERVER_ERROR
from tests.fakediscord.records import UPDATE_MESSAGE


async def _a_player_with_moves(
    fake: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> tuple[int, int, dict[str, Any], list[Button]]:
    """Alice and Bob (and a computer) playing: the channel, a player whose DM hand has move
    buttons, that DM and its buttons."""
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    owner = next(u for u in (alice, bob) if live_move_buttons(fake.dm_messages(u)))
    found = live_move_buttons(fake.dm_messages(owner))
    assert found is not None
    return channel, owner, *found


async def test_an_old_hand_is_answered_with_the_hand_as_it_is(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, owner, dm_message, old_buttons = await _a_player_with_moves(
        fake, bot_process, tmp_path
    )

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


async def test_a_click_on_an_old_hand_marks_it_out_of_date(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, owner, dm_message, old_buttons = await _a_player_with_moves(
        fake, bot_process, tmp_path
    )
    old_hand = int(dm_message["id"])

    # The DM can no longer be edited, for good; the player moves from an ephemeral hand, so
    # the bot brings their DM up to date with a new message and cannot retire the old one.
    capped = fake.faults.add("PATCH", "/channels/*", EDIT_LIMIT, message_id=old_hand)
    hand_id = await open_hand(fake, owner, channel)
    hand = live_move_buttons([fake.message(hand_id) or {}])
    assert hand is not None
    played = await fake.click(owner, hand_id, hand[1][0].custom_id or "")
    assert move_accepted(await played.wait_response())
    await quiet(fake)
    assert capped.hits >= 1
    assert int(fake.dm_messages(owner)[-1]["id"]) != old_hand  # the new hand
    old_id = old_buttons[0].custom_id or ""
    assert old_id in {b.custom_id for b in fake.buttons(old_hand)}  # still live on Discord
    count = action_count(db)

    old = await fake.click(owner, old_hand, old_id)
    answer = await old.wait_response()
    assert answer.type == UPDATE_MESSAGE and answer.message_id == old_hand
    assert "out of date" in answer.content
    assert live_move_buttons([fake.message(old_hand) or {}]) is None
    assert action_count(db) == count
    await quiet(fake)
    assert action_count(db) == count  # nothing was played for the click either
