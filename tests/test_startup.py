"""Starting the bot with bad settings ends with one clear line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE"))}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env there
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    result = _run(tmp_path, {})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in result.stderr


def test_unusable_database_path_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = _run(
        tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(blocker / "sub" / "bot.db")}
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "Cannot open the database" in errors[0]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "TURN_TIMEOUT_SECONDS": "soon"}, "TURN_TIMEOUT_SECONDS"),
        ({"DISCORD_TOKEN": "t", "TURN_TIMEOUT_SECONDS": "-5"}, "negative"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN"),
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
    with_guild = Settings.from_env({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "42"})
    assert with_guild.dev_guild_id == 42
