"""What players get in their DMs: one ping per turn at most, never a stale hand to play from."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    game_row,
    live_move_buttons,
    open_hand,
    play_one_move,
    quiet,
)
from tests.fakediscord import FakeDiscord

SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS
OUT_OF_DATE = "out of date"


def _notifying(fake: FakeDiscord, user: int) -> list[dict[str, Any]]:
    """The DMs that pinged ``user``: messages created without the silent flag."""
    first = [fake.message_versions(int(m["id"]))[0] for m in fake.dm_messages(user)]
    return [m for m in first if not int(m.get("flags") or 0) & SILENT]


def _steps(message: dict[str, Any]) -> set[int]:
    """The seat steps carried by a message's live move buttons (``g:<game>:<step>:...``)."""
    found = live_move_buttons([message])
    if found is None:
        return set()
    return {int((b.custom_id or "").split(":")[2]) for b in found[1] if b.custom_id}


async def test_players_who_keep_playing_are_pinged_once_and_never_hold_a_stale_hand(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    _, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=0, settle=0.05
    )
    rng = random.Random(4)
    for _ in range(24):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    await quiet(fake)
    assert game_row(db)["status"] == "active"
    for user in (alice, bob):
        # Both clicked within the last minute with their hand as their newest DM: every new
        # turn updated that hand in place; only the game's start pinged them.
        assert len(_notifying(fake, user)) == 1, [m.get("content") for m in _notifying(fake, user)]
        dms = fake.dm_messages(user)
        assert all(not _steps(m) or m is dms[-1] for m in dms), "an older DM kept live buttons"


async def test_a_move_from_my_hand_brings_the_dm_up_to_date_too(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=1, settle=0.05
    )
    rng = random.Random(9)
    for _ in range(12):  # alice plays from ephemeral hands although her DMs are open
        hand = await open_hand(fake, alice, channel)
        if not _steps(fake.message(hand) or {}):
            assert await play_one_move(fake, [bob], rng, hand_messages={})
            continue
        assert await play_one_move(fake, [alice], rng, hand_messages={alice: hand})
    await quiet(fake)
    with sqlite3.connect(db) as conn:
        (step,) = conn.execute(
            "SELECT step FROM seats WHERE game_id = ? AND user_id = ?",
            (game_row(db)["id"], alice),
        ).fetchone()
    dm = fake.dm_messages(alice)[-1]
    assert _steps(dm) in (set(), {step}), "alice's DM offers moves of an old step"
    assert step > 0
