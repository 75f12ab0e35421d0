"""A viewer's socket for the page's tests: it records the frames it was sent."""

from __future__ import annotations

import json
from typing import Any


class Socket:
    """What a viewer's socket was sent, each frame decoded."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_str(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def last(self, kind: str) -> dict[str, Any]:
        """The newest frame of ``kind``."""
        return next(f for f in reversed(self.sent) if f["type"] == kind)
