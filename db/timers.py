"""Turn timers (``store.timers``): the seats whose timer ran out, claimed by one process each,
and the flags a timeout sets (autopilot, timeouts in a row)."""

from __future__ import annotations

from typing import Any

from db.models import SeatRow
from db.sql import Part, update_seat

# Seconds a claimed timer stays with its claimer. Playing a timeout takes milliseconds; a
# claimer that died holds the timer this long. A claimer still at work when its lease ends
# loses nothing: the second claimer's move fails its version check.
DEFAULT_CLAIM_LEASE = 10.0


class Timers(Part):
    async def claim_due_seats(
        self, now: float, limit: int = 10, *, lease: float = DEFAULT_CLAIM_LEASE
    ) -> list[SeatRow]:
        """Take up to ``limit`` seats of active games whose turn timer ran out by ``now``.

        Each seat is handed to exactly one caller, whatever the number of processes: it is
        marked ``claimed_until = now + lease`` in the same transaction that found it (rows
        another process is claiming are skipped, not waited for). The claim ends when a move
        rewrites the seat's timer (``store.play.record_move``), on ``clear_deadline`` or
        ``release_claim``; if the claimer dies, the seat is due again once the lease is over.
        """
        if limit <= 0:
            return []
        claimed: list[SeatRow] = []
        async with self._sql.transaction() as tx:
            due = await tx.fetch(
                "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.deadline IS NOT NULL AND s.deadline <= ? AND g.status = 'active' "
                "AND (s.claimed_until IS NULL OR s.claimed_until <= ?) "
                f"ORDER BY s.deadline, s.game_id, s.seat LIMIT ?{self._sql.claim_lock}",
                float(now),
                float(now),
                limit,
            )
            for row in due:
                taken = await tx.fetch(
                    "UPDATE seats SET claimed_until = ? WHERE game_id = ? AND seat = ? RETURNING *",
                    float(now + lease),
                    row["game_id"],
                    row["seat"],
                )
                claimed.extend(SeatRow.from_row(r) for r in taken)
        return claimed

    async def release_claim(self, game_id: int, seat: int) -> None:
        """Give a claimed timer back without moving (it is due again at once)."""
        await update_seat(self._sql, game_id, seat, claimed_until=None)

    async def set_seat_flags(
        self, game_id: int, seat: int, *, autopilot: bool | None = None, timeouts: int | None = None
    ) -> None:
        fields: dict[str, Any] = {}
        if autopilot is not None:
            fields["autopilot"] = bool(autopilot)
        if timeouts is not None:
            fields["timeouts"] = timeouts
        await update_seat(self._sql, game_id, seat, **fields)

    async def clear_deadline(self, game_id: int, seat: int) -> None:
        await update_seat(self._sql, game_id, seat, deadline=None, claimed_until=None)

    async def earliest_deadline(self) -> tuple[int, int, float] | None:
        """(game id, seat, deadline) of the soonest running turn timer, if any."""
        rows = await self._sql.fetch(
            "SELECT s.game_id, s.seat, s.deadline FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.deadline IS NOT NULL AND g.status = 'active' ORDER BY s.deadline LIMIT 1"
        )
        if not rows:
            return None
        return int(rows[0]["game_id"]), int(rows[0]["seat"]), float(rows[0]["deadline"])

    async def next_claimable_at(self) -> float | None:
        """When the next timer can be claimed: its deadline, or the end of a running claim."""
        rows = await self._sql.fetch(
            "SELECT MIN(CASE WHEN s.claimed_until IS NOT NULL AND s.claimed_until > s.deadline "
            "THEN s.claimed_until ELSE s.deadline END) AS due "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.deadline IS NOT NULL AND g.status = 'active'"
        )
        due = rows[0]["due"] if rows else None
        return None if due is None else float(due)

    async def stalled_games(self, now: float, limit: int = 50) -> list[int]:
        """Running games whose automatic moves were due by ``now`` and not played (the process
        playing them stopped, or they failed), longest waiting first."""
        rows = await self._sql.fetch(
            "SELECT id FROM games WHERE resume_after IS NOT NULL AND resume_after <= ? "
            "AND status = 'active' ORDER BY resume_after LIMIT ?",
            now,
            limit,
        )
        return [int(r["id"]) for r in rows]

    async def stop_resuming(self, game_id: int, version: int) -> None:
        """The game at ``version`` has no automatic move due after all: stop looking at it."""
        async with self._sql.transaction() as tx:
            await tx.execute(
                "UPDATE games SET resume_after = NULL WHERE id = ? AND version = ?",
                game_id,
                version,
            )
