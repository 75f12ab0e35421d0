"""Nothing left stale after a crash or a restore: every message a player can act on is redrawn
when it is behind the game, tables and DMs alike, finished games too.

A Grinch game is played to its end, alice from ephemeral hands (so her DM is redrawn by the
bot, not by her clicks' answers) and bob from his DMs. From the moment the game is over the
fake Discord refuses every edit in alice's DM (503: the bot retries), so the table shows the
result while her DM still shows her last turn, buttons and all; the bot is killed then.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.chaos import db_read, wait_until
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    DEFERRED_UPDATE,
    UPDATE_MESSAGE,
    action_count,
    alice_and_bob_playing,
    bot_env,
    game_row,
    live_controls,
    live_move_buttons,
    open_hand,
    play_one_move,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import UNAVAILABLE

GAME_OVER = "This game is over."
ROOT = Path(__file__).resolve().parents[2]


def _dm_message(db: Path, game_id: int, user: int) -> int:
    ((message_id,),) = db_read(
        db, "SELECT dm_message_id FROM seats WHERE game_id = ? AND user_id = ?", game_id, user
    )
    return int(message_id)


def _live_dms(fake: FakeDiscord, users: list[int]) -> list[int]:
    """Messages in these users' DMs that still carry enabled move controls."""
    return [
        int(message["id"])
        for user in users
        for message in fake.dm_messages(user)
        if any(live_controls(message))
    ]


def _until_over(fake: FakeDiscord, over: Callable[[], bool]) -> list[Callable[[], bool]]:
    """The bot never finishes showing the last move while alice's DM is refused: once the game
    is over, quiet() waits for a pause in its requests only. Returns the checks to restore."""
    checks = list(fake.settle_checks)
    fake.settle_checks[:] = [lambda: over() or all(check() for check in checks)]
    return checks


async def _play_until_over(fake: FakeDiscord, db: Path, alice: int, bob: int) -> None:
    """bob plays from his DM whenever he can, alice (last, so her move ends the game) from an
    ephemeral hand."""
    rng = random.Random("stale-dms")
    hands: dict[int, int] = {}
    while game_row(db)["status"] == "active":
        if await play_one_move(fake, [bob], rng, hand_messages={}):
            continue
        message = fake.message(hands[alice]) if alice in hands else None
        if message is None or live_move_buttons([message]) is None:
            hands[alice] = await open_hand(fake, alice, fake.channel_named("games"))
        assert await play_one_move(fake, [alice], rng, hand_messages=hands)


async def test_a_dm_left_behind_by_a_crash_at_the_end_is_redrawn_and_a_click_on_it_too(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    _channel, alice, bob = await alice_and_bob_playing(fake, bot, tmp_path, computers=1)
    game_id = int(game_row(db)["id"])
    alice_dm = fake.dm_channel_id(alice)
    assert alice_dm is not None

    def over() -> bool:
        return str(game_row(db)["status"]) == "finished"

    refused = fake.faults.add("*", "/channels/*", UNAVAILABLE, channel_id=alice_dm, when=over)
    checks = _until_over(fake, over)
    await _play_until_over(fake, db, alice, bob)
    assert await wait_until(lambda: refused.hits >= 1, timeout=10), "alice's DM was not edited"
    stale = _dm_message(db, game_id, alice)
    assert stale in _live_dms(fake, [alice]), "alice's DM should still show her last turn"
    bot.kill()

    # Restarted while her DM is still refused: her click on it is answered with the final
    # hand, without buttons, in place of the clicked message.
    await bot.start(env=bot_env(tmp_path))
    message = fake.message(stale)
    assert message is not None
    moves, menus = live_controls(message)
    click = await fake.click(
        alice, stale, (moves[0].custom_id if moves else menus[0].custom_id) or ""
    )
    reply = await click.wait_response()
    assert reply.type == UPDATE_MESSAGE, reply
    assert GAME_OVER in reply.text()
    assert stale not in _live_dms(fake, [alice])

    # Discord answers again: the start-up redraw brings every DM of the finished game up to date.
    fake.faults.remove(refused)
    fake.settle_checks[:] = checks
    assert await wait_until(lambda: not _live_dms(fake, [alice, bob]), timeout=30, step=0.1)
    await quiet(fake)
    assert _live_dms(fake, [alice, bob]) == []
    version = int(game_row(db)["version"])
    shown = db_read(
        db,
        "SELECT shown_version FROM seats WHERE game_id = ? AND NOT is_computer",
        game_id,
    )
    assert shown == [(version,), (version,)]
    assert GAME_OVER not in str((fake.message(stale) or {}).get("content"))


async def test_a_crash_before_the_last_dm_edit_is_repaired_at_start(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """The same crash, then a start with Discord answering: nobody needs to click."""
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    _channel, alice, bob = await alice_and_bob_playing(fake, bot, tmp_path, computers=1)
    alice_dm = fake.dm_channel_id(alice)
    assert alice_dm is not None

    def over() -> bool:
        return str(game_row(db)["status"]) == "finished"

    refused = fake.faults.add("*", "/channels/*", UNAVAILABLE, channel_id=alice_dm, when=over)
    checks = _until_over(fake, over)
    await _play_until_over(fake, db, alice, bob)
    assert await wait_until(lambda: refused.hits >= 1, timeout=10)
    assert _live_dms(fake, [alice])
    bot.kill()
    fake.faults.remove(refused)
    fake.settle_checks[:] = checks

    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    assert _live_dms(fake, [alice, bob]) == []


def _live_move_ids(fake: FakeDiscord, users: list[int]) -> set[str]:
    """The custom ids of every enabled move control in these users' DMs."""
    found: set[str] = set()
    for user in users:
        for message in fake.dm_messages(user):
            moves, menus = live_controls(message)
            found |= {b.custom_id or "" for b in moves} | {m.custom_id or "" for m in menus}
    return found


def _table(fake: FakeDiscord, db: Path) -> list[tuple[object, ...]]:
    """What the game's recorded table message shows: each embed's title, text and fields."""
    # Closed at once: a connection left open across the restore would read a replaced file.
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        (table_id,) = conn.execute("SELECT table_message_id FROM games").fetchone()
    message = fake.message(int(table_id)) or {}
    return [(e.get("title"), e.get("description"), str(e.get("fields"))) for e in message["embeds"]]


def _backup(database: Path, target: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "backup", str(target)],
        env={**os.environ, "DATABASE_PATH": str(database)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


async def test_a_restored_database_is_redrawn_at_start(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """Backup, play on, restore as the README says, start: the table and every DM show the
    restored game again, and only its moves are live."""
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    _channel, alice, bob = await alice_and_bob_playing(fake, bot, tmp_path, computers=1)
    rng = random.Random("restore")
    for _ in range(3):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    await quiet(fake)
    at_backup = _live_move_ids(fake, [alice, bob]), _table(fake, db)
    _backup(db, tmp_path / "copy.db")

    for _ in range(3):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    await quiet(fake)
    assert (_live_move_ids(fake, [alice, bob]), _table(fake, db)) != at_backup

    await bot.stop()
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    shutil.copy(tmp_path / "copy.db", db)
    await bot.start(env=bot_env(tmp_path))

    def restored_shown() -> bool:
        return (_live_move_ids(fake, [alice, bob]), _table(fake, db)) == at_backup

    assert await wait_until(restored_shown, timeout=20, step=0.1)
    await quiet(fake)
    assert restored_shown()
    assert "another copy than last time" in bot.log_text()

    # A plain restart on the same database redraws nothing.
    requests = len(fake.requests)
    await bot.stop()
    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    edits = [r for r in fake.requests[requests:] if r.method in ("PATCH", "POST")]
    assert not [r for r in edits if "/channels/" in r.path], edits


NOT_SAVED = "Your last move was not saved"


async def test_a_deferred_click_killed_before_its_commit_is_told_after_the_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """The database holds its write lock past the acknowledgement budget: the click is
    deferred, the bot is killed before the move is saved; after the restart the player's hand
    says the move was not saved, with the same live buttons to play it again."""
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    _channel, alice, bob = await alice_and_bob_playing(fake, bot, tmp_path, computers=1)
    user, found = next(
        (u, f) for u in (alice, bob) if (f := live_move_buttons(fake.dm_messages(u)))
    )
    message, buttons = found
    before = action_count(db)
    with contextlib.closing(sqlite3.connect(db, timeout=5)) as lock:
        lock.execute("BEGIN IMMEDIATE")  # another writer: the bot's commit waits
        click = await fake.click(user, int(message["id"]), buttons[0].custom_id or "")
        reply = await click.wait_response(timeout=10)
        assert reply.type == DEFERRED_UPDATE, reply
        bot.kill()
        lock.rollback()
    assert action_count(db) == before

    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    # The note changes no game's version, so quiet() may return while the hand's edit still
    # waits for its picture (the drawing process starts cold after a restart).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not any(
        NOT_SAVED in str(m.get("content")) for m in fake.dm_messages(user)
    ):
        await asyncio.sleep(0.1)
    await quiet(fake)
    step = (buttons[0].custom_id or "").rsplit(":", 1)[0]
    hands = [m for m in fake.dm_messages(user) if any(live_controls(m))]
    assert len(hands) == 1 and NOT_SAVED in str(hands[0].get("content")), hands
    assert all((b.custom_id or "").startswith(step) for b in live_controls(hands[0])[0])

    # Played again from that hand, the move goes through and the note is gone.
    assert await play_one_move(fake, [user], random.Random(5), hand_messages={})
    assert action_count(db) > before
    assert not any(NOT_SAVED in str(m.get("content")) for m in fake.dm_messages(user))
