"""A developer's .env (with a real token, say) never reaches the tests, nor does the internet."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from settings import ENV_FILE_VARIABLE, environment
from tests.conftest import NetworkBlocked
from tests.test_startup import ROOT, SITE, Started, closed_port_url

DOTENV_TOKEN = "token-from-a-dotenv-that-must-stay-unread"


def bot_copy_with_dotenv(tmp_path: Path) -> tuple[Path, Path]:
    """bot.py and settings.py copied to tmp_path with a .env beside them; (script, its db)."""
    for name in ("bot.py", "settings.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    database = tmp_path / "from-dotenv" / "bot.db"
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={DOTENV_TOKEN}\nDATABASE_PATH={database}\nLOG_LEVEL=DEBUG\n"
    )
    return tmp_path / "bot.py", database


def search_path() -> str:
    return os.pathsep.join([str(SITE), str(ROOT)])


def run_copy(script: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=script.parent,
        env={**env, "PYTHONPATH": search_path()},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_harness_environment_is_sealed() -> None:
    assert os.environ[ENV_FILE_VARIABLE] == ""
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "HTTPS_PROXY"):
        assert name not in os.environ


@pytest.mark.process
def test_a_dotenv_beside_the_bot_is_not_read_by_a_test_run(tmp_path: Path) -> None:
    script, database = bot_copy_with_dotenv(tmp_path)
    result = run_copy(script, {**os.environ, "FAKE_DISCORD_URL": closed_port_url()})
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert DOTENV_TOKEN not in result.stderr
    assert not database.parent.exists()


@pytest.mark.process
def test_the_same_dotenv_is_read_outside_the_tests(tmp_path: Path) -> None:
    """The control: without the harness's setting the copy does read its .env."""
    script, database = bot_copy_with_dotenv(tmp_path)
    outside = {k: v for k, v in os.environ.items() if k != ENV_FILE_VARIABLE}
    environ = {**outside, "FAKE_DISCORD_URL": closed_port_url(), "PYTHONPATH": search_path()}
    with Started(tmp_path, environ, script=script) as bot:
        bot.wait_for("Cannot reach Discord")  # it had the token, and the fake's address
        assert bot.stop()[0] == 0
    assert database.exists()  # and the database path came from the .env


def test_environment_reads_the_named_env_file_under_the_process_environment(
    tmp_path: Path,
) -> None:
    env_file = tmp_path / "bot.env"
    env_file.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=DEBUG\n")
    merged = environment({ENV_FILE_VARIABLE: str(env_file), "LOG_LEVEL": "ERROR"})
    assert merged["DISCORD_TOKEN"] == "from-file"
    assert merged["LOG_LEVEL"] == "ERROR"  # the process environment wins
    assert "DISCORD_TOKEN" not in environment({ENV_FILE_VARIABLE: ""})


@pytest.mark.parametrize("address", [("192.0.2.1", 443), ("2001:db8::1", 443, 0, 0)])
def test_sockets_cannot_leave_this_machine(address: tuple[object, ...]) -> None:
    family = socket.AF_INET6 if ":" in str(address[0]) else socket.AF_INET
    with socket.socket(family) as sock, pytest.raises(NetworkBlocked):
        sock.connect(address)


def test_loopback_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
