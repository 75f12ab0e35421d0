"""The bot plays on either event loop (``EVENT_LOOP``): uvloop, the default where it is
installed, and asyncio's own, which every machine without uvloop runs on (Windows)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import action_count, alice_and_bob_playing, play_one_move, quiet
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize(("setting", "loop"), [("asyncio", "asyncio"), ("auto", "uvloop")])
async def test_moves_are_played_and_saved_on_either_loop(
    fake_discord: FakeDiscord,
    bot_process: BotProcess,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    setting: str,
    loop: str,
) -> None:
    monkeypatch.setenv("EVENT_LOOP", setting)  # the bot process inherits the environment
    fake, db = fake_discord, tmp_path / "bot.db"
    _, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    assert f"event loop: {loop}" in bot_process.log_text()
    rng = random.Random(11)
    before = action_count(db)
    for _ in range(4):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    await quiet(fake)
    assert action_count(db) >= before + 4  # each click saved (the computer's answers too)
