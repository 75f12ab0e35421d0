"""tools/page_budget.py: the page's build fails when its scripts and stylesheets weigh more
than their budget."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tools import page_budget

INDEX = """<!doctype html><html><head>
<script type="module" crossorigin src="./assets/index-a.js"></script>
<link rel="stylesheet" crossorigin href="./assets/index-b.css">
</head><body></body></html>"""


def built(folder: Path, start_js: int, later_js: int) -> Path:
    """A build whose start-up script and later chunk do not compress (random bytes)."""
    rng = random.Random(7)
    assets = folder / "assets"
    assets.mkdir(parents=True)
    (folder / "index.html").write_text(INDEX)
    (assets / "index-a.js").write_bytes(rng.randbytes(start_js))
    (assets / "index-b.css").write_text("body{margin:0}" * 50)
    (assets / "discord-sdk-c.js").write_bytes(rng.randbytes(later_js))
    return folder


def test_a_build_within_budget_passes(tmp_path: Path) -> None:
    dist = built(tmp_path, 20_000, 40_000)
    assert page_budget.over_budget(dist) == []
    assert page_budget.main([str(dist)]) == 0


def test_a_start_up_script_over_budget_fails_the_build(tmp_path: Path) -> None:
    dist = built(tmp_path, page_budget.START_BUDGET + 1_000, 1_000)
    (problem,) = page_budget.over_budget(dist)
    assert problem.startswith("index.html and its scripts and stylesheets")
    assert page_budget.main([str(dist)]) == 1


def test_a_script_inside_index_html_counts_in_the_start(tmp_path: Path) -> None:
    dist = built(tmp_path, 1_000, 1_000)
    inline = random.Random(8).randbytes(page_budget.START_BUDGET).hex()  # 4 bits a letter
    page = INDEX.replace("</head>", f'<script type="module">"{inline}"</script></head>')
    (dist / "index.html").write_text(page)
    (problem,) = page_budget.over_budget(dist)
    assert problem.startswith("index.html and its scripts and stylesheets")


def test_a_later_chunk_counts_in_all_only(tmp_path: Path) -> None:
    dist = built(tmp_path, 10_000, page_budget.ALL_BUDGET)
    (problem,) = page_budget.over_budget(dist)
    assert problem.startswith("all scripts and stylesheets")
    assert page_budget.start_files(dist) == [
        dist / "index.html",
        dist / "assets" / "index-a.js",
        dist / "assets" / "index-b.css",
    ]


def test_the_page_build_runs_the_check() -> None:
    package = json.loads((page_budget.DIST.parent / "package.json").read_text())
    assert package["scripts"]["build"].endswith("python3 ../tools/page_budget.py dist")


def test_the_built_page_is_within_budget_when_built() -> None:
    if (page_budget.DIST / "index.html").is_file():
        assert page_budget.over_budget(page_budget.DIST) == []
