""" "I'm back" (the autopilot's button) is checked like every other control and answers only the
player who pressed it: on a live game it takes them off autopilot, on a cancelled one it says
the game is over and changes nothing; nothing is said to the channel either way."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from discordkit.clicks import BACK
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import alice_and_bob_playing, game_row, open_hand, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons


def autopilot(db: Path, user: int) -> bool:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT autopilot FROM seats WHERE user_id = ?", (user,)).fetchone()
    return bool(row[0])


def put_on_autopilot(db: Path, user: int) -> None:
    """As two turn timeouts in a row do (the turn timers are off in these tests)."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE seats SET autopilot = 1, timeouts = 2 WHERE user_id = ?", (user,))


async def hand_with_back(fake: FakeDiscord, user: int, channel: int, game_id: int) -> int:
    """The player's ephemeral hand from "My hand", which carries "I'm back" (on autopilot)."""
    hand = await open_hand(fake, user, channel)
    message = fake.message(hand)
    assert message is not None
    assert BACK.id(game_id) in {b.custom_id for b in buttons(message)}
    return hand


def public_texts(fake: FakeDiscord, channel: int) -> str:
    return "\n".join(str(m.get("content") or "") for m in fake.messages(channel))


async def test_back_answers_privately_on_a_live_game_and_a_cancelled_one(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    game_id = int(game_row(db)["id"])

    # A live game: bob is taken off autopilot, and only bob hears of it.
    put_on_autopilot(db, bob)
    hand = await hand_with_back(fake, bob, channel, game_id)
    rec = await fake.click(bob, hand, BACK.id(game_id))
    reply = await rec.wait_response()
    message = await rec.wait_message()
    assert fake.is_ephemeral(message), reply
    assert "Welcome back! Autopilot is off." in str(message.get("content"))
    assert not autopilot(db, bob)
    await quiet(fake)
    assert "Welcome back" not in public_texts(fake, channel)

    # The same button on a hand left from before the game was cancelled: the game is over,
    # said to bob alone; his seat is left as it was.
    put_on_autopilot(db, bob)
    hand = await hand_with_back(fake, bob, channel, game_id)
    cancel = await fake.slash(alice, channel, "grinch cancel")
    await cancel.wait_response()
    await quiet(fake)
    assert game_row(db)["status"] == "cancelled"
    rec = await fake.click(bob, hand, BACK.id(game_id))
    await rec.wait_response()
    message = await rec.wait_message()
    assert fake.is_ephemeral(message)
    assert str(message.get("content")) == "This game is over."
    assert autopilot(db, bob)
    await quiet(fake)
    assert "Welcome back" not in public_texts(fake, channel)
