"""A fake Discord (REST + gateway websocket on 127.0.0.1) for end-to-end tests of the real bot.

The bot process needs no change: start it with ``PYTHONPATH=tests/fakediscord/site:<repo>`` and
``FAKE_DISCORD_URL=<fake.url>``; the ``sitecustomize`` there points discord.py at the fake.
See ``FakeDiscord`` for the test-side API and ``tests/e2e/conftest.py`` for the fixtures.

Modules by job: ``server`` (FakeDiscord), ``world`` (guilds, users, locales, deletions),
``reading`` (what was sent), ``router`` (request pipeline), ``rest``, ``callbacks`` and
``commands`` (routes; ``commands`` also the Entry Point command of an app with Activities),
``ratelimit`` (buckets, global limit, 429s, counters), ``faults`` (injected errors), ``gateway``
and ``shards`` (connections and routing), ``interactions`` (payloads users send), ``rawclient``
(clients for testing the fake itself).
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
from .faults import ERRORS, DiscordError, Fault
from .process import BotProcess
from .ratelimit import BucketRule, RateLimitHit, RateLimitSettings, RestStats
from .records import InteractionRecord, Output, RecordedRequest, Reply
from .server import DEFAULT_TOKEN, FakeDiscord

__all__ = [
    "DEFAULT_TOKEN",
    "ERRORS",
    "BotProcess",
    "BucketRule",
    "Button",
    "DiscordError",
    "FakeDiscord",
    "Fault",
    "InteractionRecord",
    "Output",
    "RateLimitHit",
    "RateLimitSettings",
    "RecordedRequest",
    "Reply",
    "RestStats",
    "Select",
    "buttons",
    "find_button",
    "message_text",
    "message_texts",
    "selects",
]
