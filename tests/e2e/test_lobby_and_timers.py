"""Lobby answers, cancelling, and turn timers that survive a restart, end to end."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import add_computer, bot_env, computer_menu, find_button, game_row, quiet
from tests.fakediscord import FakeDiscord


async def _press(fake: FakeDiscord, user: int, message_id: int, label: str) -> str:
    """Press a lobby button; return the ephemeral answer, or "" if the lobby was updated."""
    message = fake.message(message_id)
    assert message is not None
    rec = await fake.click(user, message_id, find_button(message, label).custom_id or "")
    reply = await rec.wait_response()
    if reply.ephemeral:
        return reply.content
    if reply.deferred:  # Start acknowledges first, then answers
        await quiet(fake)
        answers = [f["content"] for f in rec.followups() if fake.is_ephemeral(f)]
        return answers[0] if answers else ""
    return ""


async def _add_computer(fake: FakeDiscord, user: int, message_id: int, level: str) -> str:
    """Choose a level in the lobby's computer menu; the ephemeral answer, or "" if the lobby
    was updated."""
    reply = await (await add_computer(fake, user, message_id, level)).wait_response()
    return reply.content if reply.ephemeral else ""


async def test_lobby_answers_and_cancel_rights(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    rec = await fake.slash(bob, channel, "grinch start")
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])
    assert "Start" in [b.label for b in fake.buttons(lobby_id) if b.disabled]  # 1 of 2 seated
    assert await _press(fake, bob, lobby_id, "Join") == "You are already in this game."
    assert (await _add_computer(fake, carol, lobby_id, "hard")).startswith("Join the")
    assert await _press(fake, carol, lobby_id, "Join") == ""
    assert await _press(fake, carol, lobby_id, "Start") == "Only the host can start the game."
    for level in ("easy", "normal", "hard", "easy"):
        assert await _add_computer(fake, bob, lobby_id, level) == ""
    assert all(b.disabled for b in fake.buttons(lobby_id) if b.label == "Join")  # 6 of 6: full
    menu = computer_menu(fake.message(lobby_id) or {})
    assert menu is not None and menu.disabled  # full: the menu offers no more seats
    text = "\n".join(str(e) for e in (fake.message(lobby_id) or {}).get("embeds", []))
    assert "6 seated" in text
    assert "Robo Max 🤖 easy" in text and "Unit Lou 🤖 hard" in text, text
    # A player who is not the host and has no Manage Server cannot cancel; alice can.
    refused = await fake.slash(carol, channel, "grinch cancel")
    assert "Only the host" in (await refused.wait_message())["content"]
    assert await _press(fake, alice, lobby_id, "Cancel") == ""
    assert "cancelled" in ((fake.message(lobby_id) or {}).get("content") or "")
    assert game_row(tmp_path / "bot.db")["status"] == "cancelled"
    # The channel is free again; a game with too few players cannot start.
    rec = await fake.slash(carol, channel, "grinch start")
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    assert all(b.disabled for b in fake.buttons(int(lobby["id"])) if b.label == "Start")
    for latency in fake.ack_latencies():
        assert latency < 3.0


async def test_turn_timer_plays_for_absent_players_and_survives_a_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path, timeout="2"))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    rec = await fake.slash(alice, channel, "grinch start")
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])
    await _press(fake, bob, lobby_id, "Join")
    await _add_computer(fake, alice, lobby_id, "normal")
    await _press(fake, alice, lobby_id, "Start")
    await quiet(fake)
    # Restart before anyone's timer ran out: the stored deadlines are re-armed.
    bot_process.kill()
    await bot_process.start(env=bot_env(tmp_path, timeout="2"))

    def timed_out() -> bool:
        return any("ran out of time" in t for t in fake.public_text())

    await fake.wait_for(timed_out, timeout=15)

    def on_autopilot() -> bool:
        return any("autopilot" in t for t in fake.public_text())

    await fake.wait_for(on_autopilot, timeout=30)
    await quiet(fake)
    with sqlite3.connect(db) as conn:
        actors = {r[0] for r in conn.execute("SELECT actor FROM actions")}
        autopilot = conn.execute("SELECT user_id FROM seats WHERE autopilot = 1").fetchall()
    assert "timeout" in actors
    assert autopilot
    # The player on autopilot comes back with the button in their DM.
    user = int(autopilot[0][0])
    back = None
    for message in reversed(fake.dm_messages(user)):
        labels = [b.label for b in fake.buttons(int(message["id"]))]
        if "I'm back" in labels:
            back = message
            break
    if game_row(db)["status"] == "active":
        dms = [fake.buttons(int(m["id"])) for m in fake.dm_messages(user)]
        assert back is not None, f"a player on autopilot is offered the way back {dms}"
        rec = await fake.click(user, int(back["id"]), find_button(back, "I'm back").custom_id or "")
        answer = await rec.wait_message()
        assert "Welcome back" in answer["content"]
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT autopilot FROM seats WHERE user_id = ?", (user,)).fetchone()
        assert row[0] == 0
        await quiet(fake)
        latest = fake.dm_messages(user)[-1]
        assert "I'm back" not in [b.label for b in fake.buttons(int(latest["id"]))]
