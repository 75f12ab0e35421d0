"""Golden pictures by hash: a change to any look or layout shows up here.

After an intended change, look at the new pictures and rewrite the hashes:
``python -m tests.presentation.drawing.regen --out /tmp/pictures``.
"""

from __future__ import annotations

import json

import PIL
import pytest

from tests.presentation.drawing.regen import CASES, GOLDEN, digest, render_all


def test_goldens_match() -> None:
    golden = json.loads(GOLDEN.read_text())
    if golden["pillow"] != PIL.__version__:
        pytest.skip(f"goldens made with Pillow {golden['pillow']}, running {PIL.__version__}")
    assert set(golden["sha256"]) == set(CASES)
    changed = {
        name for name, data in render_all().items() if digest(data) != golden["sha256"][name]
    }
    assert not changed, (
        f"pictures changed: {sorted(changed)}; see tests/presentation/drawing/regen.py"
    )


def test_goldens_cover_every_game_and_kind() -> None:
    names = set(CASES)
    for game in ("grinch", "gnome", "hearts", "ten"):
        for kind in ("cards", "hand", "table", "summary", "chart"):
            assert f"{game}-{kind}" in names
