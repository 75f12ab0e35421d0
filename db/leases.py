"""Shard leases on PostgreSQL: which live process runs which gateway shards.

A process takes all of its shards in one call (``take_shard_leases``, migration 014), or none
when a live lease of another process overlaps one of them; it renews them every few seconds
(``renew_shard_leases``) and deletes them on a clean stop. The database's clock sets every
expiry, so the hosts' clocks never need to agree. What a process does with a refusal or a
lost lease is runtime/leasing.py's part.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from math import gcd
from typing import Any

# The shards go as text (db/sql.py text_array): no array type for asyncpg to look up.
TAKE = "SELECT * FROM take_shard_leases($1, $2::text[]::integer[], $3, $4::float8)"
RENEW = "SELECT renew_shard_leases($1, $2::float8)"
RELEASE = "DELETE FROM shard_leases WHERE holder = $1"
HELD = "SELECT shard_count, shard_id, holder, expires_at FROM shard_leases ORDER BY 1, 2"


@dataclass(frozen=True, slots=True)
class HeldShard:
    """A live lease in the way: shard ``shard_id`` of ``shard_count``, held by ``holder`` until
    ``expires_at`` (``seconds_left`` from now), overlapping the wanted shard ``overlapping``."""

    shard_count: int
    shard_id: int
    holder: str
    expires_at: datetime
    seconds_left: float
    overlapping: int


def held_shard(row: Any) -> HeldShard | None:
    """The refusal ``take_shard_leases`` returned, or None when it took the shards."""
    if row is None:
        return None
    return HeldShard(
        int(row["held_count"]),
        int(row["held_id"]),
        str(row["held_by"]),
        row["held_until"],
        max(0.0, float(row["seconds_left"])),
        int(row["overlapping"]),
    )


def overlaps(count: int, shard: int, other_count: int, other_shard: int) -> bool:
    """Whether shard ``shard`` of ``count`` and ``other_shard`` of ``other_count`` can both
    receive one guild's events (guild g is on shard (g >> 22) % count): the rule the SQL
    function applies, written out for the tests and the docs."""
    return (shard - other_shard) % gcd(count, other_count) == 0
