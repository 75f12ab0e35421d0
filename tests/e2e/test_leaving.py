"""A player who leaves a running game keeps no live hand in their DMs.

alice and bob play Grinch; alice leaves with `/grinch leave` while her DM shows her hand with
live buttons. Her hand message is then edited to her hand without buttons and a line saying
which computer took her seat, while bob plays on with the computer to the end. Where Discord
refuses that edit (the message too old to edit), a press on one of her old buttons is answered
privately that she left; where the bot is killed before the edit, the start-up repair makes it.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.chaos import db_read, wait_until
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    bot_env,
    channel_message_with_button,
    find_button,
    game_row,
    live_controls,
    newest_live_controls,
    play_one_move,
    play_to_the_end,
    quiet,
    seat_names,
    set_locales,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons
from tests.fakediscord.faults import EDIT_LIMIT, UNAVAILABLE

LEFT = "You left this game"
LEFT_RO = "Ai părăsit acest joc"  # alice's language in the crash test


async def _alice_with_live_buttons(
    fake: FakeDiscord, bot: BotProcess, tmp_path: Path
) -> tuple[int, int, int, int, str]:
    """A game of alice and bob in which alice's DM shows live move buttons: (channel, alice,
    bob, her hand message, the custom id of one of its live buttons)."""
    channel, alice, bob = await alice_and_bob_playing(fake, bot, tmp_path, computers=0)
    rng = random.Random("leaving")
    while (found := newest_live_controls(fake, alice)) is None:
        assert await play_one_move(fake, [bob], rng, hand_messages={})
    message, moves, menus = found
    custom_id = (moves[0].custom_id if moves else menus[0].custom_id) or ""
    return channel, alice, bob, int(message["id"]), custom_id


async def _leave(fake: FakeDiscord, user: int, channel: int) -> None:
    """`/grinch leave`, then its confirm button."""
    rec = await fake.slash(user, channel, "grinch leave", {})
    ask = await rec.wait_message()
    (button,) = [b.custom_id or "" for b in buttons(ask)]  # "Leave the game", in their language
    await (await fake.click(user, int(ask["id"]), button)).wait_response()


def _closed_for_leaver(fake: FakeDiscord, message_id: int, computer: str, line: str = LEFT) -> bool:
    message = fake.message(message_id) or {}
    moves, menus = live_controls(message)
    content = str(message.get("content") or "")
    return not moves and not menus and line in content and computer in content


def _seat_left(db: Path, user: int) -> bool:
    return bool(db_read(db, "SELECT 1 FROM seats WHERE left_user_id = ?", user))


async def test_a_leavers_dm_shows_their_hand_closed_and_who_took_the_seat(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob, hand, _button = await _alice_with_live_buttons(fake, bot_process, tmp_path)
    await _leave(fake, alice, channel)
    await quiet(fake)
    computer = seat_names(db, int(game_row(db)["id"]))[0]
    assert _closed_for_leaver(fake, hand, computer), fake.message(hand)
    assert newest_live_controls(fake, alice) is None  # no DM of hers can be played from
    assert "Grinch" in str((fake.message(hand) or {}).get("content"))  # which game it was

    await play_to_the_end(fake, [bob], random.Random(5), db, channel=channel)
    assert game_row(db)["status"] == "finished"
    assert _closed_for_leaver(fake, hand, computer)


async def test_a_press_on_a_leavers_hand_that_could_not_be_closed_says_they_left(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob, hand, button = await _alice_with_live_buttons(fake, bot_process, tmp_path)
    refused = fake.faults.add("PATCH", "/channels/*", EDIT_LIMIT, message_id=hand)
    await _leave(fake, alice, channel)
    await quiet(fake)
    assert live_controls(fake.message(hand) or {}) != ([], [])  # Discord kept its buttons

    click = await fake.click(alice, hand, button)
    reply = await click.wait_response()
    assert reply.ephemeral, reply
    assert LEFT in reply.text() and "belong to a player" not in reply.text(), reply.text()
    assert refused.hits >= 1  # the bot tried to close it
    table = channel_message_with_button(fake, channel, "My hand")
    mine = await fake.click(alice, int(table["id"]), find_button(table, "My hand").custom_id or "")
    await mine.wait_response()
    answer = await mine.wait_message()
    assert fake.is_ephemeral(answer) and LEFT in str(answer.get("content")), answer
    assert game_row(db)["status"] == "active"
    await play_to_the_end(fake, [bob], random.Random(6), db, channel=channel)
    assert game_row(db)["status"] == "finished"


async def test_a_leavers_hand_is_closed_after_a_crash_right_after_the_leave(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    channel, alice, _bob, hand, _button = await _alice_with_live_buttons(fake, bot, tmp_path)
    alice_dm = fake.dm_channel_id(alice)
    refused = fake.faults.add("PATCH", "/channels/*", UNAVAILABLE, channel_id=alice_dm)
    set_locales(fake, users={alice: "ro"})  # her leave tells the bot her language
    await _leave(fake, alice, channel)
    assert await wait_until(lambda: _seat_left(db, alice), timeout=10)
    bot.kill()  # the leave is saved; her hand message still has its buttons
    fake.faults.remove(refused)
    assert live_controls(fake.message(hand) or {}) != ([], [])

    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    computer = seat_names(db, int(game_row(db)["id"]))[0]
    assert _closed_for_leaver(fake, hand, computer, LEFT_RO), fake.message(hand)
