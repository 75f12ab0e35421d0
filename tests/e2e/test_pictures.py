"""Pictures ride on messages the bot sends anyway: the turn's DM, each round, the result."""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path
from typing import Any

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    bot_env,
    game_row,
    live_move_buttons,
    open_game,
    open_hand,
    play_one_move,
    play_to_the_end,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CANNOT_DM

PNG = b"\x89PNG\r\n\x1a\n"
SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS
MAX_BYTES = 200_000
YOUR_TURN = "Your turn: play a card"


def _files(message: dict[str, Any]) -> list[str]:
    return [a["filename"] for a in message.get("attachments") or []]


def _pictured(fake: FakeDiscord, message_id: int) -> bool:
    """The message shows the hand's picture, and that alone."""
    return _files(fake.message(message_id) or {}) == ["hand.png"]


def _first_versions(fake: FakeDiscord, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [fake.message_versions(int(m["id"]))[0] for m in messages]


async def _hearts_game(
    fake: FakeDiscord, bot_process: BotProcess, tmp_path: Path, env: dict[str, str]
) -> int:
    fake.click_settle = 0.05
    await bot_process.start(env={**bot_env(tmp_path), **env})
    channel = fake.channel_named("games")
    alice = fake.user_named("alice")
    await open_game(fake, channel, alice, [], computers=1, game="hearts")
    await play_to_the_end(fake, [alice], random.Random(8), tmp_path / "bot.db", channel=channel)
    await quiet(fake)
    assert game_row(tmp_path / "bot.db")["status"] == "finished"
    return channel


async def test_turn_dms_rounds_and_result_carry_pictures(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = await _hearts_game(fake, bot_process, tmp_path, {})
    alice = fake.user_named("alice")

    sent = _first_versions(fake, fake.dm_messages(alice))
    notifying = [m for m in sent if not int(m.get("flags") or 0) & SILENT]
    assert notifying, "no DM notified alice of her turn"
    # Every version of the hand that shows a turn of alice's, sent or edited in place (by her
    # click's answer or a new turn), carries the picture of her cards; between her turns and
    # once retired the hand has none (the old picture would show cards she played).
    history = [fake.message_versions(int(m["id"])) for m in fake.dm_messages(alice)]
    versions = [v for message in history for v in message]
    turns = [v for v in versions if YOUR_TURN in json.dumps(v, ensure_ascii=False)]
    edited_turns = [v for message in history for v in message[1:] if v in turns]
    assert len(edited_turns) > len(notifying), "alice's turns were never shown in place"
    # A picture not drawn in time (a click's answer waits for it only briefly, a busy machine
    # may miss that) leaves that version text only, and the bot logs each such miss.
    without = [v for v in turns if _files(v) != ["hand.png"]]
    assert all(not _files(v) for v in without), [_files(v) for v in without]
    late = bot_process.log_text().count("not drawn in time: text only")
    assert len(without) <= late, f"{len(without)} turns without a picture, {late} logged late"
    assert len(without) < len(turns) / 2, f"{len(without)} of {len(turns)} turns without one"
    assert all(not _files(v) for v in versions if v not in turns)

    public = fake.messages(channel)
    rounds = [m for m in public if "round.png" in _files(m)]
    titles = [e.get("title", "") for m in rounds for e in m.get("embeds") or []]
    assert any("Hand 1" in t for t in titles), titles
    result = [m for m in public if "scores.png" in _files(m)]
    assert len(result) == 1
    assert any("result" in (e.get("title") or "") for e in result[0]["embeds"])
    pictures = [a for m in [*public, *sent] for a in m.get("attachments") or []]
    for attachment in pictures:
        data = fake.attachments[int(attachment["id"])]
        assert data.startswith(PNG) and len(data) < MAX_BYTES
    # Pictures never come as messages of their own: every message with one has text too.
    assert all(m.get("embeds") or m.get("content") for m in [*public, *sent] if _files(m))


async def test_a_server_that_turned_pictures_off_gets_text_only(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_process.start(env=bot_env(tmp_path))
    alice = fake.user_named("alice")  # has Manage Server
    channel = fake.channel_named("games")
    rec = await fake.slash(alice, channel, "settings", {"pictures": False})
    assert "Card pictures:** off" in (await rec.wait_message())["embeds"][0]["description"]
    await bot_process.stop()
    await _hearts_game(fake, bot_process, tmp_path, {})
    everything = [*fake.messages(channel), *fake.dm_messages(alice)]
    assert not [m for m in everything for v in fake.message_versions(int(m["id"])) if _files(v)]
    titles = [e.get("title") or "" for m in everything for e in m.get("embeds") or []]
    assert any("result" in t for t in titles)


async def test_my_hand_on_a_turn_carries_the_picture_for_a_player_whose_dms_are_closed(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """With her DMs closed, "My hand" is alice's only hand: each answer on her turn carries the
    picture of her cards, as the turn's DM would (drawn late, it is edited in)."""
    fake = fake_discord
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice = fake.user_named("alice")
    dm = fake.open_dm(alice)
    fake.faults.add("POST", "/channels/{channel_id}/messages", CANNOT_DM, channel_id=dm)
    await open_game(fake, channel, alice, [], computers=1, game="hearts")
    rng = random.Random(3)
    for _turn in range(5):
        await quiet(fake)
        hand_id = await open_hand(fake, alice, channel)
        hand = fake.message(hand_id)
        assert hand is not None and live_move_buttons([hand]), "not alice's turn"
        await fake.wait_for(partial(_pictured, fake, hand_id), timeout=10)
        assert all(_files(v) in ([], ["hand.png"]) for v in fake.message_versions(hand_id))
        assert await play_one_move(fake, [alice], rng, hand_messages={alice: hand_id})
    assert game_row(tmp_path / "bot.db")["status"] == "active"
    assert fake.dm_messages(alice) == []
