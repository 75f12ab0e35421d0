"""Playing several games at once by clicks, keeping a ledger of every acknowledged move, and
reading the database back on either engine (for tests/e2e/test_shards.py)."""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from tests.e2e.driver import MOVE_STALL, answered, movable, move_accepted, open_hand, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import HANDS_UNSETTLED, TABLE_BEHIND

Rows = list[dict[str, Any]]


@dataclass
class Ledger:
    """Moves the bot acknowledged (game id, action text), and clicks it refused."""

    acked: Counter[tuple[int, str]] = field(default_factory=Counter)
    refused: int = 0

    @property
    def clicks(self) -> int:
        return sum(self.acked.values()) + self.refused


class Database:
    """The test's view of the bot's database: SQLite file or PostgreSQL URL."""

    def __init__(self, target: str | Path) -> None:
        self.target = target
        self._conn: asyncpg.Connection[asyncpg.Record] | None = None
        self.all_shown = True  # every started game fully shown (polled for PostgreSQL)
        self.hands_settled = False  # every hand shown, no automatic move due (the same)
        self.hands_polled_at = -math.inf  # when the query that said so started (monotonic)
        self._poller: asyncio.Task[None] | None = None

    @property
    def is_postgres(self) -> bool:
        return str(self.target).startswith("postgresql://")

    async def rows(self, sql: str) -> Rows:
        if not self.is_postgres:
            return await asyncio.to_thread(self._sqlite_rows, sql)
        if self._conn is None:
            self._conn = await asyncpg.connect(str(self.target))
        return [dict(r) for r in await self._conn.fetch(sql)]

    def _sqlite_rows(self, sql: str) -> Rows:
        with sqlite3.connect(f"file:{self.target}?mode=ro", uri=True, timeout=5) as conn:
            conn.row_factory = sqlite3.Row
            return [dict(r) for r in conn.execute(sql)]

    def watch_shown(self, fake: FakeDiscord) -> None:
        """PostgreSQL: let driver.quiet() wait until every game is shown (rendered_version),
        and between two clicks until every hand is (seats' shown_version) and no automatic
        move is due, as it does on its own for SQLite files. A poll counts for the wait
        between clicks only if it started after the bot's last request."""
        if not self.is_postgres:
            return

        async def poll() -> None:
            shown = f"SELECT COUNT(*) FROM games WHERE {TABLE_BEHIND}"
            hands = f"SELECT COUNT(*) FROM games WHERE {HANDS_UNSETTLED}"
            conn = await asyncpg.connect(str(self.target))  # its own: the test's is in use
            try:
                while True:
                    started = time.monotonic()
                    try:
                        self.all_shown = await conn.fetchval(shown) == 0
                        self.hands_settled = await conn.fetchval(hands) == 0
                        self.hands_polled_at = started
                    except asyncpg.UndefinedTableError:  # the bot has not made its tables yet
                        self.all_shown, self.hands_settled = True, False
                    await asyncio.sleep(0.05)
            finally:
                await conn.close()

        def hands_settled() -> bool:
            last = fake.requests[-1].at if fake.requests else -math.inf
            return self.hands_settled and self.hands_polled_at > last

        self._poller = asyncio.create_task(poll())
        fake.settle_checks.append(lambda: self.all_shown)
        fake.hand_checks.append(hands_settled)

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            await asyncio.gather(self._poller, return_exceptions=True)  # its connection closed
        if self._conn is not None:
            await self._conn.close()

    async def statuses(self) -> dict[int, str]:
        rows = await self.rows("SELECT id, status FROM games")
        return {int(r["id"]): str(r["status"]) for r in rows}

    async def all_over(self) -> bool:
        return all(s in ("finished", "cancelled") for s in (await self.statuses()).values())

    async def describe(self) -> str:
        """Every game and seat as the database has them, for a failing test's output."""
        try:
            games = await self.rows(
                "SELECT id, game, status, version, rendered_version, resume_after FROM games "
                "ORDER BY id"
            )
            seats = await self.rows(
                "SELECT game_id, seat, user_id, is_computer, step, deadline, shown_version, "
                "dm_message_id FROM seats ORDER BY game_id, seat"
            )
        except (OSError, sqlite3.Error, asyncpg.PostgresError) as exc:  # it failed already
            return f"(no database to describe: {exc!r})"
        return "\n".join(str(row) for row in (*games, *seats))

    async def actions(self) -> Rows:
        return await self.rows("SELECT game_id, seq, seat, action, actor, at FROM actions")


def _parse(custom_id: str) -> tuple[int, str]:
    """``g:<game id>:<step>:<action>`` -> (game id, action)."""
    _, game_id, _step, action = custom_id.split(":", 3)
    return int(game_id), action


async def click_one(
    fake: FakeDiscord,
    users: list[int],
    rng: random.Random,
    ledger: Ledger,
    *,
    hands: dict[int, int] | None = None,
) -> bool:
    """One user with a live move button clicks one (from their DMs, or from the ephemeral
    hand in ``hands``); the answer goes in the ledger. False if nobody could move."""
    candidates = movable(fake, users, hands or {})
    if not candidates:
        return False
    user, message, options = rng.choice(candidates)
    custom_id = rng.choice(options).custom_id or ""
    message_id = int(message["id"])
    versions = len(fake.message_versions(message_id))
    rec = await fake.click(user, message_id, custom_id)
    reply = await rec.wait_response()
    if move_accepted(reply):
        await fake.wait_for(lambda: answered(fake, rec, message_id, versions), timeout=15)
    if move_accepted(reply) and not rec.followups():
        ledger.acked[_parse(custom_id)] += 1
    else:  # raced by a timeout or a computer: "That move is no longer available."
        ledger.refused += 1
    await quiet(fake, next_move=True)
    return True


async def play(
    fake: FakeDiscord,
    users: list[int],
    rng: random.Random,
    ledger: Ledger,
    *,
    until: Callable[[], Awaitable[bool]],
    moves: int = 1000,
    hand_channel: int | None = None,
    stall: float = MOVE_STALL,
) -> int:
    """Click until ``until()`` or ``moves`` clicks; waits out turns of absent players and
    computers (no live button), failing after ``stall`` seconds without one. With
    ``hand_channel``, users play from a fresh **My hand** on that channel's table instead of
    their DMs (a channel interaction, on that guild's shard)."""
    made = 0
    idle_since = time.monotonic()
    while made < moves and not await until():
        hands = None
        if hand_channel is not None:
            try:
                hands = {u: await open_hand(fake, u, hand_channel) for u in users}
            except LookupError:  # no live table this instant (between two rounds)
                hands = None
        if (hand_channel is None or hands) and await click_one(
            fake, users, rng, ledger, hands=hands
        ):
            made += 1
            idle_since = time.monotonic()
            continue
        if time.monotonic() - idle_since > stall:
            raise AssertionError(f"nobody could move for {stall:.0f} s; clicks so far {made}")
        await asyncio.sleep(0.2)
    await quiet(fake)  # the tables and the bot's other messages too, before the caller reads
    return made


async def assert_exactly_once(db: Database, ledger: Ledger) -> Rows:
    """Every game finished, and the logged player moves are exactly the acknowledged clicks;
    returns the action log."""
    statuses = await db.statuses()
    assert set(statuses.values()) == {"finished"}, statuses
    actions = await db.actions()
    played = Counter(
        (int(a["game_id"]), str(a["action"])) for a in actions if a["actor"] == "player"
    )
    assert played == ledger.acked, (played - ledger.acked, ledger.acked - played)
    return actions
