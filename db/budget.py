"""Discord's rate limits as one budget for every process on a PostgreSQL database.

Each process asks the database before a REST call: the function ``take_rest_slots``
(migration 017, its statements cut in 024 and 025) counts the call in each of its buckets
(its channel's and the bot's global one) if in every one fewer than its ``limit`` calls were
made in the last ``period`` seconds by any process, or answers how long until they have room,
counting it in none. A sliding window, stricter than Discord's fixed ones whatever their
phase; one round trip per REST call. A bucket's first call ever finds no row for it: the
function answers :data:`MISSING`, and the caller makes the rows (:data:`MAKE_BUCKETS`, in a
transaction of its own, holding no bucket) and asks again. (Migration 013's
``take_rest_slot`` is the same for a single bucket, and makes its row itself.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from db.sql import text_array

# The limits and periods go as text (db/sql.py text_array): no type for asyncpg to look up.
TAKE_SLOTS = "SELECT take_rest_slots($1::text[], $2::text[]::int[], $3::text[]::float8[])"
TAKE_SLOT = "SELECT take_rest_slot($1, $2, $3::float8)"  # one bucket alone (bench.rest_slot)
MAKE_BUCKETS = (
    "INSERT INTO rest_buckets (key, calls) SELECT k, '{}' FROM unnest($1::text[]) AS k "
    "ORDER BY k ON CONFLICT (key) DO NOTHING"
)
MISSING = -1.0  # TAKE_SLOTS' answer when a bucket has no row yet (migration 025)

# One bucket a call counts in: (key, at most this many calls, in any this many seconds).
Bucket = tuple[str, int, float]


def columns(buckets: Sequence[Bucket]) -> tuple[list[str], list[str], list[str]]:
    """The buckets as :data:`TAKE_SLOTS`'s three ``text[]`` parameters."""
    keys = [b[0] for b in buckets]
    return keys, text_array(b[1] for b in buckets), text_array(float(b[2]) for b in buckets)


def missing(value: Any) -> bool:
    """Whether :data:`TAKE_SLOTS` answered that a bucket has no row (nothing was counted)."""
    return value is not None and float(value) == MISSING


def wait_of(value: Any) -> float:
    """The function's answer as seconds to wait (0: the call may go now)."""
    return 0.0 if value is None else float(value)
