"""Discord's rate limits as one budget for every process on a PostgreSQL database.

Each process asks the database before a REST call: the function ``take_rest_slot`` (migration
013) counts the call in its bucket if fewer than ``limit`` calls were made in the last
``period`` seconds by any process, or answers how long until one leaves the window. A sliding
window, stricter than Discord's fixed ones whatever their phase; one round trip per bucket.
"""

from __future__ import annotations

from typing import Any

TAKE_SLOT = "SELECT take_rest_slot($1, $2, $3::float8)"


def wait_of(value: Any) -> float:
    """The function's answer as seconds to wait (0: the call may go now)."""
    return 0.0 if value is None else float(value)
