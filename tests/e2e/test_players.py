"""The players' layer end to end: a rated game's rating change shows in /stats and on
/leaderboard."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, open_game, play_to_the_end, quiet
from tests.fakediscord import FakeDiscord


async def test_a_rated_game_moves_both_ratings_in_stats_and_leaderboard(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, channel, alice, [bob], computers=0, game="grinch")
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
        assert "Grinch" in text and "1 game" in text, text
        found = re.search(r"over the last 1 game \(0 → (-?\d+)\)", text)
        assert found is not None, text
        changes.append(int(found.group(1)))
    assert changes[0] != changes[1]  # one of them won

    rec = await fake.slash(bob, channel, "leaderboard", {})
    reply = await rec.wait_response()
    assert not reply.ephemeral
    board = reply.text()
    assert f"<@{alice}>" in board and f"<@{bob}>" in board
    first = min((alice, bob), key=lambda u: board.index(f"<@{u}>"))
    assert changes[(alice, bob).index(first)] == max(changes)
