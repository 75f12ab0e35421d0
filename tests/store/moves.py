"""A player's move recorded straight through the store (for the store's own tests)."""

from __future__ import annotations

from db.models import Actor
from db.play import SeatUpdate
from db.store import Store


async def record(
    store: Store,
    game: int,
    version: int,
    snapshot: str = "{}",
    deadline: float | None = None,
    *,
    resume_after: float | None = None,
) -> int:
    """Seat 0 plays ``a.<version>`` on top of ``version``; the new version."""
    return await store.play.record_move(
        game,
        expected_version=version,
        seat=0,
        action=f"a.{version}",
        actor=Actor.PLAYER,
        snapshot=snapshot,
        seat_updates=[SeatUpdate(0, deadline, 0, False)],
        resume_after=resume_after,
    )
