"""A clock for tests: it moves only when told, so a rule about time is tested without timers."""

from __future__ import annotations


class Clock:
    """Callable as ``time.monotonic`` or ``time.time`` is; ``now`` is set or moved by the test."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
