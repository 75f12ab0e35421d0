"""A computer player's level, end to end: chosen in the lobby's menu, kept by the seat across a
restart of the bot, shown beside its name, and the level its moves are thought at."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    add_computer,
    bot_env,
    find_button,
    game_row,
    play_one_move,
    play_to_the_end,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import message_text

# What the service logs (at DEBUG) before each computer move: the level the think call gets.
THINKS_HARD = "seat 2: the computer plays at hard"


def _levels(db: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name, is_computer, level FROM seats ORDER BY seat").fetchall()
    return [(str(name), int(computer), str(level)) for name, computer, level in rows]


async def test_a_hard_computer_added_in_the_lobby_stays_hard_after_a_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    env = {**bot_env(tmp_path), "LOG_LEVEL": "DEBUG"}
    await bot_process.start(env=env)
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    # The server's default is easy: the hard computer below is the menu's choice, not it.
    settings = await fake.slash(alice, channel, "settings", {"computer_level": "easy"})
    panel = await settings.wait_message()
    assert fake.is_ephemeral(panel) and "**Computer level:** easy" in message_text(panel)
    lobby = (await (await fake.slash(alice, channel, "grinch start")).wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])
    join = find_button(lobby, "Join").custom_id or ""
    await (await fake.click(bob, lobby_id, join)).wait_response()
    chosen = await (await add_computer(fake, alice, lobby_id, "hard")).wait_response()
    assert not chosen.ephemeral, chosen.content  # the lobby itself was updated
    assert "Robo Max 🤖 hard" in message_text(fake.message(lobby_id) or {})
    start = find_button(fake.message(lobby_id) or lobby, "Start").custom_id or ""
    await (await fake.click(alice, lobby_id, start)).wait_response()
    await quiet(fake)
    assert _levels(db) == [("alice", 0, "normal"), ("bob", 0, "normal"), ("Robo Max", 1, "hard")]

    rng = random.Random(11)
    for _ in range(3):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    bot_process.kill()
    before_restart = len(bot_process.log_text())
    await bot_process.start(env=env)
    assert _levels(db)[2] == ("Robo Max", 1, "hard")  # the seat kept its level

    def thought_hard_since_restart() -> bool:
        return THINKS_HARD in bot_process.log_text()[before_restart:]

    while not thought_hard_since_restart() and game_row(db)["status"] == "active":
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert thought_hard_since_restart(), "no computer move was thought at hard after the restart"
    assert "plays at easy" not in bot_process.log_text()  # nobody played at the default
    # The table, redrawn by the restarted bot, still names the computer with its level.
    table_id = int(game_row(db)["table_message_id"])
    assert "Robo Max 🤖 hard" in message_text(fake.message(table_id) or {})

    await play_to_the_end(fake, [alice, bob], rng, db, channel=channel)
    results = [t for t in map(message_text, fake.messages(channel)) if "— result" in t]
    assert results and "Robo Max 🤖 hard" in results[-1], results
    listing = await (await fake.slash(bob, channel, "history", {})).wait_message()
    assert "Robo Max 🤖 hard" in message_text(listing)
