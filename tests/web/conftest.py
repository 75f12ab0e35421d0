"""Fixtures of the web edge's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET
from web.discord_api import DiscordApi


@pytest.fixture
async def api(fake: FakeDiscord) -> AsyncIterator[DiscordApi]:
    """The Activity's Discord API client against the module's ``fake`` Discord."""
    api = DiscordApi(
        f"{fake.url}/api/v10",
        bot_token=fake.token,
        client_id=str(fake.application_id),
        client_secret=CLIENT_SECRET,
    )
    yield api
    await api.close()
