"""The table page's loading in Chromium, for tests/e2e/test_page_load.py and bench/page_load.py:
a throttled tab (the CPU slowed down, a slow network) and what its loading took and fetched.

The slow network is Chrome DevTools' "Fast 3G" preset (its ``Fast3GConditions``, also
Lighthouse's mobile throttling): 562.5 ms of latency per request, 180000 bytes/s down and
84375 bytes/s up; the CPU 4 times slower. The page marks ``interactive`` (page/src/main.ts)
once the first control of its table or lobby is drawn enabled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CPU_SLOWDOWN = 4
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 180000,
    "uploadThroughput": 84375,
}
MARK = "interactive"
# What the page's own timings say once it marked itself usable (ms since navigation).
TIMINGS = """() => {
  const mark = performance.getEntriesByName('interactive')[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const fetched = performance.getEntriesByType('resource').map(r => ({
    name: r.name, start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize}));
  return {interactive: mark ? mark.startTime : null,
          html: nav ? nav.responseEnd : null, htmlBytes: nav ? nav.encodedBodySize : 0,
          resources: fetched};
}"""


@dataclass
class Loaded:
    """One page load: ms from navigation to the ``interactive`` mark and to the document's
    last byte, each resource fetched (name, start ms, end ms, bytes as sent) and the
    document's bytes as sent (0 when it came from the cache unasked)."""

    interactive: float
    html: float
    resources: list[dict[str, Any]] = field(default_factory=list)
    html_bytes: int = 0

    def ended(self, part: str) -> float | None:
        """When the first resource whose URL holds ``part`` was in (ms), if one was."""
        return next((r["end"] for r in self.resources if part in r["name"]), None)


async def throttle(page: Any) -> None:
    """``page``'s CPU and network slowed down as the module says (before it navigates)."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    await cdp.send("Network.enable")
    await cdp.send("Network.emulateNetworkConditions", FAST_3G)


async def load(page: Any, url: str, timeout: float = 30.0) -> Loaded:
    """Navigate ``page`` to ``url`` and wait for its ``interactive`` mark."""
    await page.goto(url)
    await page.wait_for_function(
        "m => performance.getEntriesByName(m).length > 0", arg=MARK, timeout=timeout * 1000
    )
    found = await page.evaluate(TIMINGS)
    return Loaded(
        float(found["interactive"]),
        float(found["html"]),
        found["resources"],
        int(found["htmlBytes"] or 0),
    )
