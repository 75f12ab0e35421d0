"""``python bot.py health`` typed with a Python that lacks the bot's packages (runtime/launcher.py).

Each case runs a copy of the project (bot.py copied, everything else linked)
with a bare venv's Python: no discord.py, no python-dotenv, nothing but the standard library,
like a system ``python3``. The project's ``.venv`` is a link to the environment running these
tests (it has the packages), or missing, or another bare venv.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from runtime.heartbeat import DATABASE_OK, Beat, heartbeat_path, write_beat
from runtime.launcher import RERUN_MARK

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("bot.py",)  # its folder (resolved) is where .venv is looked for


def bare_python(folder: Path) -> Path:
    """A fresh venv without pip or any package: bot.py's imports fail there."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(folder)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    check = subprocess.run([python, "-c", "import discord"], capture_output=True, check=False)
    assert check.returncode != 0  # the packages are really missing
    return python


def project_copy(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    for entry in ROOT.iterdir():
        if entry.name.startswith(".venv") or entry.name in (".git", ".env", "data"):
            continue
        if entry.name in COPIED:
            (project / entry.name).write_bytes(entry.read_bytes())
        else:
            (project / entry.name).symlink_to(entry)
    return project


def link_test_environment(project: Path) -> None:
    """project/.venv = the environment running the tests, which has every package."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("the tests do not run in a virtual environment to stand for .venv")
    (project / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)


def run(python: Path, project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python bot.py ARGS`` in the project folder, as the README has it (no PYTHONPATH)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", RERUN_MARK)}
    return subprocess.run(
        [str(python), "bot.py", *args],
        cwd=project,
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def healthy_beat(database: Path) -> None:
    database.parent.mkdir(parents=True, exist_ok=True)
    write_beat(heartbeat_path(database), Beat(time.time(), True, DATABASE_OK, os.getpid()))


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    return bare_python(tmp_path / "bare")


@pytest.mark.process
def test_health_runs_under_the_project_venv(tmp_path: Path, bare: Path) -> None:
    project = project_copy(tmp_path)
    link_test_environment(project)
    database = tmp_path / "data" / "bot.db"
    healthy_beat(database)
    result = run(bare, project, "health", DATABASE_PATH=str(database))
    assert result.returncode == 0, result.stderr
    assert "healthy: connected, database writable" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.process
def test_an_unhealthy_bot_still_says_why_with_exit_1(tmp_path: Path, bare: Path) -> None:
    project = project_copy(tmp_path)
    link_test_environment(project)
    result = run(bare, project, "health", DATABASE_PATH=str(tmp_path / "none" / "bot.db"))
    assert result.returncode == 1, result.stderr
    assert "unhealthy: no heartbeat" in result.stderr


@pytest.mark.process
def test_ratings_rebuild_runs_under_the_project_venv(tmp_path: Path, bare: Path) -> None:
    project = project_copy(tmp_path)
    link_test_environment(project)
    database = tmp_path / "bot.db"
    result = run(bare, project, "ratings", "rebuild", DATABASE_PATH=str(database))
    assert result.returncode == 0, result.stderr
    assert "ratings rebuilt: 0 games" in result.stderr
    assert database.exists()


@pytest.mark.process
def test_without_a_venv_one_line_names_the_commands(tmp_path: Path, bare: Path) -> None:
    project = project_copy(tmp_path)
    result = run(bare, project, "health", DATABASE_PATH=str(tmp_path / "bot.db"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "ERROR bot: Cannot start:" in lines[0]
    assert "No module named 'discord'" in lines[0]
    assert "`make run`" in lines[0]
    assert "`.venv/bin/python bot.py health`" in lines[0] or os.name == "nt"


@pytest.mark.process
def test_a_venv_without_the_packages_is_named_not_run_again_and_again(
    tmp_path: Path, bare: Path
) -> None:
    project = project_copy(tmp_path)
    bare_python(project / ".venv")
    started = time.monotonic()
    result = run(bare, project, "ratings", "rebuild", DATABASE_PATH=str(tmp_path / "bot.db"))
    assert time.monotonic() - started < 30
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(project / ".venv") in lines[0]  # it ran again under .venv, which lacks them too
    assert "`make install`" in lines[0]
    assert "`.venv/bin/python bot.py ratings rebuild`" in lines[0] or os.name == "nt"
