"""End-to-end fixtures: a started fake Discord and a helper that runs a real bot process.

``fake_discord``: a started ``FakeDiscord`` with guild "Test Server", channels "games" and
"general", users "alice" (has Manage Server), "bob", "carol" and "dora" (DMs closed). Ids via
``fake.guild_named`` / ``fake.channel_named`` / ``fake.user_named``.

``bot_process``: a ``BotProcess`` (defined in tests/fakediscord/process.py, re-exported here)
bound to that fake; stopped after the test, its log printed when the test failed.

The fake enforces Discord's rate limits, and after every test the fixture checks that the fake
sent no 429 the test did not inject (a game of friends at human speed must never hit one).
A test about 429s opts out with ``@pytest.mark.allow_429``. Whole games are played in
compressed time: the fake's windows (and the bot's pacing, told through RATE_LIMIT_SCALE) are
``E2E_TIME_SCALE`` times Discord's; ``@pytest.mark.real_time_limits`` keeps Discord's own.
With ``FAKE_DISCORD_STATS=<file>`` each test appends one JSON line of the fake's counters
(calls by kind, 429s) to that file. ``FAKE_DISCORD_LIMITS=off`` turns the limits off for a
quick local run (the 429 check is then empty; CI and ``make test`` keep them on).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import Any

import pytest

from db import pgadmin
from tests.failed_jobs import MARKER, failed_job_lines, verdict
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.fakediscord.process import BotProcess

__all__ = ["BotProcess"]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[Any]
) -> Generator[None, Any, Any]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


E2E_TIME_SCALE = 0.25


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "allow_429: the test may see 429s it did not inject (it is about 429s)"
    )
    config.addinivalue_line(
        "markers", "real_time_limits: Discord's rate-limit windows at their real length"
    )


def _failed(request: pytest.FixtureRequest) -> bool:
    for phase in ("setup", "call"):
        report = getattr(request.node, f"rep_{phase}", None)
        if report is not None and report.failed:
            return True
    return False


def _check_no_429(fake: FakeDiscord, request: pytest.FixtureRequest) -> None:
    stats = fake.stats
    log_path = os.environ.get("FAKE_DISCORD_STATS")
    if log_path:  # one JSON line per test: REST calls by kind, 429s, invalid requests
        with Path(log_path).open("a") as log:
            log.write(json.dumps({"test": request.node.nodeid, **stats.summary()}) + "\n")
    if stats.unplanned_429 == 0:
        return
    summary = (
        f"the fake sent {stats.unplanned_429} 429(s) "
        f"(global {stats.global_429}, bucket {stats.bucket_429}): {dict(stats.by_route_429())}"
    )
    if request.node.get_closest_marker("allow_429") is not None:
        sys.stdout.write(f"\n---- allowed: {summary}\n")
    elif _failed(request):
        sys.stdout.write(f"\n---- also: {summary}\n")
    else:
        pytest.fail(summary)


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with one guild, two channels and four users (see module doc)."""
    fake = FakeDiscord(token=DEFAULT_TOKEN)
    if os.environ.get("FAKE_DISCORD_LIMITS") == "off":
        fake.rate_limits.disable()
    elif request.node.get_closest_marker("real_time_limits") is None:
        fake.scale_time(E2E_TIME_SCALE)
    await fake.start()
    guild = fake.add_guild("Test Server")
    fake.add_channel(guild, "games")
    fake.add_channel(guild, "general")
    fake.add_user("alice", manage_guild=True)
    fake.add_user("bob")
    fake.add_user("carol")
    fake.add_user("dora", dms_open=False)
    try:
        yield fake
    finally:
        await fake.stop()
    _check_no_429(fake, request)


@pytest.fixture
async def bot_process(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotProcess]:
    """A BotProcess for ``fake_discord``, logging to tmp_path/bot.log; stopped afterwards.
    The test fails if an outbox job failed in the bot (tests/failed_jobs.py)."""
    proc = BotProcess(fake_discord, tmp_path / "bot.log")
    try:
        yield proc
    finally:
        with contextlib.suppress(Exception):
            await proc.stop()
        if _failed(request):
            sys.stdout.write(f"\n---- bot log ({proc.log_path}) ----\n{proc.log_text()}\n")
            if fake_discord.unknown_routes:
                sys.stdout.write(f"---- unknown routes: {fake_discord.unknown_routes}\n")
    on_purpose = request.node.get_closest_marker(MARKER) is not None
    why = verdict(failed_job_lines(proc.log_text()), on_purpose=on_purpose)
    if why is not None and not _failed(request):
        pytest.fail(f"{why} (the bot's log: {proc.log_path})", pytrace=False)


@pytest.fixture
async def pg_database() -> AsyncIterator[str]:
    """A throw-away PostgreSQL database for this test only; dropped afterwards."""
    admin = pgadmin.admin_url()
    why = await pgadmin.reachable(admin)
    if why is not None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"this e2e test needs PostgreSQL (REQUIRE_POSTGRES=1): {admin}: {why}")
        pytest.skip(
            f"e2e test on PostgreSQL skipped: no server at {admin} ({why}); "
            "set REQUIRE_POSTGRES=1 to make this a failure"
        )
    name = pgadmin.fresh_name("cardtable_e2e")
    url = await pgadmin.create_database(admin, name)
    try:
        yield url
    finally:
        await pgadmin.drop_database(admin, name)
