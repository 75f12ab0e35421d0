"""PostgreSQL, several processes: what a process that died owed a channel is posted by another,
once.

The process that dies is this test's own service on the bot's database: it plays a whole game
of Hearts against the computer, recording every round's summary and the result as owed (as
the bot does), and never posts them. The bot process running beside it takes them once the
dead process's claims run out and posts each one once: a summary taken while the game goes on
rides on the next table (delivery/owed.py, folding), the others are messages of their own.
Whether a claim runs out before the game ends depends on the machine's speed, so the check
holds for both; the second case runs a claim out mid-game on purpose. Needs PostgreSQL, like
tests/e2e/test_stalled.py (skipped without it; ``REQUIRE_POSTGRES=1`` makes that a failure).
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from db.opening import open_store
from presentation import UIS
from presentation.viewing import names_of
from service.games import GameService
from service.reports import Loaded
from tests.e2e.chaos import wait_until
from tests.e2e.driver import open_game, quiet
from tests.e2e.ledger import Database
from tests.e2e.test_owed_after_kills import _is_result, _posted
from tests.e2e.test_round_fold import _live_table, _summaries
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

pytestmark = pytest.mark.timeout(180)

JSON = dict[str, Any]
REPAIRED_WITHIN = 40.0  # seconds: the bot's repairs look every 10 s, then the post's slot


def _round_ended(loaded: Loaded, before: Any, after: Any) -> bool:
    """The bot's own test (delivery.owed.OwedPosts.round_ended), without its memo."""
    game = loaded.game
    views = game.view(before, None), game.view(after, None)
    return bool(UIS[loaded.row.game].summaries(*views, names_of(loaded)))


def _each_row_shown_once(fake: FakeDiscord, channel: int, sent: list[JSON]) -> None:
    """Every owed row went out in a message of the channel carrying its hand's summary (the
    result carries the last hand's), and no message carries a summary no row went out in: a
    row folded into a table shares that message with the other rows folded there."""
    rows_in = Counter(int(r["message_id"]) for r in sent)
    assert set(rows_in) <= {int(m["id"]) for m in fake.messages(channel)}
    for message_id, rows in rows_in.items():
        born = fake.message_versions(message_id)[0]
        assert len(_summaries(born)) == rows, f"message {message_id} for {rows} rows: {born}"
    carried = sum(
        len(_summaries(fake.message_versions(int(m["id"]))[0])) for m in fake.messages(channel)
    )
    assert carried == len(sent), "a summary was posted twice"


@pytest.mark.parametrize("midway", [False, True], ids=["after-the-game", "midway"])
async def test_a_running_bot_posts_what_a_dead_process_owed_once(
    midway: bool, fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.1
    channel, alice = fake.channel_named("games"), fake.user_named("alice")
    bot = BotProcess(fake, tmp_path / "bot.log")
    db = Database(pg_database)
    db.watch_shown(fake)
    store = await open_store(pg_database)
    dead = GameService(store, turn_timeout=0)
    dead.round_ended = _round_ended
    try:
        await bot.start(
            env={
                "DATABASE_URL": pg_database,
                "DATABASE_PATH": str(tmp_path / "bot.db"),  # its heartbeat file only
                "TURN_TIMEOUT_SECONDS": "0",
            }
        )
        await open_game(fake, channel, alice, [], computers=1, game="hearts")
        [game_id] = [int(r["id"]) for r in await db.rows("SELECT id FROM games")]
        rng, loaded = random.Random(7), await dead.load(game_id)
        while loaded.row.status == "active":  # the other process plays the whole game
            if midway and await _owed(db, game_id):
                midway = False
                await _fold_the_first_hand(fake, db, game_id)
            seat = loaded.seat_of(alice)
            assert seat is not None
            if seat.seat not in loaded.game.to_act(loaded.state):
                await asyncio.sleep(0.05)  # the bot plays the computer's lead
                loaded = await dead.load(game_id)
                continue
            action = rng.choice(loaded.game.legal_actions(loaded.state, seat.seat))
            loaded = (await dead.act(game_id, alice, seat.step, str(action))).after
        assert not midway, "the game ended before its first hand's summary was owed"
        owed = await _owed(db, game_id)
        assert owed and owed[-1]["body"] == '{"result": true}'  # ... and that process is gone

        def posted() -> bool:
            return any(_is_result(m) for m in fake.messages(channel))

        assert await wait_until(posted, 60, step=0.2), "nobody posted the result"
        await quiet(fake)
        sent = await db.rows(f"SELECT sent_at, message_id FROM outbox WHERE game_id = {game_id}")
        assert len(sent) == len(owed) and all(r["sent_at"] is not None for r in sent)
        _each_row_shown_once(fake, channel, sent)
        said = fake.messages(channel)
        assert sum(_is_result(m) for m in said) == 1
        posts = [_posted(m) for m in said if m.get("embeds")]
        assert len(posts) == len(set(posts)), "a summary was posted twice"
    except BaseException:
        sys.stdout.write(f"\n---- bot log ----\n{bot.log_text()[-6000:]}\n")
        raise
    finally:
        await bot.stop()
        await db.close()
        await store.close()


async def _owed(db: Database, game_id: int) -> list[JSON]:
    return await db.rows(f"SELECT kind, body FROM outbox WHERE game_id = {game_id} ORDER BY id")


async def _fold_the_first_hand(fake: FakeDiscord, db: Database, game_id: int) -> None:
    """The dead process's claim on the first hand's summary runs out while the game goes on:
    the bot's next repair takes it, and it rides on the next table, above it."""
    await db.rows(f"UPDATE outbox SET claimed_until = 0 WHERE game_id = {game_id}")

    async def sent() -> list[JSON]:
        return await db.rows(
            f"SELECT message_id FROM outbox WHERE game_id = {game_id} AND sent_at IS NOT NULL"
        )

    deadline = asyncio.get_running_loop().time() + REPAIRED_WITHIN
    while not (rows := await sent()) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.2)
    assert rows, "nobody posted the first hand's summary"
    [row] = rows
    born = fake.message_versions(int(row["message_id"]))[0]
    assert len(_summaries(born)) == 1 and _live_table(born), born
