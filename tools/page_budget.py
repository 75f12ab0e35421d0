"""The table page's byte budget, checked by its build (``npm run build``, so ``make page``):
``python3 tools/page_budget.py [page/dist]`` prints what the built page weighs and exits 1
when it is over budget.

Sizes are gzip's (level 9), as the web server sends them (the build writes a ``.gz`` beside
each file). Two budgets:

- start: ``index.html`` itself, with the start-up script and stylesheet the build writes
  inside it (page/vite.config.ts), and the scripts and stylesheets it names (``<script
  src>``, ``<link href>`` of a stylesheet or a module preload): what every viewer fetches
  before the page can draw;
- all: the start and every other script and stylesheet of the build, chunks fetched later
  (the Embedded App SDK, inside Discord only) included.

Only the standard library: the page's build runs it with any Python 3.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

# The page's own code with the four languages' words (32 kB gzip) and its stylesheet (3 kB),
# inside index.html, with room for a few more screens: at Fast 3G's 180,000 B/s, 40 kB is
# 0.22 s of the start.
START_BUDGET = 40_000  # bytes, gzip
ALL_BUDGET = 95_000  # the start and the Embedded App SDK's chunk (48 kB)
INDEX = "index.html"
ASSET = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)="\.?/?([^"]+\.(?:js|css))\"""")
DIST = Path(__file__).resolve().parent.parent / "page" / "dist"


def gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))


def start_files(dist: Path) -> list[Path]:
    """index.html (its inline script and stylesheet) and the scripts and stylesheets it names."""
    html = (dist / INDEX).read_text(encoding="utf-8")
    return [dist / INDEX, *(dist / name for name in ASSET.findall(html))]


def all_files(dist: Path) -> list[Path]:
    files = sorted(p for p in dist.rglob("*") if p.suffix in (".js", ".css") and p.is_file())
    return [dist / INDEX, *files]


def over_budget(dist: Path, start: int = START_BUDGET, total: int = ALL_BUDGET) -> list[str]:
    """Why the build at ``dist`` is over budget (nothing when it is within)."""
    start_bytes = sum(gzip_size(p) for p in start_files(dist))
    all_bytes = sum(gzip_size(p) for p in all_files(dist))
    problems = []
    if start_bytes > start:
        problems.append(
            f"index.html and its scripts and stylesheets: {start_bytes} bytes gzip > {start}"
        )
    if all_bytes > total:
        problems.append(f"all scripts and stylesheets: {all_bytes} bytes gzip > {total}")
    return problems


def report(dist: Path) -> str:
    lines = []
    started = set(start_files(dist))
    for path in all_files(dist):
        when = "start" if path in started else "later"
        lines.append(f"{when:5} {gzip_size(path):7d} B gzip  {path.relative_to(dist)}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    dist = Path(argv[0]) if argv else DIST
    print(report(dist))
    problems = over_budget(dist)
    for problem in problems:
        print(f"page over budget: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
