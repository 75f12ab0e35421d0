"""discord.py's reconnect errors are one line each, never a traceback (lifecycle.quiet_reconnects).

The records are made as discord.py makes them (its own loggers and calls, copied from
discord/client.py and discord/shard.py), then formatted as the bot's log handler formats them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import discord
import pytest

import bot
from runtime import lifecycle


class Lines(logging.Handler):
    """Everything logged under ``discord``, formatted as the bot's handler does."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(self.format(record))


@pytest.fixture
def lines() -> Iterator[Lines]:
    lifecycle.quiet_reconnects()
    handler = Lines()
    logger = logging.getLogger("discord")
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old_level)


def refused() -> OSError:
    return ConnectionRefusedError(111, "Connect call failed ('162.159.135.232', 443)")


def test_the_client_reconnect_is_one_warning_line(lines: Lines) -> None:
    log = logging.getLogger("discord.client")
    try:
        raise refused()
    except OSError:
        log.exception("Attempting a reconnect in %.2fs", 3.517)  # discord/client.py
    assert lines.texts == [
        "WARNING discord.client: Attempting a reconnect in 3.52s (ConnectionRefusedError: "
        "[Errno 111] Connect call failed ('162.159.135.232', 443))"
    ]


def test_the_shard_reconnect_and_launch_retry_are_one_line_each(lines: Lines) -> None:
    log = logging.getLogger("discord.shard")
    error = discord.GatewayNotFound()  # type: ignore[no-untyped-call]  # discord.py's own
    log.error("Attempting a reconnect for shard ID %s in %.2fs", 1, 7.25, exc_info=error)
    try:
        raise TimeoutError
    except TimeoutError:
        log.exception("Failed to connect for shard_id: %s. Retrying...", 0)  # discord/shard.py
    assert len(lines.texts) == 2
    assert lines.texts[0].startswith(
        "WARNING discord.shard: Attempting a reconnect for shard ID 1 in 7.25s (GatewayNotFound: "
    )
    assert lines.texts[1] == (
        "WARNING discord.shard: Failed to connect for shard_id: 0. Retrying... (TimeoutError)"
    )
    assert not any("Traceback" in text or "\n" in text for text in lines.texts)


def test_other_errors_keep_their_traceback(lines: Lines) -> None:
    log = logging.getLogger("discord.client")
    try:
        raise ValueError("a bug in an event handler")
    except ValueError:
        log.exception("Ignoring exception in %s", "on_message")  # discord/client.py
    assert len(lines.texts) == 1
    assert lines.texts[0].startswith("ERROR discord.client: Ignoring exception in on_message")
    assert "Traceback" in lines.texts[0] and "a bug in an event handler" in lines.texts[0]


def test_the_bot_installs_the_filter_with_its_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("discord.client", "discord.shard"):
        logger = logging.getLogger(name)
        monkeypatch.setattr(logger, "filters", [])
    monkeypatch.setattr(logging, "basicConfig", lambda **_: None)  # keep pytest's handlers
    bot.configure_logging()
    for name in ("discord.client", "discord.shard"):
        filters = logging.getLogger(name).filters
        assert [type(f) for f in filters] == [lifecycle.OneLineReconnects], name
