"""This process's open pages (web/pages.py): written once per person and channel, renewed,
and ended only when the last socket closed and no new one came within the grace (a reload),
then the hand is caught up once."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from web import pages
from web.pages import OpenPages


class Showing:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def page_open(self, pairs: Any, now: float) -> None:
        self.calls.append(("open", sorted(pairs)))

    async def page_closed(self, user_id: int, channel_id: int) -> None:
        self.calls.append(("closed", (user_id, channel_id)))


class Publisher:
    def __init__(self) -> None:
        self.caught_up: list[tuple[int, int]] = []

    async def page_closed(self, channel_id: int, user_id: int) -> None:
        self.caught_up.append((channel_id, user_id))


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> tuple[OpenPages, Showing, Publisher]:
    monkeypatch.setattr(pages, "CLOSE_GRACE_SECONDS", 0.05)
    showing, publisher = Showing(), Publisher()
    service = cast(Any, type("Service", (), {"showing": showing})())
    return OpenPages(service, cast(Any, publisher), wall=lambda: 1000.0), showing, publisher


async def test_the_last_socket_closing_ends_the_page_after_the_grace(
    made: tuple[OpenPages, Showing, Publisher],
) -> None:
    open_pages, showing, publisher = made
    await open_pages.opened(1, 10)
    await open_pages.opened(1, 10)  # a second tab: nothing more to write
    assert showing.calls == [("open", [(1, 10)])]
    await open_pages.closed(1, 10)
    await asyncio.sleep(0.1)
    assert publisher.caught_up == []  # one tab is still open
    await open_pages.closed(1, 10)
    assert publisher.caught_up == []  # not before the grace
    await asyncio.sleep(0.1)
    assert showing.calls[-1] == ("closed", (1, 10)) and publisher.caught_up == [(10, 1)]


async def test_a_reload_within_the_grace_closes_nothing(
    made: tuple[OpenPages, Showing, Publisher],
) -> None:
    open_pages, showing, publisher = made
    await open_pages.opened(2, 20)
    await open_pages.closed(2, 20)
    await open_pages.opened(2, 20)  # the reloaded page's socket
    await asyncio.sleep(0.1)
    assert publisher.caught_up == [] and ("closed", (2, 20)) not in showing.calls
    await open_pages.stop()  # a clean stop says the page is gone, without a catch-up
    assert showing.calls[-1] == ("closed", (2, 20)) and publisher.caught_up == []
