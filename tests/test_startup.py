"""Starting the bot with bad settings ends with one clear line and exit 2, never a traceback.

Each case runs the real ``bot.py`` in a subprocess. Discord is always the fake one (or a closed
port on this machine), so no case can reach the real Discord whatever token it passes.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import uvloop

import lifecycle
from settings import Settings, SettingsError
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "tests" / "fakediscord" / "site"
NOISE = ("Traceback", "Event loop is closed", "Unclosed", "voice will NOT", "Exception in")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def closed_port_url() -> str:
    """http://127.0.0.1:<a port nobody listens on>: connection refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def run_bot(
    cwd: Path, env: dict[str, str], *, prefix: Sequence[str] = (), script: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """bot.py with the sealed test environment, Discord = a closed local port, plus ``env``."""
    full = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT)]),
        "FAKE_DISCORD_URL": closed_port_url(),
        **env,
    }
    return subprocess.run(
        [*prefix, sys.executable, str(script or ROOT / "bot.py")],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_line_failure(output: str, returncode: int, *words: str) -> str:
    """Exit 2; exactly one WARNING/ERROR line, the last line, naming ``words``; no noise."""
    assert returncode == 2, output
    for noise in NOISE:
        assert noise not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    problems = [line for line in lines if any(k in line for k in ("WARNING", "ERROR"))]
    assert len(problems) == 1, output
    assert lines[-1] == problems[0], output
    for word in words:
        assert word in problems[0], output
    return problems[0]


def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {})
    assert_one_line_failure(result.stderr, result.returncode, "DISCORD_TOKEN")
    assert len(result.stderr.strip().splitlines()) == 1


def test_folder_that_cannot_be_made_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_bot(
        tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(blocker / "sub" / "bot.db")}
    )
    assert_one_line_failure(result.stderr, result.returncode, "Cannot use the database", "a-file")


def test_database_path_that_is_a_folder_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder)})
    assert_one_line_failure(result.stderr, result.returncode, "is a folder")


def test_file_that_is_not_a_database_is_one_clear_line(tmp_path: Path) -> None:
    junk = tmp_path / "bot.db"
    junk.write_bytes(os.urandom(8192))
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(junk)})
    assert_one_line_failure(result.stderr, result.returncode, "not a SQLite database")
    assert junk.stat().st_size == 8192


@pytest.mark.skipif(IS_ROOT, reason="root reads any file: an unreadable file cannot be made")
def test_unreadable_database_is_one_clear_line(tmp_path: Path) -> None:
    locked = tmp_path / "bot.db"
    locked.write_bytes(b"")
    locked.chmod(0)
    try:
        result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(locked)})
    finally:
        locked.chmod(0o600)
    assert_one_line_failure(result.stderr, result.returncode, "permission denied")


def _read_only_prefix(folder: Path) -> list[str]:
    """A command prefix that runs the bot with ``folder`` on a read-only mount, if possible.

    As root: a private mount namespace where ``folder`` is bind-mounted read-only (a real
    read-only file system, EROFS, seen only by that process). Otherwise: write bits removed.
    """
    if not IS_ROOT:
        for path in (folder / "bot.db", folder):
            path.chmod(path.stat().st_mode & 0o555)
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed: cannot make a read-only mount")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    prefix = [unshare, "--mount", "--propagation", "private", "sh", "-c", script, str(folder)]
    probe = subprocess.run([*prefix, "true"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a read-only mount here: {probe.stderr.strip()}")
    return prefix


def test_read_only_disk_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    made = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder / "bot.db")})
    assert "Cannot reach Discord" in made.stderr  # the database exists and is migrated
    prefix = _read_only_prefix(folder)
    result = run_bot(
        tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder / "bot.db")}, prefix=prefix
    )
    assert_one_line_failure(result.stderr, result.returncode, "read-only")


def test_discord_unreachable_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "bot.db")})
    assert_one_line_failure(result.stderr, result.returncode, "Cannot reach Discord")
    assert "voice" not in result.stderr  # no warning about voice packages the bot does not use


async def test_token_refused_is_one_clear_line(tmp_path: Path) -> None:
    fake = FakeDiscord(token="the-right-token")
    await fake.start()
    proc = BotProcess(fake, tmp_path / "bot.log")
    try:
        env = {"DISCORD_TOKEN": "a-wrong-token", "DATABASE_PATH": str(tmp_path / "bot.db")}
        await proc.start(env=env, wait=False)
        await fake.wait_for(lambda: proc.returncode is not None, timeout=30)
    finally:
        await proc.stop()
        await fake.stop()
    returncode = proc.returncode
    assert returncode is not None
    output = proc.log_text().split("\n", 1)[1]  # the first line is the harness's own marker
    assert_one_line_failure(output, returncode, "refused the token", "401")
    assert any(r.status == 401 for r in fake.requests)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "TURN_TIMEOUT_SECONDS": "soon"}, "TURN_TIMEOUT_SECONDS"),
        ({"DISCORD_TOKEN": "t", "TURN_TIMEOUT_SECONDS": "-5"}, "negative"),
        ({"DISCORD_TOKEN": "t", "HEARTBEAT_SECONDS": "0"}, "HEARTBEAT_SECONDS"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "t", "EVENT_LOOP": "fast"}, "EVENT_LOOP"),
    ],
)
def test_bad_settings_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env)


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert settings.database_path == Path("data/bot.db")
    assert settings.turn_timeout == 300
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.heartbeat_seconds == 10
    assert settings.event_loop == "auto"
    with_guild = Settings.from_env({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "42"})
    assert with_guild.dev_guild_id == 42


def test_event_loop_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    assert lifecycle.loop_factory("asyncio") is None
    assert lifecycle.loop_factory("auto") is uvloop.new_event_loop
    assert Settings.from_env({"DISCORD_TOKEN": "t", "EVENT_LOOP": "UVLoop"}).event_loop == "uvloop"
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on a machine without it
    assert lifecycle.loop_factory("auto") is None
    with pytest.raises(SettingsError, match="not installed"):
        lifecycle.loop_factory("uvloop")


def test_a_loop_that_is_not_installed_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "no_uvloop"
    blocker.mkdir()
    (blocker / "uvloop.py").write_text("raise ImportError('not on this machine')\n")
    result = run_bot(
        tmp_path,
        {
            "DISCORD_TOKEN": "x",
            "EVENT_LOOP": "uvloop",
            "PYTHONPATH": os.pathsep.join([str(blocker), str(SITE), str(ROOT)]),
        },
    )
    assert_one_line_failure(result.stderr, result.returncode, "EVENT_LOOP", "not installed")
