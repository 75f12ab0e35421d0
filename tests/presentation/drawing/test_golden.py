"""Golden pictures by hash: a change to any look or layout shows up here.

After an intended change, look at the new pictures and rewrite the hashes:
``python -m tests.presentation.drawing.regen --out /tmp/pictures``.
"""

from __future__ import annotations

import json

import PIL
import pytest

from tests.presentation.drawing.regen import CASES, GOLDEN, digest, reference, render_all


@pytest.mark.parametrize("kit", ["sha256", "reference"])
def test_goldens_match(kit: str) -> None:
    """Kept parts (``sha256``) and the reference way (``reference``) both as pinned."""
    golden = json.loads(GOLDEN.read_text())
    if golden["pillow"] != PIL.__version__:
        pytest.skip(f"goldens made with Pillow {golden['pillow']}, running {PIL.__version__}")
    assert set(golden[kit]) == set(CASES)
    drawn = render_all() if kit == "sha256" else render_all(reference())
    changed = {name for name, data in drawn.items() if digest(data) != golden[kit][name]}
    assert not changed, (
        f"pictures changed: {sorted(changed)}; see tests/presentation/drawing/regen.py"
    )


def test_goldens_cover_every_game_and_kind() -> None:
    names = set(CASES)
    for game in ("grinch", "gnome", "hearts", "ten"):
        for kind in ("cards", "hand", "table", "summary", "chart"):
            assert f"{game}-{kind}" in names
