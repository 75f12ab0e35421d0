"""Throw-away PostgreSQL databases for tests and benchmarks (never used by the bot itself)."""

from __future__ import annotations

import os
import re
import secrets

import asyncpg

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"
_SAFE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def admin_url() -> str:
    """The server used for tests: ``TEST_POSTGRES_URL`` or the local one with trust auth."""
    return os.environ.get("TEST_POSTGRES_URL", ADMIN_URL)


def with_database(url: str, name: str) -> str:
    """The same server and user as ``url``, database ``name``."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


def fresh_name(prefix: str = "cardtable_test") -> str:
    return f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"


async def reachable(url: str, timeout: float = 3.0) -> str | None:
    """None if the server answers at ``url``, else why not (one line)."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def _checked(name: str) -> str:
    if not _SAFE_NAME.match(name):
        raise ValueError(f"not a safe database name: {name!r}")
    return name


async def create_database(url: str, name: str) -> str:
    """Create database ``name`` on the server of ``url``; returns its URL."""
    await _execute(url, f"CREATE DATABASE {_checked(name)}")
    return with_database(url, name)


async def drop_database(url: str, name: str) -> None:
    """Drop database ``name`` (closing anyone still connected to it)."""
    await _execute(url, f"DROP DATABASE IF EXISTS {_checked(name)} WITH (FORCE)")


async def reset_schema(url: str) -> None:
    """Empty the database at ``url``: every table of the store and its version go."""
    await _execute(url, "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")


async def _execute(url: str, sql: str) -> None:
    """Run ``sql`` on a connection of its own to ``url``."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
