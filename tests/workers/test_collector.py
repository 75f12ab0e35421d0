"""The child processes set the cyclic collector for their life, as the bot does its own."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys

import pytest

from workers import drawing, runner
from workers.runner import COLLECTOR_THRESHOLDS


def test_tune_collector_freezes_what_was_loaded_and_sets_the_thresholds() -> None:
    check = (
        "import gc; from workers.runner import tune_collector; tune_collector(); "
        "print(*gc.get_threshold(), gc.get_freeze_count() > 0)"
    )
    out = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert out == [*map(str, COLLECTOR_THRESHOLDS), "True"]


@pytest.mark.parametrize("child", ["drawing", "thinking"])
def test_each_child_tunes_its_collector_before_serving(
    child: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started with an input that ends at once, each child's main sets its collector."""
    tuned: list[str] = []
    monkeypatch.setattr(drawing, "tune_collector", lambda: tuned.append("drawing"))
    monkeypatch.setattr(runner, "tune_collector", lambda: tuned.append("runner"))
    monkeypatch.setattr(signal, "signal", lambda *_: None)  # the test's own Ctrl-C stays
    read, write = os.pipe()
    os.close(write)
    with os.fdopen(read, "rb") as source:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(source))
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO()))
        if child == "drawing":
            assert drawing.run() == 0
        else:
            assert runner.run_child({}) == 0
    assert tuned == ["drawing" if child == "drawing" else "runner"]
