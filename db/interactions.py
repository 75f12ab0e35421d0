"""Interaction ids seen by any worker on a PostgreSQL database (migration 016).

One statement: rows older than the window are dropped (an index range scan), and the id is
inserted unless present; it answers whether this was the first time.
"""

from __future__ import annotations

from typing import Final

KEEP_SECONDS: Final = 600.0  # twice the signed timestamp's window (web/interactions.py)

FIRST_TIME: Final = """
WITH pruned AS (
    DELETE FROM seen_interactions WHERE seen_at < clock_timestamp() - make_interval(secs => $2)
)
INSERT INTO seen_interactions (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING TRUE
"""
