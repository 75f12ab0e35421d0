"""End-to-end fixtures: a started fake Discord and a helper that runs a real bot process.

``fake_discord``: a started ``FakeDiscord`` with guild "Test Server", channels "games" and
"general", users "alice" (has Manage Server), "bob", "carol" and "dora" (DMs closed). Ids via
``fake.guild_named`` / ``fake.channel_named`` / ``fake.user_named``.

``bot_process``: a ``BotProcess`` (defined in tests/fakediscord/process.py, re-exported here)
bound to that fake; stopped after the test, its log printed when the test failed.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import Any

import pytest

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


def _failed(request: pytest.FixtureRequest) -> bool:
    for phase in ("setup", "call"):
        report = getattr(request.node, f"rep_{phase}", None)
        if report is not None and report.failed:
            return True
    return False


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with one guild, two channels and four users (see module doc)."""
    fake = FakeDiscord(token=DEFAULT_TOKEN)
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


@pytest.fixture
async def bot_process(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[BotProcess]:
    """A BotProcess for ``fake_discord``, logging to tmp_path/bot.log; stopped afterwards."""
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
