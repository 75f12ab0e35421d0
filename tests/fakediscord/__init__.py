"""A fake Discord (REST + gateway websocket on 127.0.0.1) for end-to-end tests of the real bot.

The bot process needs no change: start it with ``PYTHONPATH=tests/fakediscord/site:<repo>`` and
``FAKE_DISCORD_URL=<fake.url>``; the ``sitecustomize`` there points discord.py at the fake.
See ``FakeDiscord`` for the test-side API and ``tests/e2e/conftest.py`` for the fixtures.
"""

from .components import (
    Button,
    Select,
    buttons,
    find_button,
    message_text,
    message_texts,
    selects,
)
from .process import BotProcess
from .records import InteractionRecord, Output, RecordedRequest, Reply
from .server import DEFAULT_TOKEN, FakeDiscord

__all__ = [
    "DEFAULT_TOKEN",
    "BotProcess",
    "Button",
    "FakeDiscord",
    "InteractionRecord",
    "Output",
    "RecordedRequest",
    "Reply",
    "Select",
    "buttons",
    "find_button",
    "message_text",
    "message_texts",
    "selects",
]
