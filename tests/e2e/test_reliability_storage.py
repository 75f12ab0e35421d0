"""Damaged, shared and full storage, with the real bot process.

- A database with a damaged page: the bot exits 2 with one line saying how to restore.
- A second bot process on the same file exits 2 with one line; the first keeps serving.
- A full disk during play: the bot's database lives on a small tmpfs in a private mount
  namespace (``unshare``, as root; the test reads it through ``/proc/<pid>/root``). Filled up,
  a click is answered "The bot cannot save moves right now" and nothing is written; once the
  space is back the same button works and the game goes on with nothing lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.chaos import Sent, check_log, check_replay, clean_log, send_random_move
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import action_count, bot_env, game_row, open_game, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import REPO_ROOT, all_games_shown
from tests.test_startup import assert_one_line_failure, run_bot

CANNOT_SAVE = "The bot cannot save moves right now; please try again in a little while."
TMPFS_SIZE = "8m"


def _closed_port_env(db: Path) -> dict[str, str]:
    """bot.py on ``db`` with Discord at a closed port: it gets no further than the store."""
    return {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(db)}


async def _a_game_with_moves(
    fake: FakeDiscord, db: Callable[[], Path], rng: random.Random, moves: int
) -> tuple[int, list[Sent]]:
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, fake.channel_named("games"), alice, [bob], 1, game="grinch")
    sent = []
    for _ in range(moves):
        move = await send_random_move(fake, [alice, bob], rng)
        assert move is not None
        await move.rec.wait_response()
        await quiet(fake)
        sent.append(move)
    return int(game_row(db())["id"]), sent


async def test_a_damaged_database_stops_the_bot_with_one_line(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    db = tmp_path / "bot.db"
    await bot_process.start(env=bot_env(tmp_path))
    await _a_game_with_moves(fake_discord, lambda: db, random.Random(1), 2)
    await bot_process.stop()
    assert bot_process.returncode == 0
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    wal = Path(f"{db}-wal")  # empty, or removed by the last connection's close
    assert pages > 4 and (not wal.exists() or wal.stat().st_size == 0)  # all pages in bot.db
    with db.open("r+b") as file:  # a page in the middle: its header and cells are junk now
        file.seek(size * (pages // 2))
        file.write(random.Random(2).randbytes(size))
    result = await asyncio.to_thread(run_bot, tmp_path, _closed_port_env(db))
    line = assert_one_line_failure(result.stderr, result.returncode, "damaged", "backup")
    assert str(db) in line


async def test_a_second_process_is_refused_and_the_first_keeps_serving(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    rng = random.Random(3)
    game_id, sent = await _a_game_with_moves(fake, lambda: db, rng, 1)
    result = await asyncio.to_thread(run_bot, tmp_path, _closed_port_env(db))
    assert_one_line_failure(result.stderr, result.returncode, "another bot process", "PostgreSQL")
    assert bot_process.running
    move = await send_random_move(fake, [fake.user_named("alice"), fake.user_named("bob")], rng)
    assert move is not None
    await move.rec.wait_response()
    assert move.acknowledged, "the first process stopped serving"
    await quiet(fake)
    check_log(db, game_id, [*sent, move])
    assert check_replay(db, game_id) == "active"
    assert clean_log(bot_process.log_text()) == []


def _tmpfs_wrapper(tmp_path: Path, folder: Path) -> Path:
    """A script that runs bot.py with ``folder`` on a private tmpfs of TMPFS_SIZE."""
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("a private tmpfs needs root and unshare")
    mount = f'mount -t tmpfs -o size={TMPFS_SIZE} tmpfs "$0" && exec "$@"'
    probe = [unshare, "--mount", "--propagation", "private", "sh", "-c", mount, str(folder), "true"]
    done = subprocess.run(probe, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    wrapper = tmp_path / "bot_on_tmpfs.py"
    argv = [*probe[:-1], sys.executable, str(REPO_ROOT / "bot.py")]
    wrapper.write_text(f"import os\nargv = {argv!r}\nos.execv(argv[0], argv)\n")
    return wrapper


class _Copy:
    """Fresh copies of the bot's database (file and WAL) read through ``/proc/<pid>/root``.

    SQLite resolves symbolic links in a path, and ``/proc/<pid>/root`` is one: opened through
    it, SQLite would open the empty folder of this namespace instead. A copy holds what the
    bot has committed (a torn last WAL frame fails its checksum and is not read).
    """

    def __init__(self, live: Path, copy: Path) -> None:
        self.live, self.copy = live, copy
        copy.parent.mkdir(exist_ok=True)

    def _read(self) -> tuple[bytes, bytes]:
        wal = Path(f"{self.live}-wal")
        return self.live.read_bytes(), wal.read_bytes() if wal.exists() else b""

    def __call__(self) -> Path:
        """A copy of the file and WAL, taken twice until both reads agree (not torn)."""
        first = self._read()
        while (again := self._read()) != first:
            first = again
        self.copy.write_bytes(first[0])
        Path(f"{self.copy}-wal").write_bytes(first[1])
        Path(f"{self.copy}-shm").unlink(missing_ok=True)
        return self.copy


def _backup_inside(pid: int, live: Path, target: Path) -> Path:
    """A consistent copy made by SQLite's backup API inside the bot's mount namespace."""
    code = (
        "import sqlite3, sys\n"
        "src = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True)\n"
        "dst = sqlite3.connect(sys.argv[2])\n"
        "src.backup(dst)\n"
        "dst.close()\n"
    )
    target.unlink(missing_ok=True)
    command = ["nsenter", f"--mount=/proc/{pid}/ns/mnt", sys.executable, "-c", code]
    subprocess.run([*command, str(live), str(target)], check=True, timeout=30)
    return target


def _fill(path: Path) -> None:
    """Write zeros until the file system is full."""
    chunk = bytes(64 * 1024)
    with path.open("wb", buffering=0) as file:
        with contextlib.suppress(OSError):
            while True:
                file.write(chunk)
        with contextlib.suppress(OSError):
            while True:
                file.write(b"\0" * 512)


async def test_a_full_disk_refuses_moves_clearly_and_the_game_resumes(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.05
    folder = tmp_path / "data"
    folder.mkdir()
    wrapper = _tmpfs_wrapper(tmp_path, folder)
    await bot_process.start(str(wrapper), env=bot_env(folder))
    assert bot_process.popen is not None
    root = Path(f"/proc/{bot_process.popen.pid}/root")
    live = root / str(folder / "bot.db").lstrip("/")
    assert live.exists() and not (folder / "bot.db").exists(), "not on the private tmpfs"
    db = _Copy(live, tmp_path / "copy" / "bot.db")
    fake.settle_checks.append(lambda: all_games_shown(db()))
    rng = random.Random(4)
    game_id, sent = await _a_game_with_moves(fake, db, rng, 2)
    users = [fake.user_named("alice"), fake.user_named("bob")]

    filler = live.with_name("filler")
    _fill(filler)
    count = action_count(
        _backup_inside(bot_process.popen.pid, folder / "bot.db", tmp_path / "n.db")
    )
    state = random.Random(5)
    refused = await send_random_move(fake, users, state)
    assert refused is not None
    await refused.rec.wait_response()
    await fake.wait_for(refused.rec.texts, timeout=5)
    assert [t for t in refused.rec.texts() if t] == [CANNOT_SAVE]
    assert refused.rec.response is not None and refused.rec.response.ephemeral
    inside = _backup_inside(bot_process.popen.pid, folder / "bot.db", tmp_path / "full.db")
    assert action_count(inside) == count and not refused.acknowledged

    filler.unlink()  # space is back: the very same button works
    again = await send_random_move(fake, users, random.Random(5))
    assert again is not None and (again.step, again.action) == (refused.step, refused.action)
    await again.rec.wait_response()
    assert again.acknowledged
    await quiet(fake)
    sent += [refused, again]
    for _ in range(3):
        move = await send_random_move(fake, users, rng)
        assert move is not None
        await move.rec.wait_response()
        assert move.acknowledged
        sent.append(move)
        await quiet(fake)
    final = _backup_inside(bot_process.popen.pid, folder / "bot.db", tmp_path / "final.db")
    check_log(final, game_id, sent)
    assert check_replay(final, game_id) == "active"
    assert clean_log(bot_process.log_text()) == []
    assert "cannot save a move" in bot_process.log_text()
