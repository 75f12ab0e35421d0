"""Starting the bot with bad settings ends with one clear line and exit 2, never a traceback;
Discord unreachable is tried again in the same process, one line per try.

Each case runs the real ``bot.py`` in a subprocess. Discord is always the fake one (or a closed
port on this machine), so no case can reach the real Discord whatever token it passes.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import discord
import pytest
import uvloop

from db import pgadmin
from runtime import lifecycle
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


def bot_environment(env: dict[str, str]) -> dict[str, str]:
    """The sealed test environment, Discord = a closed local port, plus ``env``."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT)]),
        "FAKE_DISCORD_URL": closed_port_url(),
        **env,
    }


def run_bot(
    cwd: Path,
    env: dict[str, str],
    *,
    prefix: Sequence[str] = (),
    script: Path | None = None,
    args: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """bot.py [args] run to its end in ``bot_environment(env)``."""
    return subprocess.run(
        [*prefix, sys.executable, str(script or ROOT / "bot.py"), *args],
        cwd=cwd,
        env=bot_environment(env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


class Started:
    """bot.py running in the background (stderr to a file): wait for a text, then signal it.
    A context manager: whatever happens, the process is gone afterwards."""

    def __init__(
        self,
        cwd: Path,
        environ: dict[str, str],
        *,
        prefix: Sequence[str] = (),
        script: Path | None = None,
    ) -> None:
        self.log = cwd / f"bot-{time.monotonic_ns()}.stderr"
        with self.log.open("wb") as err:
            self.popen = subprocess.Popen(
                [*prefix, sys.executable, str(script or ROOT / "bot.py")],
                cwd=cwd,
                env=environ,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )

    def __enter__(self) -> Started:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait(timeout=10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = 30) -> str:
        """The output once it holds ``text``; fails if the process ends or time runs out."""
        deadline = time.monotonic() + timeout
        while text not in (output := self.output()):
            assert self.popen.poll() is None, f"exit {self.popen.returncode}:\n{output}"
            assert time.monotonic() < deadline, f"no {text!r} in {timeout} s:\n{output}"
            time.sleep(0.05)
        return output

    def stop(self, timeout: float = 15) -> tuple[int, str]:
        """SIGTERM; (exit code, everything printed)."""
        self.popen.send_signal(signal.SIGTERM)
        return self.popen.wait(timeout=timeout), self.output()


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


@pytest.mark.process
def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {})
    assert_one_line_failure(result.stderr, result.returncode, "DISCORD_TOKEN")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.process
def test_a_worker_without_http_interactions_is_one_clear_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x"}, args=["worker"])
    assert_one_line_failure(result.stderr, result.returncode, "worker", "INTERACTIONS=http")


@pytest.mark.process
def test_folder_that_cannot_be_made_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_bot(
        tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(blocker / "sub" / "bot.db")}
    )
    assert_one_line_failure(result.stderr, result.returncode, "Cannot use the database", "a-file")


@pytest.mark.process
def test_database_path_that_is_a_folder_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder)})
    assert_one_line_failure(result.stderr, result.returncode, "is a folder")


@pytest.mark.process
def test_file_that_is_not_a_database_is_one_clear_line(tmp_path: Path) -> None:
    junk = tmp_path / "bot.db"
    junk.write_bytes(os.urandom(8192))
    result = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(junk)})
    assert_one_line_failure(result.stderr, result.returncode, "not a SQLite database")
    assert junk.stat().st_size == 8192


@pytest.mark.process
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


@pytest.mark.process
def test_read_only_disk_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    env = bot_environment({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder / "bot.db")})
    with Started(tmp_path, env) as made:
        made.wait_for("Cannot reach Discord")  # the database exists and is migrated
        assert made.stop()[0] == 0
    prefix = _read_only_prefix(folder)
    result = run_bot(
        tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(folder / "bot.db")}, prefix=prefix
    )
    assert_one_line_failure(result.stderr, result.returncode, "read-only")


@pytest.mark.process
def test_discord_unreachable_is_tried_again_in_process_one_line_a_try(tmp_path: Path) -> None:
    """No exit (a supervisor would restart the bot into the same outage): a pause, doubling."""
    env = bot_environment({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "bot.db")})
    with Started(tmp_path, env) as bot:
        bot.wait_for("Trying again in 4 s.", timeout=20)
        code, output = bot.stop()
    assert code == 0, output
    for noise in NOISE:
        assert noise not in output, output
    tries = [line for line in output.splitlines() if "WARNING" in line]
    assert len(tries) == 2, output
    for line, pause in zip(tries, (2, 4), strict=True):
        assert "Cannot reach Discord" in line and line.endswith(f"Trying again in {pause} s.")
    assert "ERROR" not in output
    assert "voice" not in output  # no warning about voice packages the bot does not use


@pytest.mark.process
async def test_discord_back_after_an_outage_at_start_is_joined(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    port = fake.port
    await fake.stop()  # the port is free again: connection refused
    proc = BotProcess(fake, tmp_path / "bot.log")
    database = tmp_path / "bot.db"
    try:
        await proc.start(env={"DATABASE_PATH": str(database)}, wait=False)
        await fake.wait_for(lambda: "Trying again in 2 s." in proc.log_text(), timeout=30)
        await fake.start(port=port)
        await fake.wait_ready(timeout=30, commands=True)
        await fake.wait_for(lambda: health(database).returncode == 0, timeout=10)
        assert proc.running
    finally:
        await proc.stop()
        await fake.stop()
    output = proc.log_text()
    assert proc.returncode == 0, output
    for noise in NOISE:
        assert noise not in output, output


@pytest.mark.process
def test_postgres_unreachable_is_tried_again_in_process(tmp_path: Path) -> None:
    """After a reboot Docker starts the bots without waiting for PostgreSQL's health check."""
    url = closed_port_url().replace("http://", "postgresql://cardtable@") + "/cardtable"
    env = bot_environment(
        {"DISCORD_TOKEN": "x", "DATABASE_URL": url, "DATABASE_PATH": str(tmp_path / "bot.db")}
    )
    with Started(tmp_path, env) as bot:
        bot.wait_for("Trying again in 2 s.")
        code, output = bot.stop()
    assert code == 0, output
    (line,) = [line for line in output.splitlines() if "WARNING" in line]
    assert "Cannot use the PostgreSQL database postgresql://cardtable@127.0.0.1:" in line
    assert "Traceback" not in output and "ERROR" not in output


@pytest.mark.process
def test_a_postgres_database_that_is_not_there_is_one_clear_line(tmp_path: Path) -> None:
    admin = pgadmin.admin_url()
    why = asyncio.run(pgadmin.reachable(admin))
    if why is not None:
        pytest.skip(f"no PostgreSQL server at {admin} ({why})")
    url = pgadmin.with_database(admin, pgadmin.fresh_name("cardtable_missing"))
    env = {"DISCORD_TOKEN": "x", "DATABASE_URL": url, "DATABASE_PATH": str(tmp_path / "bot.db")}
    result = run_bot(tmp_path, env)
    assert_one_line_failure(result.stderr, result.returncode, "Cannot use the PostgreSQL")


def health(database: Path) -> subprocess.CompletedProcess[str]:
    return run_bot(database.parent, {"DATABASE_PATH": str(database)}, args=["health"])


def test_which_failures_are_tried_again() -> None:
    transient: list[BaseException] = [
        OSError(111, "Connection refused"),
        TimeoutError(),
        discord.GatewayNotFound(),  # type: ignore[no-untyped-call]  # discord.py's own
        http_error(503),
        http_error(429),
    ]
    for exc in transient:
        failure = lifecycle.start_failure(exc)
        assert failure is not None and failure.transient, exc
    permanent: list[BaseException] = [
        discord.LoginFailure("Improper token has been passed."),
        discord.PrivilegedIntentsRequired(None),
        http_error(403),
    ]
    for exc in permanent:
        failure = lifecycle.start_failure(exc)
        assert failure is not None and not failure.transient, exc
    assert lifecycle.start_failure(ValueError("a bug")) is None  # exit 1, with its traceback


def http_error(status: int) -> discord.HTTPException:
    """What discord.py raises for an answer with ``status`` (it reads .status and .reason)."""

    class Response:
        reason = "Reason"

    answer = Response()
    answer.status = status  # type: ignore[attr-defined]
    return discord.HTTPException(answer, {"message": "no", "code": 0})


@pytest.mark.process
def test_with_wait_a_missing_token_waits_to_be_stopped_and_says_why(tmp_path: Path) -> None:
    waiting = tmp_path / "bot.db"
    env = bot_environment({"ON_CANNOT_START": "wait", "DATABASE_PATH": str(waiting)})
    with Started(tmp_path, env) as bot:
        bot.wait_for("waiting to be stopped")
        time.sleep(1)
        assert bot.popen.poll() is None  # still there: nothing for a supervisor to restart
        checked = health(waiting)
        assert checked.returncode == 1
        assert "could not start: DISCORD_TOKEN is not set" in checked.stderr
        code, output = bot.stop()
    assert code == 2
    assert "ERROR" in output and "DISCORD_TOKEN" in output and "Traceback" not in output
    assert "no heartbeat" in health(waiting).stderr  # removed when it stopped


@pytest.mark.process
async def test_with_wait_a_refused_token_is_tried_once_then_waits(tmp_path: Path) -> None:
    waiting = tmp_path / "bot.db"
    fake = FakeDiscord(token="the-right-token")
    await fake.start()
    proc = BotProcess(fake, tmp_path / "bot.log")
    env = {
        "DISCORD_TOKEN": "a-wrong-token",
        "DATABASE_PATH": str(waiting),
        "ON_CANNOT_START": "wait",
    }
    try:
        await proc.start(env=env, wait=False)
        await fake.wait_for(lambda: "waiting to be stopped" in proc.log_text(), timeout=30)
        await asyncio.sleep(2)
        assert proc.running
        checked = health(waiting)
        assert checked.returncode == 1
        assert "could not start: Discord refused the token" in checked.stderr
    finally:
        await proc.stop()
        await fake.stop()
    assert proc.returncode == 2
    assert sum(r.status == 401 for r in fake.requests) == 1  # logged in once, not again and again


@pytest.mark.process
def test_without_wait_a_refused_start_exits_at_once(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {"ON_CANNOT_START": "exit"})
    assert_one_line_failure(result.stderr, result.returncode, "DISCORD_TOKEN")


@pytest.mark.process
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
        ({"DISCORD_TOKEN": "t", "ON_CANNOT_START": "retry"}, "ON_CANNOT_START"),
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


@pytest.mark.process
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
