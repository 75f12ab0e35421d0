"""Without a PostgreSQL server the PostgreSQL half is skipped with its reason, unless
REQUIRE_POSTGRES=1 (CI) turns that into a failure. Checked by running pytest on one store
test against a port where nothing listens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from db.opening import open_store

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "postgresql://postgres@127.0.0.1:1/test"


def _pytest(**env: str) -> subprocess.CompletedProcess[str]:
    dropped = ("REQUIRE_POSTGRES", "PYTEST_XDIST_WORKER")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:xdist",
            "tests/store/test_store.py",
            "-k",
            "seats_join_order",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**clean, "TEST_POSTGRES_URL": NOWHERE, **env},
        timeout=120,
        check=False,
    )


@pytest.mark.process
def test_no_server_skips_the_postgres_half_and_says_why() -> None:
    done = _pytest()
    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 skipped" in done.stdout
    assert "PostgreSQL half of tests/store skipped: no server at" in done.stdout
    assert "REQUIRE_POSTGRES=1" in done.stdout


@pytest.mark.process
def test_require_postgres_turns_the_skip_into_a_failure() -> None:
    done = _pytest(REQUIRE_POSTGRES="1")
    assert done.returncode == 1, done.stdout
    assert "1 passed" in done.stdout and "1 error" in done.stdout
    assert "required (REQUIRE_POSTGRES=1) but there is no server at" in done.stdout


async def test_an_unreachable_server_is_one_clear_error_at_open() -> None:
    from db.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable, match="cannot reach PostgreSQL at postgresql://") as e:
        await open_store("postgresql://postgres:secret@127.0.0.1:1/test")
    assert "secret" not in str(e.value)  # the password stays out of logs
    assert isinstance(e.value, OSError)  # what bot.py already catches at start
