"""The Makefile's environment: rebuilt for another interpreter, never half-made and trusted.

Dry runs (``make -n``) show what make would do for a prepared .venv in a temporary folder;
the failure cases really run make, with an interpreter or a project that fails on purpose.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IDENTITY = "import sys; print(sys.version.split()[0], sys.base_prefix)"
MAKE = shutil.which("make")
OUTER_MAKE = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VENV", "PYTHON", "PYTEST_ARGS")

pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def make(
    *args: str, cwd: Path = ROOT, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    # Under `make unit VENV=...` the outer make's command-line variables are in the
    # environment too: a test sets its own.
    env = {k: v for k, v in os.environ.items() if k not in OUTER_MAKE}
    return subprocess.run(
        [str(MAKE), "--no-print-directory", *args],
        cwd=cwd,
        env={**env, **(extra or {})},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def identity(python: str) -> str:
    return subprocess.run(
        [python, "-c", IDENTITY], capture_output=True, text=True, check=True
    ).stdout.strip()


def bare_venv(folder: Path) -> Path:
    """A venv made by this interpreter, marked as make marks it (no pip: quick)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    (folder / ".python").write_text(identity(str(folder / "bin" / "python")) + "\n")
    return folder


def candidates() -> list[str]:
    """Python 3.11+ interpreters on PATH or installed by pyenv."""
    found = [shutil.which(f"python3.{minor}") for minor in range(11, 16)]
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found += [str(p) for p in sorted(pyenv.glob("3.1[1-9]*/bin/python3"))]
    return [f for f in found if f is not None]


def other_interpreter() -> str | None:
    mine = identity(sys.executable)
    for python in candidates():
        try:
            if identity(python) != mine:
                return python
        except (subprocess.CalledProcessError, OSError):
            continue
    return None


@pytest.mark.process
def test_the_same_interpreter_keeps_the_venv(tmp_path: Path) -> None:
    venv = bare_venv(tmp_path / "venv")
    base = identity(sys.executable).split(" ", 1)[1]
    python = str(Path(base) / "bin" / "python3")
    plan = make("-n", "install", f"VENV={venv}", f"PYTHON={python}")
    assert plan.returncode == 0, plan.stderr
    assert "rm -rf" not in plan.stdout
    assert "pip install" in plan.stdout and '".[test]"' not in plan.stdout  # runtime only


@pytest.mark.process
def test_another_interpreter_rebuilds_the_venv(tmp_path: Path) -> None:
    other = other_interpreter()
    if other is None:
        pytest.skip("no second Python 3 interpreter on this machine")
    venv = bare_venv(tmp_path / "venv")
    plan = make("-n", "install", f"VENV={venv}", f"PYTHON={other}")
    assert plan.returncode == 0, plan.stderr
    assert f"rm -rf {venv}" in plan.stdout
    assert f"{other} -m venv {venv}" in plan.stdout


@pytest.mark.process
def test_a_broken_venv_is_rebuilt(tmp_path: Path) -> None:
    venv = bare_venv(tmp_path / "venv")
    for python in (venv / "bin").glob("python*"):
        python.unlink()
    plan = make("-n", "install", f"VENV={venv}", f"PYTHON={sys.executable}")
    assert f"rm -rf {venv}" in plan.stdout


@pytest.mark.process
def test_a_failed_venv_creation_leaves_no_venv(tmp_path: Path) -> None:
    fake_python = tmp_path / "python-without-venv"
    fake_python.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n'
        '  mkdir -p "$3/bin"; echo "ensurepip is not available" >&2; exit 1\n'
        "fi\n"
        f'exec "{sys.executable}" "$@"\n'
    )
    fake_python.chmod(0o755)
    venv = tmp_path / "venv"
    result = make("install", f"VENV={venv}", f"PYTHON={fake_python}")
    assert result.returncode != 0
    assert "python3-venv" in result.stderr
    assert not venv.exists()


@pytest.mark.process
def test_a_failed_install_is_not_taken_for_a_finished_one(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "Makefile", project / "Makefile")
    (project / "requirements.lock").write_text("")
    (project / "pyproject.toml").write_text(
        '[project]\nname = "broken"\nversion = "0"\n'
        'dependencies = ["cardtable-test-no-such-package"]\n'
        "[tool.setuptools]\npackages = []\n"
    )
    offline = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}
    venv = project / ".venv"
    failed = make("install", f"VENV={venv}", f"PYTHON={sys.executable}", cwd=project, extra=offline)
    assert failed.returncode != 0
    assert (venv / ".python").exists()  # the interpreter part is done and kept
    assert not (venv / ".runtime").exists()
    again = make("-n", "install", f"VENV={venv}", f"PYTHON={sys.executable}", cwd=project)
    assert "rm -rf" not in again.stdout and "pip install" in again.stdout  # retried, not rebuilt
