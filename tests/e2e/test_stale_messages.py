"""Nothing left stale after a crash: every message a player can act on is redrawn when it is
behind the game, tables and DMs alike, finished games too.

A Grinch game is played to its end, alice from ephemeral hands (so her DM is redrawn by the
bot, not by her clicks' answers) and bob from his DMs. From the moment the game is over the
fake Discord refuses every edit in alice's DM (503: the bot retries), so the table shows the
result while her DM still shows her last turn, buttons and all; the bot is killed then.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from tests.e2e.chaos import db_read, wait_until
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    UPDATE_MESSAGE,
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
    table_edits = len(fake.requests)
    bot.kill()
    fake.faults.remove(refused)
    fake.settle_checks[:] = checks

    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    assert len(fake.requests) > table_edits
    assert _live_dms(fake, [alice, bob]) == []
