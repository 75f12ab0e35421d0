"""A round's summary and the next round's table are one message: one write where there were
two, in a channel that allows about one a second.

The message a round's end posts carries the summary above the new table (with the table's
buttons and the summary's own nonce); the table's edits keep the summary, a restart too; the
table it replaced is retired once the channel is quiet, keeping only what ended. A kill
around that post leaves the summary in the channel once.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.chaos import clean_log, send_random_move, stranded, wait_until
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, open_game, play_one_move, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons

JSON = dict[str, Any]
SUMMARY = "Dead cards"  # every Hearts hand's summary names them
RETIRED = "This part is over; the table continues below."
QUIET_WITHIN = 30.0  # seconds for a retirement, once nobody plays


def _live_table(message: JSON) -> bool:
    return any((b.custom_id or "").startswith("hand:") for b in buttons(message))


def _summaries(message: JSON) -> list[str]:
    """The descriptions of a message's embeds that are a hand's summary."""
    return [
        str(e.get("description"))
        for e in message.get("embeds") or []
        if SUMMARY in str(e.get("description"))
    ]


def _summary_messages(fake: FakeDiscord, channel: int) -> list[JSON]:
    return [m for m in fake.messages(channel) if _summaries(m)]


async def _play_until(fake: FakeDiscord, users: list[int], rng: random.Random, hands: int) -> None:
    """Click until ``hands`` hands' summaries are in the channel."""
    channel = fake.channel_named("games")
    for _ in range(400):
        if len(_summary_messages(fake, channel)) >= hands:
            return
        if not await play_one_move(fake, users, rng, hand_messages={}, next_move=True):
            await quiet(fake)
    raise AssertionError(f"{hands} hands did not end")


async def test_the_summary_rides_on_the_next_table_which_keeps_it_and_retires_the_old(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, bot = fake_discord, bot_process
    fake.click_settle = 0.05
    channel, alice = fake.channel_named("games"), fake.user_named("alice")
    await bot.start(env=bot_env(tmp_path))
    await open_game(fake, channel, alice, [], computers=1, game="hearts")
    first_table = next(m for m in fake.messages(channel) if _live_table(m))
    rng = random.Random(5)

    await _play_until(fake, [alice], rng, hands=1)
    await quiet(fake)
    [folded] = _summary_messages(fake, channel)
    born = fake.message_versions(int(folded["id"]))[0]
    # Created as the summary above the new hand's table, with the table's buttons.
    assert len(born["embeds"]) == 2 and _live_table(born)
    assert _summaries({"embeds": born["embeds"][:1]}) and not _summaries(
        {"embeds": born["embeds"][1:]}
    )
    posts = [
        r
        for r in fake.requests_to("POST", f"/channels/{channel}/messages")
        if r.status == 200 and SUMMARY in str(r.json)
    ]
    assert len(posts) == 1 and posts[0].json.get("nonce") and posts[0].json.get("enforce_nonce")
    assert posts[0].files  # the hand's picture came with it
    assert game_row(tmp_path / "bot.db")["table_message_id"] == int(folded["id"])

    # The table's edits keep the summary above it, across a restart too.
    summary = born["embeds"][0]
    edits = len(fake.message_versions(int(folded["id"])))
    await bot.stop()
    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    for _ in range(3):
        assert await play_one_move(fake, [alice], rng, hand_messages={})
    await quiet(fake)
    versions = fake.message_versions(int(folded["id"]))
    assert len(versions) > edits
    assert all(v["embeds"][0] == summary and len(v["embeds"]) == 2 for v in versions)

    # The first table, replaced, lost its buttons once the channel was quiet.
    first = int(first_table["id"])
    assert await wait_until(
        lambda: not _live_table(fake.message(first) or {}), QUIET_WITHIN, step=0.1
    ), "the first table was never retired"
    retired = fake.message(first)
    assert retired is not None and RETIRED in str(retired.get("content"))

    # The next hand's end: the message that carried the first summary keeps only it.
    await _play_until(fake, [alice], rng, hands=2)
    kept = int(folded["id"])
    assert await wait_until(
        lambda: not _live_table(fake.message(kept) or {}), QUIET_WITHIN, step=0.1
    ), "the replaced table was never retired"
    old = fake.message(kept)
    assert old is not None and old["embeds"] == [summary] and not old.get("content")
    assert old["attachments"]  # the hand's picture stays
    newest = _summary_messages(fake, channel)[-1]
    assert _live_table(newest) and len(newest["embeds"]) == 2
    assert clean_log(bot.log_text()) == []


def _fold_post(body: JSON) -> bool:
    """The post of a summary above a new table."""
    return _live_table(body) and bool(_summaries(body))


@pytest.mark.parametrize("after_create", [False, True], ids=["before", "after"])
async def test_killed_around_the_summary_and_table_post_the_summary_is_there_once(
    after_create: bool, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, bot, db = fake_discord, bot_process, tmp_path / "bot.db"
    fake.click_settle = 0.05
    channel, alice = fake.channel_named("games"), fake.user_named("alice")
    await bot.start(env=bot_env(tmp_path))
    await open_game(fake, channel, alice, [], computers=1, game="hearts")
    hold = fake.holds.add(channel, _fold_post, after_create=after_create)
    rng = random.Random(11)
    for _ in range(200):
        if hold.caught.is_set():
            break
        move = await send_random_move(fake, [alice], rng)
        if move is None:
            await quiet(fake)
            continue
        await move.rec.wait_response()
        await wait_until(hold.caught.is_set, 0.3, step=0.02)
    assert hold.caught.is_set(), "the hand never ended"
    bot.kill()  # the held request stays held: Discord never hears of it again

    await bot.start(env=bot_env(tmp_path))
    await quiet(fake)
    summaries = _summary_messages(fake, channel)
    assert len(summaries) == 1, [m["embeds"] for m in summaries]
    table_id = int(game_row(db)["table_message_id"])
    assert int(summaries[0]["id"]) == table_id and _live_table(summaries[0])
    assert await wait_until(
        lambda: [int(m["id"]) for m in fake.messages(channel) if _live_table(m)] == [table_id],
        QUIET_WITHIN,
        step=0.1,
    ), "the replaced table was never retired"
    if after_create:
        assert fake.nonces.repeats >= 1  # sent again, and not created twice
    assert stranded(fake, db, int(game_row(db)["id"])) == []
    assert clean_log(bot.log_text()) == []
