"""A click replayed to another worker on one PostgreSQL database changes nothing.

Two workers (`bot.py worker`) and a gateway process share a database; Discord's POSTs go to
the first worker. Each click is then POSTed again, signed anew, to the second worker, which
has never seen its id. A move click is not asked of the database's memory of interaction ids
(web/interactions.py): the second worker takes it to the game, which refuses it as stale, so
the action log holds it once. A lobby click, which no game step guards, is refused by that
memory before any handler sees it.

Needs PostgreSQL (as tests/e2e/test_shards.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.driver import OLD_CONTROL, find_button, live_move_buttons, quiet
from tests.e2e.ledger import Database
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

pytestmark = pytest.mark.timeout(180)


async def _count(db: Database, sql: str) -> int:
    return int((await db.rows(sql))[0]["n"])


async def _until(db: Database, sql: str, wanted: int, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while await _count(db, sql) != wanted:
        assert asyncio.get_running_loop().time() < deadline, f"{sql}: never {wanted}"
        await asyncio.sleep(0.05)


async def _replayed(endpoint: Any, payload: Any, port: int) -> tuple[int, str]:
    """``payload`` POSTed to the worker on ``port`` (Discord's own payload, signed now)."""
    first = endpoint.port
    endpoint.port = port
    try:
        answer: tuple[int, str] = await endpoint.post(payload)
        return answer
    finally:
        endpoint.port = first


async def test_a_click_replayed_to_another_worker_changes_nothing(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.05
    endpoint = fake.serve_interactions_over_http()
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    common = {"DATABASE_URL": pg_database, "TURN_TIMEOUT_SECONDS": "0"}
    gateway = BotProcess(fake, tmp_path / "gateway.log")
    first, second = BotProcess(fake, tmp_path / "w1.log"), BotProcess(fake, tmp_path / "w2.log")
    other_port = free_port()
    db = Database(pg_database)
    try:
        await gateway.start(
            env={**common, "INTERACTIONS": "gateway", "WEB_PORT": "",
                 "DATABASE_PATH": str(tmp_path / "gateway.db")}
        )  # fmt: skip
        for worker, port, name in ((first, endpoint.port, "w1"), (second, other_port, "w2")):
            env = {**common, "WEB_PORT": str(port), "DATABASE_PATH": str(tmp_path / f"{name}.db")}
            await worker.start(env=env, args=("worker",), wait=False)
            await wait_ok(port)

        lobby = (await (await fake.slash(alice, channel, "grinch start")).wait_response()).message()
        assert lobby is not None
        seated = "SELECT count(*) AS n FROM seats WHERE user_id IS NOT NULL"
        assert await _count(db, seated) == 1
        join = await fake.click(bob, int(lobby["id"]), find_button(lobby, "Join").custom_id or "")
        await join.wait_response()
        await _until(db, seated, 2)
        assert (await _replayed(endpoint, join.payload, other_port))[0] == 401
        assert "refused a replayed interaction" in second.log_text()
        assert await _count(db, seated) == 2
        lobby = fake.message(int(lobby["id"])) or lobby
        start = find_button(lobby, "Start").custom_id or ""
        await (await fake.click(alice, int(lobby["id"]), start)).wait_response()
        await quiet(fake)

        mover, found = next(
            (u, f) for u in (alice, bob) if (f := live_move_buttons(fake.dm_messages(u)))
        )
        message, options = found
        actions = "SELECT count(*) AS n FROM actions"
        before = await _count(db, actions)
        move = await fake.click(mover, int(message["id"]), options[0].custom_id or "")
        await move.wait_response()
        await _until(db, actions, before + 1)
        await quiet(fake)
        callback = f"/interactions/{move.id}/"
        assert len(fake.requests_to("POST", callback)) == 1
        assert (await _replayed(endpoint, move.payload, other_port))[0] == 202  # to the game
        # The second worker's answer, refused by Discord: the first one answered already.
        second_answer = await fake.wait_for(
            lambda: [r for r in fake.requests_to("POST", callback) if r.status == 400], 10
        )
        assert OLD_CONTROL in str(second_answer[0].json)
        await quiet(fake)
        assert await _count(db, actions) == before + 1
        assert second.log_text().count("refused a replayed interaction") == 1
    finally:
        await db.close()
        for proc in (second, first, gateway):
            await proc.stop()
