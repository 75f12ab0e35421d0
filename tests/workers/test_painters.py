"""The drawing process: the same PNGs as drawing in this process, in the caller's language,
and a bot that never loses a message to it (a failed picture, a dead process, a closed one)."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import i18n
from engine.base import View
from presentation.drawing.api import Pictures
from presentation.drawing.painters import InThread, PictureFailed
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, views
from workers import runner as children
from workers.drawing import BLOCKS_KEPT, WORKER_MODULE, DrawingProcess
from workers.runner import HEADER_SIZE, ROOT, frame


@pytest.fixture
async def painter() -> AsyncIterator[DrawingProcess]:
    drawing = DrawingProcess()
    yield drawing
    await drawing.close()


async def test_the_process_draws_what_this_process_draws_in_the_callers_language(
    painter: DrawingProcess,
) -> None:
    position = MID_GAME["ten"]
    _, own, spectator = views(position)
    assert own is not None
    local = Pictures()
    for language in ("en", "lt"):
        with i18n.using(language):
            hand = await painter.draw("hand", own, position.names)
            table = await painter.draw("table", spectator, position.names)
            assert hand is not None and table is not None
            assert shown(hand) == shown(local.hand(own, position.names))
            assert shown(table) == shown(local.table(spectator, position.names))
    # Lithuanian words are drawn: the two languages' tables differ.
    with i18n.using("en"):
        english = await painter.draw("table", spectator, position.names)
    assert english is not None and table is not None
    assert shown(english) != shown(table)


async def test_answers_reach_their_own_callers(painter: DrawingProcess) -> None:
    """Urgent requests among the others (the child may answer them first)."""
    positions = list(MID_GAME.values())
    wanted = [Pictures().table(views(p)[2], p.names) for p in positions]
    got = await asyncio.gather(
        *(
            painter.draw("table", views(p)[2], p.names, urgent=i % 2 == 1)
            for i, p in enumerate(positions)
        )
    )
    assert all(png is not None for png in got)
    assert [shown(png or b"") for png in got] == [shown(png) for png in wanted]
    assert painter.child.started == 1


async def test_a_picture_that_fails_is_an_error_and_the_process_goes_on(
    painter: DrawingProcess,
) -> None:
    position = MID_GAME["hearts"]
    _, own, spectator = views(position)
    assert own is not None
    with pytest.raises(PictureFailed, match="owner's view"):
        await painter.draw("hand", spectator, position.names)
    with pytest.raises(PictureFailed, match="no method"):
        await painter.draw("__init__")
    assert await painter.draw("hand", own, position.names)
    assert painter.child.started == 1


async def _drawing_a_hand(painter: DrawingProcess, game: str) -> tuple[View, list[str], int]:
    """A hand of ``game``, its names, and the pid of the process that drew it once."""
    position = MID_GAME[game]
    _, own, _ = views(position)
    assert own is not None
    assert await painter.draw("hand", own, position.names)
    pid = painter.child.pid
    assert pid is not None
    return own, position.names, pid


async def test_a_dead_process_fails_its_pictures_and_the_next_one_starts_anew(
    painter: DrawingProcess,
) -> None:
    own, names, pid = await _drawing_a_hand(painter, "grinch")
    drawing = asyncio.gather(
        *(painter.draw("hand", own, names) for _ in range(30)), return_exceptions=True
    )
    await asyncio.sleep(0)
    os.kill(pid, signal.SIGKILL)
    results = await drawing
    failed = [r for r in results if isinstance(r, PictureFailed)]
    assert failed and all("stopped" in str(r) for r in failed)
    assert all(isinstance(r, bytes) for r in results if r not in failed)
    drawn = await painter.draw("hand", own, names)
    assert drawn is not None and shown(drawn) == shown(Pictures().hand(own, names))
    assert painter.child.started == 2 and painter.child.pid != pid


async def test_closing_ends_the_process_and_refuses_later_pictures() -> None:
    painter = DrawingProcess()
    own, names, pid = await _drawing_a_hand(painter, "gnome")
    await painter.close()
    assert painter.child.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(PictureFailed):
        await painter.draw("hand", own, names)


async def test_a_process_that_cannot_start_is_a_failed_picture() -> None:
    painter = DrawingProcess(command=("/nonexistent/python",))
    with pytest.raises(PictureFailed, match="cannot start"):
        await painter.draw("card", "hearts", "QS")
    await painter.close()


async def test_started_ahead_the_first_picture_uses_the_running_process(
    painter: DrawingProcess,
) -> None:
    await painter.start()
    pid = painter.child.pid
    assert pid is not None
    os.kill(pid, 0)  # running before anything was asked of it
    card = await painter.draw("card", "hearts", "QS")
    assert card is not None and shown(card) == shown(Pictures().card("hearts", "QS"))
    assert painter.child.pid == pid and painter.child.started == 1


async def test_a_start_that_fails_is_logged_and_the_first_picture_tries_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    painter = DrawingProcess(command=("/nonexistent/python",))
    await painter.start()  # does not raise: the bot starts without pictures
    assert "cannot start" in caplog.text
    with pytest.raises(PictureFailed, match="cannot start"):
        await painter.draw("card", "hearts", "QS")
    await painter.close()


async def test_a_process_that_never_answers_is_given_up_and_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(children, "CALL_TIMEOUT", 0.5)
    painter = DrawingProcess(command=(sys.executable, "-c", "import time; time.sleep(60)"))
    with pytest.raises(PictureFailed, match="did not answer"):
        await painter.draw("card", "hearts", "QS")
    stuck = painter.child.pid
    await asyncio.sleep(0.2)  # killed: its reader sees the end
    assert painter.child.pid is None and stuck is not None
    with pytest.raises(PictureFailed, match="did not answer"):
        await painter.draw("card", "hearts", "QS")
    assert painter.child.started == 2
    await painter.close()


async def test_in_thread_drawing_fails_the_same_way() -> None:
    painter = InThread()
    position = MID_GAME["hearts"]
    _, _, spectator = views(position)
    with pytest.raises(PictureFailed):
        await painter.draw("hand", spectator, position.names)
    assert await painter.draw("table", spectator, position.names)


def test_the_process_ends_when_its_input_closes() -> None:
    """The bot dying closes the pipe: the drawing process must not outlive it."""
    position = MID_GAME["hearts"]
    _, own, _ = views(position)
    assert own is not None
    child = subprocess.Popen(
        [sys.executable, "-m", WORKER_MODULE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(frame((7, "hand", "en", (own, position.names), {})))
    child.stdin.flush()
    size = int.from_bytes(child.stdout.read(HEADER_SIZE), "big")
    request_id, png, error = pickle.loads(child.stdout.read(size))
    assert (request_id, error) == (7, None)
    assert shown(png) == shown(Pictures().hand(own, position.names))
    child.stdin.close()
    assert child.wait(timeout=10) == 0


async def test_the_drawing_process_keeps_freed_image_memory(tmp_path: Path) -> None:
    """Pillow in the drawing process keeps freed blocks for the next picture (each new
    canvas would otherwise be fresh memory, a page fault per 4 kB)."""
    seen = tmp_path / "blocks"
    script = (
        "import sys, time\n"
        "from PIL import Image\n"
        "open(sys.argv[1], 'w').write(str(Image.core.get_blocks_max()))\n"
        "time.sleep(60)\n"
    )
    painter = DrawingProcess(command=(sys.executable, "-c", script, str(seen)))
    try:
        await painter.start()
        for _ in range(200):
            if seen.exists() and seen.read_text():
                break
            await asyncio.sleep(0.05)
        assert seen.read_text() == str(BLOCKS_KEPT) and BLOCKS_KEPT > 0
    finally:
        await painter.close()
