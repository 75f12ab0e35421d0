"""Interactions over HTTP (INTERACTIONS=http): the fake POSTs every slash command and click,
signed, to the bot's /interactions and never sends them on the gateway; whole games are
played that way, and a forged or replayed click changes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    assert_no_interaction_on_the_gateway,
    bot_env,
    game_row,
    live_move_buttons,
    open_game,
    play_to_the_end,
)
from tests.e2e.test_gnome_game import _play_one as play_gnome_move
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import wait_ok
from tests.fakediscord.interactions import component_payload


async def test_a_whole_game_over_http_and_nothing_on_the_gateway(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """Gnoming, whose moves are select menus too. Grinch, Hearts and Ten are played whole over
    HTTP by three workers in tests/e2e/test_workers.py, which checks the gateway as well."""
    fake, db = fake_discord, tmp_path / "bot.db"
    endpoint = fake.serve_interactions_over_http()
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, channel, alice, [bob], computers=1, game="gnome")
    assert game_row(db)["status"] == "active"
    rng = random.Random(3)
    for _ in range(400):
        if game_row(db)["status"] != "active":
            break
        assert await play_gnome_move(fake, [alice, bob], rng) is not None
    assert game_row(db)["status"] == "finished"
    assert endpoint.answers and {status for status, _ in endpoint.answers} == {202}
    assert_no_interaction_on_the_gateway(fake)


async def test_forged_and_replayed_clicks_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    endpoint = fake.serve_interactions_over_http()
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, channel, alice, [bob], computers=0, game="grinch")
    mover, found = next(
        (u, f) for u in (alice, bob) if (f := live_move_buttons(fake.dm_messages(u)))
    )
    message, options = found
    payload = component_payload(fake, mover, int(message["id"]), options[0].custom_id or "")
    before = action_count(db)
    body = json.dumps(payload).encode()
    forged = endpoint.sign(body)
    forged["X-Signature-Ed25519"] = "00" * 64
    assert (await endpoint.post(payload, body=body, headers=forged))[0] == 401
    stale = endpoint.sign(body, timestamp=1_000_000_000)
    assert (await endpoint.post(payload, body=body, headers=stale))[0] == 401
    assert action_count(db) == before  # nothing acted on
    assert (await endpoint.post(payload))[0] == 202  # the real one, once
    await fake.wait_for(lambda: action_count(db) > before, timeout=10)
    done = action_count(db)
    assert (await endpoint.post(payload))[0] == 401  # the same interaction again
    assert action_count(db) == done
    assert "refused a POST /interactions" in bot_process.log_text()
    assert "refused a replayed interaction" in bot_process.log_text()


async def test_a_worker_without_a_gateway_serves_a_whole_game(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """`bot.py worker`: logged in over REST, no gateway session, every click over HTTP."""
    fake, db = fake_discord, tmp_path / "bot.db"
    endpoint = fake.serve_interactions_over_http()
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))  # the gateway process syncs the commands
    await bot_process.stop()
    identified = fake.ready_count
    await bot_process.start(env=bot_env(tmp_path), args=("worker",), wait=False)
    await wait_ok(endpoint.port)
    assert "worker, no gateway" in bot_process.log_text()
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, channel, alice, [bob], computers=1, game="grinch")
    await play_to_the_end(fake, [alice, bob], random.Random(8), db, channel=channel)
    assert game_row(db)["status"] == "finished"
    assert fake.ready_count == identified  # the worker never connected to the gateway
    assert "synced" not in bot_process.log_text().split("start #2")[1]
