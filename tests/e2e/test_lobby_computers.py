"""A lobby's computer players removed and given another level through the real bot: the lobby
message shows each change, a stranger and an old menu are answered privately with nothing
changed, a double click removes one computer, and the game starts with the seats and levels
the lobby showed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import aiohttp

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    add_computer,
    bot_env,
    computers_choice,
    find_button,
    game_row,
    quiet,
)
from tests.e2e.live import Client, connect, live_env, login
from tests.fakediscord import FakeDiscord, Reply
from tests.fakediscord.components import message_text
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.records import LAUNCH_ACTIVITY

# A started game's lobby message has no menu any more; were it still shown, the lobby says so.
OLD_MENU = ("That move is no longer available.", "This game has already started.")


def _seats(db: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name, is_computer, level FROM seats ORDER BY seat").fetchall()
    return [(str(name), int(computer), str(level)) for name, computer, level in rows]


async def _choose(
    fake: FakeDiscord, user: int, lobby_id: int, choice: tuple[str, str], *, old: bool = False
) -> Reply:
    """``user`` chooses ``choice`` (:func:`computers_choice`) in the lobby's computers menu;
    ``old``: as a client still showing a menu the lobby no longer has."""
    custom_id, value = choice
    return await (await fake.select(user, lobby_id, custom_id, [value], force=old)).wait_response()


async def test_computers_removed_and_relevelled_in_the_lobby(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    lobby = (await (await fake.slash(alice, channel, "grinch start")).wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])
    await (
        await fake.click(bob, lobby_id, find_button(lobby, "Join").custom_id or "")
    ).wait_response()
    for user in (alice, bob):  # anyone seated adds computers: Robo Max, then Cindy-Bot
        await (await add_computer(fake, user, lobby_id, "normal")).wait_response()

    def shown() -> str:
        return message_text(fake.message(lobby_id) or {})

    assert "Robo Max 🤖 normal" in shown() and "Cindy-Bot 🤖 normal" in shown()
    everyone = [
        ("alice", 0, "normal"),
        ("bob", 0, "normal"),
        ("Robo Max", 1, "normal"),
        ("Cindy-Bot", 1, "normal"),
    ]
    assert _seats(db) == everyone

    # A stranger's choice is answered privately; nothing changes.
    lobby = fake.message(lobby_id) or {}
    remove_robo = computers_choice(lobby, "Remove Robo Max")
    refused = await _choose(fake, carol, lobby_id, remove_robo)
    assert refused.ephemeral and refused.content.startswith("Join the game first"), refused
    assert _seats(db) == everyone

    # Bob makes Cindy-Bot hard: the lobby message says so.
    changed = await _choose(fake, bob, lobby_id, computers_choice(lobby, "Cindy-Bot: play hard"))
    assert not changed.ephemeral, changed.content
    assert "Cindy-Bot 🤖 hard" in shown() and "Robo Max 🤖 normal" in shown()

    # Bob removes Robo Max, twice from the same menu: one computer leaves, not two.
    removed = await _choose(fake, bob, lobby_id, remove_robo)
    assert not removed.ephemeral, removed.content
    assert "Robo Max" not in shown() and "Cindy-Bot 🤖 hard" in shown()
    again = await _choose(fake, bob, lobby_id, remove_robo)
    assert again.ephemeral and "already left" in again.content, again
    assert _seats(db) == [("alice", 0, "normal"), ("bob", 0, "normal"), ("Cindy-Bot", 1, "hard")]

    # The menu now offers what Cindy-Bot can become; keep it as an old menu for later.
    menu_before_start = fake.message(lobby_id) or {}
    easy_cindy = computers_choice(menu_before_start, "Cindy-Bot: play easy")
    remove_cindy = computers_choice(menu_before_start, "Remove Cindy-Bot")
    start = find_button(menu_before_start, "Start").custom_id or ""
    await (await fake.click(alice, lobby_id, start)).wait_response()
    await quiet(fake)
    row = game_row(db)
    assert row["status"] == "active"
    assert _seats(db) == [("alice", 0, "normal"), ("bob", 0, "normal"), ("Cindy-Bot", 1, "hard")]
    assert "alice, bob, Cindy-Bot 🤖 hard" in (fake.message(lobby_id) or {}).get("content", "")

    # The old menu of a started game (a client still showing it): a private answer, and the
    # computer keeps its seat and its level.
    for user, choice in ((alice, easy_cindy), (bob, remove_cindy)):
        late = await _choose(fake, user, lobby_id, choice, old=True)
        assert late.ephemeral and late.content in OLD_MENU, late
    assert _seats(db) == [("alice", 0, "normal"), ("bob", 0, "normal"), ("Cindy-Bot", 1, "hard")]
    await quiet(fake)


def _players(frame: dict[str, Any]) -> list[tuple[str, str | None]]:
    lobby = frame.get("lobby") or {}
    return [(p["name"], p["level"]) for p in lobby.get("players", [])]


async def _lobby_shows(client: Client, players: list[tuple[str, str | None]]) -> None:
    await client.wait(lambda f: f["type"] == "lobby" and _players(f) == players)


async def test_the_live_tables_lobby_removes_and_relevels_computers(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, port = fake_discord, tmp_path / "bot.db", free_port()
    fake.click_settle = 0.05
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    channel = fake.channel_named("games")
    alice, carol = fake.user_named("alice"), fake.user_named("carol")
    lobby = (await (await fake.slash(alice, channel, "grinch start")).wait_response()).message()
    assert lobby is not None
    lobby_id = int(lobby["id"])
    launch = await (await fake.slash(alice, channel, "grinch table")).wait_response()
    assert launch.type == LAUNCH_ACTIVITY
    instance = fake.activities.instance_of(channel)
    assert instance is not None
    fake.activities.join(instance, carol)
    async with aiohttp.ClientSession() as http:
        host, stranger = [
            await connect(http, port, await login(http, fake, port, user), instance, user)
            for user in (alice, carol)
        ]
        await _lobby_shows(host, [("alice", None)])
        for _ in range(2):
            await host.send({"type": "lobby", "op": "add_computer", "level": "normal"})
        robo, cindy = ("Robo Max", "normal"), ("Cindy-Bot", "normal")
        await _lobby_shows(host, [("alice", None), robo, cindy])

        relevel = {"type": "lobby", "op": "computer_level", "seat": 2, "name": "Cindy-Bot"}
        await host.send({**relevel, "level": "hard"})
        await _lobby_shows(host, [("alice", None), robo, ("Cindy-Bot", "hard")])
        removal = {"type": "lobby", "op": "remove_computer", "seat": 1, "name": "Robo Max"}
        await host.send(removal)
        await host.send(removal)  # doubled: Cindy-Bot, now in seat 1, stays
        await _lobby_shows(host, [("alice", None), ("Cindy-Bot", "hard")])
        refused = await host.wait(lambda f: f["type"] == "refused")
        assert "already left" in refused["reason"], refused
        await stranger.send({**relevel, "seat": 1, "level": "easy"})
        refused = await stranger.wait(lambda f: f["type"] == "refused")
        assert refused["reason"].startswith("Join the game first"), refused
        assert _seats(db) == [("alice", 0, "normal"), ("Cindy-Bot", 1, "hard")]

        def shown() -> str:  # the Discord lobby follows, paced as the channel's writes are
            return message_text(fake.message(lobby_id) or {})

        await fake.wait_for(lambda: "Robo Max" not in shown(), timeout=15)
        assert "Cindy-Bot 🤖 hard" in shown(), shown()
        await quiet(fake)
        for client in (host, stranger):
            await client.close()
