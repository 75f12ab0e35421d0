"""Restarts, closed DMs, strangers, double clicks and busy channels, end to end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from db.opening import open_store
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    alice_and_bob_playing,
    bot_env,
    channel_message_with_button,
    game_row,
    live_move_buttons,
    move_accepted,
    old_control_answer,
    open_game,
    play_one_move,
    play_to_the_end,
    quiet,
)
from tests.fakediscord import FakeDiscord


async def test_killed_mid_round_and_finished_with_the_old_buttons(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=2)
    rng = random.Random(7)
    for _ in range(5):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    before_kill = action_count(db)
    sent_before = {int(m["id"]) for u in (alice, bob) for m in fake.dm_messages(u)}
    bot_process.kill()
    await bot_process.start(env=bot_env(tmp_path))
    assert action_count(db) == before_kill  # nothing lost
    # The first click after the restart is on a message sent before the kill.
    found = live_move_buttons(fake.dm_messages(alice)) or live_move_buttons(fake.dm_messages(bob))
    assert found is not None and int(found[0]["id"]) in sent_before
    await play_to_the_end(fake, [alice, bob], rng, db, channel=channel)
    assert game_row(db)["status"] == "finished"
    assert "Grinch Grow Your Heart — result" in "\n".join(fake.public_text())


async def test_player_with_closed_dms_plays_through_my_hand(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, dora = fake.user_named("alice"), fake.user_named("dora")
    await open_game(fake, channel, alice, [dora], computers=2)
    public = "\n".join(fake.public_text())
    assert f"<@{dora}>, I can't send you direct messages" in public
    await play_to_the_end(fake, [alice, dora], random.Random(3), db, channel=channel, no_dm=(dora,))
    assert game_row(db)["status"] == "finished"
    assert fake.ephemeral_messages(dora), "dora played from ephemeral hands"


async def test_strangers_and_double_clicks_change_nothing(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    carol = fake.user_named("carol")
    found = live_move_buttons(fake.dm_messages(bob)) or live_move_buttons(fake.dm_messages(alice))
    assert found is not None
    message, buttons = found
    owner = bob if message in fake.dm_messages(bob) else alice
    custom_id = buttons[0].custom_id or ""
    count = action_count(db)

    # Move buttons live in private messages; what a stranger can press is the table's
    # "My hand" button (a forged move is refused by the service, see tests/service).
    table = channel_message_with_button(fake, channel, "My hand")
    stranger = await fake.click_button(carol, int(table["id"]), "My hand")
    answer = await stranger.wait_message()
    assert answer["content"] == "You are not playing in this game."
    assert fake.is_ephemeral(answer)
    assert action_count(db) == count

    # The owner double-clicks: two clicks at once, one move.
    first, second = await asyncio.gather(
        fake.click(owner, int(message["id"]), custom_id),
        fake.click(owner, int(message["id"]), custom_id, force=True),
    )
    replies = [await first.wait_response(), await second.wait_response()]
    await quiet(fake)
    assert sorted(move_accepted(r) for r in replies) == [False, True]
    refused = replies[0] if not move_accepted(replies[0]) else replies[1]
    # The refused click says why, on the hand drawn again as it is now (or alone, if the
    # first click's move was still being drawn), never with the clicked button live.
    assert old_control_answer(refused), refused
    assert custom_id not in {b.custom_id for b in refused.buttons()}
    moved = action_count(db) - count
    assert moved >= 1  # the owner's move (plus any computer moves it let happen)
    # Pressing the old button again later (the message has newer buttons now): refused.
    late = await fake.click(owner, int(message["id"]), custom_id, force=True)
    answer = await late.wait_message()
    assert answer["content"] == "That move is no longer available."
    assert fake.is_ephemeral(answer)
    assert action_count(db) - count == moved
    for rec in (stranger, first, second, late):
        assert rec.ack_latency is not None and rec.ack_latency < 3


async def test_two_channels_at_once_and_a_busy_channel_refused(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    games, general = fake.channel_named("games"), fake.channel_named("general")
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    await open_game(fake, games, alice, [bob], computers=2)
    await open_game(fake, general, carol, [], computers=3)
    busy = await fake.slash(carol, games, "grinch start")
    reply = await busy.wait_response()
    assert reply.ephemeral and "already has a game" in reply.content
    rng = random.Random(11)
    clicks = 0
    while clicks < 400:
        if not await play_one_move(fake, [alice, bob, carol], rng, hand_messages={}):
            break
        clicks += 1
    import sqlite3

    with sqlite3.connect(db) as conn:
        statuses = conn.execute("SELECT channel_id, status FROM games ORDER BY id").fetchall()
    assert statuses == [(games, "finished"), (general, "finished")]
    for channel in (games, general):
        texts = "\n".join(t for m in fake.messages(channel) for t in [str(m.get("embeds"))])
        assert "Grinch Grow Your Heart — result" in texts


async def test_a_move_committed_just_before_a_crash_shows_after_the_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """The bot dies between committing a move and showing it; the restart catches up."""
    from service.games import GameService

    fake, db = fake_discord, tmp_path / "bot.db"
    await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    bot_process.kill()
    # The move the dead bot committed but never showed: made here, straight on the store.
    store = await open_store(db)
    service = GameService(store, turn_timeout=0)
    loaded = await service.load(int(game_row(db)["id"]))
    due = sorted(loaded.game.to_act(loaded.state))
    seat = next(s for s in loaded.seats if s.seat in due and s.user_id is not None)
    assert seat.user_id is not None
    action = str(loaded.game.legal_actions(loaded.state, seat.seat)[0])
    await service.act(loaded.row.id, seat.user_id, seat.step, action)
    await store.close()
    stale = f"g:{loaded.row.id}:{seat.step}:"
    assert any(
        b.custom_id and b.custom_id.startswith(stale)
        for m in fake.dm_messages(seat.user_id)
        for b in fake.buttons(int(m["id"]))
    ), "before the restart the player still sees the old buttons"
    await bot_process.start(env=bot_env(tmp_path))
    await quiet(fake)
    leftover = [
        b.custom_id
        for m in fake.dm_messages(seat.user_id)
        for b in fake.buttons(int(m["id"]))
        if b.custom_id and b.custom_id.startswith(stale)
    ]
    assert leftover == [], "the restart redrew the hand from the database"
