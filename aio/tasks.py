"""Stopping tasks."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Task[Any]) -> None:
    """Cancel ``tasks`` and wait until each has stopped; their cancellation is not raised here
    (another exception a task ended with is)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
