"""Who has the live table open (``store.presence``, db/presence.py), on both engines: rows
written, renewed, run out and deleted per process, and a page opened or closed announced as
(0, channel) to every store listening; a renewal is not announced."""

from __future__ import annotations

import asyncio
import time

from db.store import Store
from tests.store.conftest import OpenStore
from tests.store.test_changes import Heard

CHANNEL, OTHER, ANA, BO = 77, 78, 1, 2


async def test_open_pages_are_found_until_they_run_out_or_close(store: Store) -> None:
    now = time.time()
    await store.presence.here([(ANA, CHANNEL), (BO, CHANNEL), (ANA, OTHER)], now + 90)
    assert await store.presence.on_page(CHANNEL, now) == {ANA, BO}
    assert await store.presence.on_page(OTHER, now) == {ANA}
    assert await store.presence.on_page(CHANNEL, now + 91) == set()  # ran out
    await store.presence.here([(ANA, CHANNEL)], now + 200)  # renewed
    assert await store.presence.on_page(CHANNEL, now + 91) == {ANA}
    await store.presence.gone(ANA, CHANNEL)
    assert await store.presence.on_page(CHANNEL, now) == {BO}
    await store.presence.prune(now + 100)
    rows = await store.fetch("SELECT user_id, channel_id FROM live_presence")
    assert rows == []


async def test_each_process_holds_its_own_rows(open_store: OpenStore, engine: str) -> None:
    if engine != "postgres":
        return  # one process per SQLite file
    first, second = await open_store(), await open_store()
    now = time.time()
    await first.presence.here([(ANA, CHANNEL)], now + 90)
    await second.presence.here([(ANA, CHANNEL)], now + 90)
    await first.presence.gone(ANA, CHANNEL)  # one of her two pages closed
    assert await second.presence.on_page(CHANNEL, now) == {ANA}
    await second.presence.gone(ANA, CHANNEL)
    assert await first.presence.on_page(CHANNEL, now) == set()


async def test_a_page_opened_or_closed_is_announced_and_a_renewal_is_not(
    open_store: OpenStore, engine: str
) -> None:
    writer = await open_store()
    listener = writer if engine == "sqlite" else await open_store()
    heard = Heard()
    await listener.watch_changes(heard)
    now = time.time()
    await writer.presence.here([(ANA, CHANNEL)], now + 90)
    assert await heard.next() == {(0, CHANNEL)}
    await writer.presence.here([(ANA, CHANNEL)], now + 120)
    await asyncio.sleep(0.3)
    assert heard.changes == []
    heard.changes.clear()
    heard.event.clear()
    await writer.presence.gone(ANA, CHANNEL)
    assert await heard.next() == {(0, CHANNEL)}
