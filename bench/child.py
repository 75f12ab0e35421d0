"""A benchmark's measurement in a process of its own: ``python -m MODULE ...`` printing JSON.

The yardsticks (``bench.commit``, ``bench.machine``) are measured apart from the harness, whose
process also serves the fake Discord and would count that work as theirs.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def json_from(module: str, *args: str) -> Any:
    """Run ``module`` with this interpreter and ``args``; what it printed, as JSON."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, *args, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"{module} exited with {child.returncode}")
    return json.loads(out)
