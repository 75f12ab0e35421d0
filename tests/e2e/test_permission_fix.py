"""A channel that refuses the bot's table (50013) gets it back as soon as the permission is:
when Discord says so (a channel update, or the ``app_permissions`` of any interaction from the
channel), or at the latest when the short wait after the refusal is over."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import alice_and_bob_playing, game_row
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons
from tests.fakediscord.models import SEND_MESSAGES

FIRST_WAIT = 15.0  # delivery.tables.BACKOFF[0]


def refused_posts(fake: FakeDiscord, channel: int) -> int:
    path = f"/channels/{channel}/messages"
    return sum(
        1 for r in fake.requests if r.method == "POST" and r.path == path and r.status == 403
    )


def table_shown(fake: FakeDiscord, db: Path, channel: int, gone: int) -> bool:
    """A new table (not the deleted one) is in the channel with its "My hand" button."""
    table = int(game_row(db)["table_message_id"])
    message = fake.message(table)
    return (
        table != gone
        and message is not None
        and any(b.label == "My hand" for b in buttons(message))
        and table in {int(m["id"]) for m in fake.messages(channel)}
    )


async def refuse_the_table(fake: FakeDiscord, db: Path, channel: int) -> int:
    """The bot may no longer post in the channel and a moderator deletes the table: the bot
    posts it again and is refused (50013). Returns the deleted table's id."""
    fake.set_bot_permissions(channel, deny=SEND_MESSAGES)
    table = int(game_row(db)["table_message_id"])
    before = refused_posts(fake, channel)
    fake.delete_message(table)
    await fake.wait_for(lambda: refused_posts(fake, channel) > before, timeout=10)
    return table


@pytest.mark.parametrize("heard_by", ["channel update", "interaction", "nothing"])
async def test_the_table_is_back_when_the_permission_is(
    heard_by: str, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, _alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    gone = await refuse_the_table(fake, db, channel)
    refused_at = time.monotonic()
    # Refused: no new table, and the channel is left alone for a while.
    await asyncio.sleep(1.0)
    assert not table_shown(fake, db, channel, gone)
    assert refused_posts(fake, channel) == 1

    fake.set_bot_permissions(channel, event=heard_by == "channel update")
    if heard_by == "interaction":  # any interaction from the channel says what the bot may do
        rec = await fake.slash(bob, channel, "scores")
        await rec.wait_response()
    if heard_by == "nothing":  # the short wait after the refusal runs out
        await fake.wait_for(lambda: table_shown(fake, db, channel, gone), timeout=FIRST_WAIT + 10)
    else:  # at once, long before the wait is over
        await fake.wait_for(lambda: table_shown(fake, db, channel, gone), timeout=5)
        assert time.monotonic() - refused_at < FIRST_WAIT
