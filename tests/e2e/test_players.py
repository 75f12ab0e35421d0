"""The players' layer end to end, on one whole game of two people: its rating change shows in
/stats and on /leaderboard; /history opens its replay, which stepped to the end equals the
final table, and its export replays to the stored final state; Play again under the result
opens a new lobby that the other player joins with one click and the host starts."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

from engine import GAMES
from service.replays import replay_export
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    bot_env,
    channel_message_with_button,
    computer_menu,
    find_button,
    game_row,
    play_one_move,
    play_to_the_end,
    quiet,
    seat_names,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons


def _fields(embed: dict[str, object]) -> tuple[object, ...]:
    return embed.get("title"), embed.get("description"), embed.get("fields")


async def test_a_rated_game_in_stats_leaderboard_history_replay_and_export(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=0, settle=0.05
    )
    await play_to_the_end(fake, [alice, bob], random.Random(3), db, channel=channel)
    assert game_row(db)["status"] == "finished"
    await quiet(fake)

    changes = []
    for user in (alice, bob):
        rec = await fake.slash(user, channel, "stats", {})
        reply = await rec.wait_response()
        message = await rec.wait_message()
        assert reply.ephemeral or fake.is_ephemeral(message)
        text = reply.text()
        assert "Grinch" in text and "1 game" in text and "starts at 1000" in text, text
        found = re.search(r"over the last 1 game \(1000 → (\d+)\)", text)
        assert found is not None, text
        changes.append(int(found.group(1)))
    with sqlite3.connect(db) as conn:
        won = dict(conn.execute("SELECT user_id, won FROM results"))
    if won[alice] == won[bob]:  # a shared result (Grinch can end level): the same change
        assert changes[0] == changes[1]
    else:  # the winner gained more
        assert (changes[0] > changes[1]) == bool(won[alice])

    rec = await fake.slash(bob, channel, "leaderboard", {})
    reply = await rec.wait_response()
    assert not reply.ephemeral
    board = reply.text()
    assert f"<@{alice}>" in board and f"<@{bob}>" in board
    first = min((alice, bob), key=lambda u: board.index(f"<@{u}>"))
    assert changes[(alice, bob).index(first)] == max(changes)

    # /history -> Open 1 -> step -> Last: the final table, as the channel shows it.
    rec = await fake.slash(bob, channel, "history", {})
    listing = await rec.wait_message()
    assert fake.is_ephemeral(listing) and "Grinch" in str(listing.get("embeds"))
    opened = await fake.click(
        bob, int(listing["id"]), find_button(listing, "Open 1").custom_id or ""
    )
    replay = await opened.wait_message()
    assert fake.is_ephemeral(replay) and "step 0 of" in str(replay["embeds"][0])
    replay_id = int(replay["id"])
    for label in ("Next", "Last"):
        current = fake.message(replay_id) or replay
        click = await fake.click(bob, replay_id, find_button(current, label).custom_id or "")
        await click.wait_response()
        await quiet(fake)
    final = fake.message(replay_id)
    assert final is not None
    with sqlite3.connect(db) as conn:
        table_id, steps, snapshot = conn.execute(
            "SELECT table_message_id, version, snapshot FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    table = fake.message(int(table_id))
    assert table is not None
    # the table is the message's last embed (a round's summary may sit above it)
    assert _fields(final["embeds"][0]) == _fields(table["embeds"][-1])
    assert f"step {steps} of {steps}" in str(final["embeds"][0])
    assert find_button(final, "Next").disabled and not find_button(final, "Back").disabled

    # Export: a JSON file that the engine replays to the stored final state.
    click = await fake.click(bob, replay_id, find_button(final, "Export").custom_id or "")
    exported = await click.wait_message()
    assert fake.is_ephemeral(exported)
    data = json.loads(fake.attachment_content(exported["attachments"][0]))
    assert len(data["actions"]) == steps
    assert GAMES["grinch"].to_json(replay_export(data)) == snapshot

    # Play again: a new lobby in the same channel; bob joins with one click; alice starts.
    result = channel_message_with_button(fake, channel, "Play again")
    assert "result" in str(result.get("embeds")).lower()
    old_id = game_row(db)["id"]
    click = await fake.click(
        alice, int(result["id"]), find_button(result, "Play again").custom_id or ""
    )
    lobby = await click.wait_message()
    assert not fake.is_ephemeral(lobby) and f"<@{bob}>" in lobby["content"]
    assert game_row(db)["status"] == "lobby" and game_row(db)["id"] != old_id
    join = await fake.click(bob, int(lobby["id"]), find_button(lobby, "Join").custom_id or "")
    await join.wait_response()
    lobby = fake.message(int(lobby["id"])) or lobby
    start = await fake.click(alice, int(lobby["id"]), find_button(lobby, "Start").custom_id or "")
    await start.wait_response()
    await quiet(fake)
    again = game_row(db)
    assert again["status"] == "active" and again["channel_id"] == channel
    assert seat_names(db, int(again["id"])) == seat_names(db, int(old_id))


async def test_settings_are_for_moderators_and_reach_the_next_lobby(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    try:
        await fake.slash(bob, channel, "settings", {"computers": False})
    except PermissionError:
        pass  # Discord hides the command from members without Manage Server
    else:
        raise AssertionError("/settings was offered to a member without Manage Server")
    rec = await fake.slash(alice, channel, "settings", {"turn_timer": "2h", "computers": False})
    answer = await rec.wait_message()
    assert fake.is_ephemeral(answer)
    text = str(answer.get("embeds"))
    assert "2 hours" in text and "not allowed" in text
    rec = await fake.slash(alice, channel, "grinch start", {})
    lobby = await rec.wait_message()
    assert game_row(db)["turn_timeout"] == 7200
    labels = [b.label for b in buttons(lobby)]  # no menu that would only refuse
    assert "Join" in labels and computer_menu(lobby) is None, labels


async def test_a_player_leaves_and_the_computer_in_their_seat_finishes(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=0, settle=0.05
    )
    rec = await fake.slash(alice, channel, "grinch leave", {})
    ask = await rec.wait_message()
    assert fake.is_ephemeral(ask) and "Leave this game?" in ask["content"]
    click = await fake.click(
        alice, int(ask["id"]), find_button(ask, "Leave the game").custom_id or ""
    )
    await click.wait_response()
    await quiet(fake)
    assert "You left the game" in (fake.message(int(ask["id"])) or {}).get("content", "")
    public = "\n".join(fake.public_text())
    assert "alice left the game" in public and "bob is the host now" in public
    await play_to_the_end(fake, [bob], random.Random(8), db, channel=channel)
    game = game_row(db)
    assert game["status"] == "finished" and game["host_id"] == bob
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT user_id, left_user_id FROM results WHERE game_id = ? ORDER BY seat",
            (game["id"],),
        ).fetchall()
    assert rows == [(None, alice), (bob, None)]


async def test_a_spectator_watches_the_public_table_privately_as_it_moves(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=0, settle=0.05
    )
    carol = fake.user_named("carol")
    table = channel_message_with_button(fake, channel, "Watch")
    click = await fake.click(carol, int(table["id"]), find_button(table, "Watch").custom_id or "")
    watched = await click.wait_message()
    assert fake.is_ephemeral(watched)
    assert _fields(watched["embeds"][0]) == _fields(table["embeds"][0])
    watched_id, table_id = int(watched["id"]), int(table["id"])
    before = len(fake.message_versions(watched_id))
    rng = random.Random(6)
    assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    await fake.wait_for(lambda: len(fake.message_versions(watched_id)) > before, timeout=10)
    await quiet(fake)

    def shown(message_id: int) -> tuple[object, ...]:
        message = fake.message(message_id)
        assert message is not None
        return _fields(message["embeds"][0])

    assert shown(watched_id) == shown(table_id)
    assert game_row(db)["status"] == "active"
