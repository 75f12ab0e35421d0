"""An older hand DM that could not be marked out of date (its edits refused: Discord caps the
edits of messages older than an hour) keeps its buttons; a click on one of them marks it out
of date then, as the click's own answer, and plays nothing."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    alice_and_bob_playing,
    live_move_buttons,
    move_accepted,
    open_hand,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import EDIT_LIMIT
from tests.fakediscord.records import UPDATE_MESSAGE


async def test_a_click_on_an_old_hand_marks_it_out_of_date(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    owner = next(u for u in (alice, bob) if live_move_buttons(fake.dm_messages(u)))
    found = live_move_buttons(fake.dm_messages(owner))
    assert found is not None
    dm_message, old_buttons = found
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
