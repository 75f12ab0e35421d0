"""SIGKILL between a move and the message it owes the channel: after the restart the message
is there, once.

In each game the fake Discord holds the bot's post of a timeout's line, then of the result
(last round's summary, score chart, Play again), and the bot is killed while it waits for
the answer: once before Discord created the message (the restart must post it), once after
(Discord took it, the bot never heard: the restart must not post it twice). Each game tries
both moments, one for the line and the other for the result.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.chaos import clean_log, send_random_move, stranded, wait_until
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, open_game, quiet
from tests.fakediscord import FakeDiscord

JSON = dict[str, Any]
GAMES = {  # game: (computers, the line's post held after Discord created it)
    "grinch": (1, True),
    "gnome": (2, False),
    "hearts": (1, True),
    "ten": (1, False),
}
TIMED_OUT = "ran out of time; the computer played for them."
ON_AUTOPILOT = "They stay on autopilot"
CAUGHT_WITHIN = 150.0  # seconds for the computers and the autopilot to reach the held post


def _is_result(message: JSON) -> bool:
    """A message with a Play again button: the result."""
    rows = message.get("components") or []
    ids = [str(c.get("custom_id") or "") for row in rows for c in row.get("components") or []]
    return any(i.startswith("again:") for i in ids)


def _first_timeout(body: JSON) -> bool:
    content = str(body.get("content") or "")
    return TIMED_OUT in content and ON_AUTOPILOT not in content


def _posted(message: JSON) -> str:
    """What a channel message says (its text, embeds and files), to find one posted twice."""
    files = sorted(a["filename"] for a in message.get("attachments") or [])
    return json.dumps([message.get("content"), message.get("embeds"), files], sort_keys=True)


async def _caught(hold: Any) -> bool:
    return await wait_until(hold.caught.is_set, CAUGHT_WITHIN, step=0.05)


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_killed_before_the_owed_message_it_is_posted_once(
    name: str, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, bot = fake_discord, tmp_path / "bot.db", bot_process
    computers, line_after_create = GAMES[name]
    fake.click_settle = 0.05
    channel, alice = fake.channel_named("games"), fake.user_named("alice")
    await bot.start(env=bot_env(tmp_path))
    await open_game(fake, channel, alice, [], computers, game=name)
    bot.kill()

    # A one-second turn timer, started by alice's next move: she times out, and her line's
    # post is held.
    line = fake.holds.add(channel, _first_timeout, after_create=line_after_create)
    await bot.start(env=bot_env(tmp_path, timeout="1"))
    await quiet(fake)
    move = await send_random_move(fake, [alice], random.Random(name))
    assert move is not None
    await move.rec.wait_response()
    assert await _caught(line), "alice's timeout was never posted"
    bot.kill()

    # After the restart she times out once more (autopilot), and the game plays to its end:
    # the result's post is held.
    result = fake.holds.add(channel, _is_result, after_create=not line_after_create)
    await bot.start(env=bot_env(tmp_path, timeout="1"))
    assert await _caught(result), "the game's result was never posted"
    assert game_row(db)["status"] == "finished"
    bot.kill()

    await bot.start(env=bot_env(tmp_path, timeout="1"))
    await quiet(fake)
    said = fake.messages(channel)
    lines = [str(m.get("content") or "") for m in said]
    assert sum(_first_timeout({"content": t}) for t in lines) == 1, lines
    assert sum(ON_AUTOPILOT in t for t in lines) == 1, lines
    assert sum(_is_result(m) for m in said) == 1
    posts = [_posted(m) for m in said if m.get("embeds") or TIMED_OUT in str(m.get("content"))]
    assert len(posts) == len(set(posts)), "a summary or a line was posted twice"
    assert fake.nonces.repeats >= 1  # the post Discord took was sent again, and not created
    assert stranded(fake, db, int(game_row(db)["id"])) == []
    assert clean_log(bot.log_text()) == []
