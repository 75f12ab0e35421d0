"""DATABASE_PASSWORD: a PostgreSQL password with any character, kept apart from DATABASE_URL.

A password written into a URL must be percent-encoded, or ``@ : / ? # %`` cut the URL in the
wrong place (what compose.yaml's URL did); settings.database_url encodes DATABASE_PASSWORD.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from db import pgadmin
from db.opening import open_store
from settings import Settings, SettingsError, database_url

ROOT = Path(__file__).resolve().parents[1]
AWKWARD = "p@ss:w/o?r#d%41 x"  # every character that cuts a URL, a %-escape and a space


def test_the_password_goes_into_the_url_encoded() -> None:
    url = database_url(
        {
            "DATABASE_URL": "postgresql://cardtable@postgres:5432/cardtable",
            "DATABASE_PASSWORD": AWKWARD,
        }
    )
    assert url is not None
    parts = urlsplit(url)
    assert (parts.username, parts.hostname, parts.port, parts.path) == (
        "cardtable",
        "postgres",
        5432,
        "/cardtable",
    )
    assert parts.password is not None and unquote(parts.password) == AWKWARD
    # The same password typed into the URL loses the host: what DATABASE_PASSWORD avoids.
    typed = urlsplit(f"postgresql://cardtable:{AWKWARD}@postgres:5432/cardtable")
    assert typed.hostname != "postgres"


def test_without_a_password_the_url_is_as_given() -> None:
    url = "postgresql://cardtable:secret@db/cardtable?sslmode=require"
    assert database_url({"DATABASE_URL": url, "DATABASE_PASSWORD": ""}) == url
    assert database_url({}) is None
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": "postgres://u@h/d", "DATABASE_PASSWORD": "a b"}
    )
    assert settings.database_url == "postgres://u:a%20b@h/d"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_PASSWORD": "pw"}, "DATABASE_URL is not"),
        ({"DATABASE_URL": "postgresql://u:old@h/d", "DATABASE_PASSWORD": "pw"}, "keep one"),
        ({"DATABASE_URL": "postgresql://h/d", "DATABASE_PASSWORD": "pw"}, "user name"),
        ({"DATABASE_URL": "mysql://u@h/d"}, "PostgreSQL URL"),
    ],
)
def test_a_password_that_cannot_be_used_is_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env({"DISCORD_TOKEN": "t", **env})


@pytest.fixture(scope="module")
def server_database() -> Iterator[str]:
    """A fresh database on the local test server (trust authentication: the password is not
    checked there, but the URL must still reach the right user, host and database)."""
    admin = pgadmin.admin_url()
    why = asyncio.run(pgadmin.reachable(admin))
    if why is not None:
        pytest.skip(f"no PostgreSQL server at {admin} ({why})")
    name = pgadmin.fresh_name("cardtable_password")
    url = asyncio.run(pgadmin.create_database(admin, name))
    try:
        yield url
    finally:
        asyncio.run(pgadmin.drop_database(admin, name))


async def test_the_bot_connects_with_an_awkward_password(server_database: str) -> None:
    url = database_url({"DATABASE_URL": server_database, "DATABASE_PASSWORD": AWKWARD})
    assert url is not None
    store = await open_store(url)
    await store.close()


@pytest.mark.process
def test_ratings_rebuild_reads_the_password_too(server_database: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "ratings", "rebuild"],
        cwd=tmp_path,
        env={
            **os.environ,
            "DATABASE_URL": server_database,
            "DATABASE_PASSWORD": AWKWARD,
            "PYTHONPATH": str(ROOT),
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "ratings rebuilt: 0 games" in result.stderr
