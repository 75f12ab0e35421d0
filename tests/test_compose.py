"""compose.yaml, read without Docker: PostgreSQL and two bot processes over the shards of one
SHARD_COUNT, each healthy only when its own check says so, the database on a named volume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from settings import Settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def bots(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: s for n, s in compose["services"].items() if n.startswith("bot")}


def test_postgres_keeps_its_data_on_a_named_volume_and_says_when_ready(
    compose: dict[str, Any],
) -> None:
    postgres = compose["services"]["postgres"]
    assert postgres["image"].startswith("postgres:") and postgres["image"].count(".") >= 1
    volume, _, where = postgres["volumes"][0].partition(":")
    assert where == "/var/lib/postgresql/data"
    assert volume in compose["volumes"]
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    env = postgres["environment"]
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")  # never a default


def test_two_bots_share_the_database_and_split_the_shards(compose: dict[str, Any]) -> None:
    services = bots(compose)
    assert len(services) == 2
    counts, ids, urls = set(), [], set()
    for service in services.values():
        env = service["environment"]
        urls.add(env["DATABASE_URL"])
        counts.add(env["SHARD_COUNT"])
        ids.append(env["SHARD_IDS"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["build"] == "."
        assert service["env_file"] == ".env"  # DISCORD_TOKEN comes from there
        assert service["restart"] == "unless-stopped"
    assert len(urls) == 1
    assert urls.pop().endswith("@postgres:5432/cardtable")
    assert len(counts) == 1
    shards = sorted(int(i) for text in ids for i in text.split(","))
    assert shards == list(range(int(counts.pop())))  # every shard exactly once


def test_each_bot_is_a_valid_sharded_settings_set(compose: dict[str, Any]) -> None:
    """The environment each bot gets is accepted by Settings (the password filled in)."""
    seen: set[int] = set()
    for service in bots(compose).values():
        env = {k: str(v) for k, v in service["environment"].items()}
        env["DATABASE_URL"] = env["DATABASE_URL"].replace(
            "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}", "secret"
        )
        settings = Settings.from_env({"DISCORD_TOKEN": "t", **env})
        assert settings.database_url == "postgresql://cardtable:secret@postgres:5432/cardtable"
        assert settings.shard_count == 2
        assert settings.shard_ids is not None
        seen.update(settings.shard_ids)
    assert seen == {0, 1}


def test_bots_have_the_health_check_and_time_to_stop(compose: dict[str, Any]) -> None:
    for service in bots(compose).values():
        check = service["healthcheck"]
        assert check["test"] == ["CMD", "python", "/app/bot.py", "health"]
        assert check["start_period"] and check["interval"]
        assert int(service["stop_grace_period"].rstrip("s")) >= 10
