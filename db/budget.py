"""Discord's rate limits as one budget for every process on a PostgreSQL database.

Each process asks the database before a REST call: the function ``take_rest_slots``
(migration 017, its statements cut in 024) counts the call in each of its buckets (its
channel's and the bot's global one) if in every one fewer than its ``limit`` calls were made
in the last ``period`` seconds by any process, or answers how long until they have room,
counting it in none. A sliding window, stricter than Discord's fixed ones whatever their
phase; one round trip per REST call. (Migration 013's ``take_rest_slot`` is the same for a
single bucket.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from db.sql import text_array

# The limits and periods go as text (db/sql.py text_array): no type for asyncpg to look up.
TAKE_SLOTS = "SELECT take_rest_slots($1::text[], $2::text[]::int[], $3::text[]::float8[])"
TAKE_SLOT = "SELECT take_rest_slot($1, $2, $3::float8)"  # one bucket alone (bench.rest_slot)

# One bucket a call counts in: (key, at most this many calls, in any this many seconds).
Bucket = tuple[str, int, float]


def columns(buckets: Sequence[Bucket]) -> tuple[list[str], list[str], list[str]]:
    """The buckets as :data:`TAKE_SLOTS`'s three ``text[]`` parameters."""
    keys = [b[0] for b in buckets]
    return keys, text_array(b[1] for b in buckets), text_array(float(b[2]) for b in buckets)


def wait_of(value: Any) -> float:
    """The function's answer as seconds to wait (0: the call may go now)."""
    return 0.0 if value is None else float(value)
