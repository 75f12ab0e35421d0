"""What the bot owes a game's channel, kept until it is sent (``store.outbox``, both engines).

A move that ends a round, the game, or is played for a player whose timer ran out, and a
player's leave, owe the channel a message. The service writes one ``outbox`` row per message
in the transaction that records the move (:func:`owed_statement`, added to
``Play.record_move``'s statements), so a process that stops before posting it leaves the row
behind; the delivery layer posts each row, then marks it sent (:meth:`Outbox.owed_sent`).

Who posts a row: the process that wrote it holds a claim on it from the start (``claimed_by``,
``claimed_until``); the repairs of every process take rows whose claim ran out
(:meth:`Outbox.claim_owed`, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so each row goes to one
process at a time). On SQLite one process owns the file (its OS lock), so a claim held by
another holder is a stopped process's: the row is taken at once.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from db.columns import from_columns
from db.sql import Part, Statement

# Seconds a process keeps the rows it claimed to itself. Posting one takes well under a
# second; a claimer that died holds its rows this long before another process posts them. A
# row still waiting in a busy channel's queue when its claim runs out may be posted by another
# process too: both posts carry its nonce, and Discord creates one message.
OWED_LEASE = 20.0
SENT_KEPT = 24 * 3600.0  # seconds a sent row is kept before the repairs delete it

_COLUMNS = "game_id, version, kind, body, nonce, created_at, claimed_by, claimed_until"


@dataclass(frozen=True, slots=True)
class Owed:
    """One message owed to a game's channel: its ``kind`` ("summary": the round that ended
    at ``version``, the result if ``body`` says so; "line": a public line), its ``body``
    (JSON, read by service.owed) and its ``nonce`` (unique; it names the row)."""

    game_id: int
    version: int
    kind: str
    body: str
    nonce: str
    id: int | None = None  # None until read back from the database

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Owed:
        return from_columns(cls, row)


def new_nonce() -> str:
    """A create-message nonce (Discord takes up to 25 characters): random, so that no other
    message of the bot, from this database or a restored copy of it, ever has it."""
    return secrets.token_hex(10)


def owed_statement(owed: Sequence[Owed], holder: str, now: float) -> Statement:
    """The INSERT of ``owed`` rows, claimed by ``holder`` (the process writing them, which
    posts them right after its commit)."""
    rows = [
        (o.game_id, o.version, o.kind, o.body, o.nonce, now, holder, now + OWED_LEASE) for o in owed
    ]
    sql = f"INSERT INTO outbox ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    if len(rows) == 1:  # a plain INSERT: PostgreSQL folds it into the move's one statement
        return Statement(sql, rows[0])
    return Statement(sql, rows, many=True)


class Outbox(Part):
    """The store's outbox (``store.outbox``): claim what is owed, mark it sent or give it
    back."""

    async def claim_owed(
        self, now: float | None = None, *, limit: int = 20, lease: float = OWED_LEASE
    ) -> list[Owed]:
        """Take up to ``limit`` unsent rows nobody holds (their claim ran out, or, on
        SQLite, another holder's), oldest first, for ``lease`` seconds."""
        now = time.time() if now is None else now
        others = "" if self._sql.claims_shared else " OR claimed_by <> ?"
        args: list[Any] = [self._sql.holder, now + lease, now]
        args += [] if self._sql.claims_shared else [self._sql.holder]
        async with self._sql.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN ("
                "SELECT id FROM outbox WHERE sent_at IS NULL "
                f"AND (claimed_until IS NULL OR claimed_until <= ?{others}) "
                f"ORDER BY id LIMIT ?{self._sql.owed_lock}) RETURNING *",
                *args,
                limit,
            )
        return sorted((Owed.from_row(r) for r in rows), key=lambda o: o.id or 0)

    async def owed_sent(self, nonce: str, message_id: int | None) -> None:
        """The row's message is in its channel (``message_id``; None: Discord refused it for
        good, e.g. the channel is gone): never sent again."""
        await self._sql.write_all(
            [
                Statement(
                    "UPDATE outbox SET sent_at = ?, message_id = ?, claimed_until = NULL "
                    "WHERE nonce = ?",
                    (time.time(), message_id, nonce),
                )
            ]
        )

    async def release_owed(self, nonce: str) -> None:
        """Give a row back unsent (posting it failed for now): the next repair takes it."""
        await self._sql.write_all(
            [
                Statement(
                    "UPDATE outbox SET claimed_until = NULL WHERE nonce = ? AND sent_at IS NULL",
                    (nonce,),
                )
            ]
        )

    async def prune_owed(self, now: float | None = None, *, kept: float = SENT_KEPT) -> None:
        """Delete the rows sent more than ``kept`` seconds ago."""
        now = time.time() if now is None else now
        await self._sql.write_all(
            [Statement("DELETE FROM outbox WHERE sent_at < ?", (now - kept,))]
        )

    async def unsent(self, game_id: int) -> list[Owed]:
        """The game's rows not sent yet, oldest first (tests and checks)."""
        async with self._sql.reading() as tx:
            rows = await tx.fetch(
                "SELECT * FROM outbox WHERE game_id = ? AND sent_at IS NULL ORDER BY id",
                game_id,
            )
        return [Owed.from_row(r) for r in rows]
