"""The REST budget per move, end to end: four games at once (one of each), players clicking at
human speed in compressed time; the fake counts every call the bot makes.

Asserted: at most 2.5 REST calls per accepted move averaged over the four games (every call,
interaction callbacks included, over every move the bot recorded: the players' and the
computers' answers to them; the same mix as ``bench/discord_load.py``); no 429; at most one
notifying DM per player per turn of theirs (between two of a player's accepted moves, at most
one new DM without the silent flag reaches them); the clicks' updates ask Discord for no
answer back.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from collections import defaultdict
from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    bot_env,
    move_accepted,
    newest_live_controls,
    open_game,
    quiet,
)
from tests.fakediscord import FakeDiscord

MOVES_PER_GAME = 12
PLAY_SECONDS = 20.0
MAX_CALLS_PER_MOVE = 2.5
SILENT = 4096
POST_MESSAGE = re.compile(r"^/channels/(\d+)/messages$")
GAMES = (("grinch", 3, 1), ("gnome", 3, 1), ("hearts", 2, 0), ("ten", 2, 1))  # humans, computers


async def _play(
    fake: FakeDiscord,
    users: list[int],
    rng: random.Random,
    until: float,
    moves: dict[int, list[float]],
) -> int:
    """Click random live controls of one game's players until enough moves were taken."""
    accepted = 0
    while accepted < MOVES_PER_GAME and time.monotonic() < until:
        await asyncio.sleep(rng.uniform(0.1, 0.3))
        found = [(u, f) for u in users if (f := newest_live_controls(fake, u)) is not None]
        if not found:
            continue
        user, (message, buttons, menus) = rng.choice(found)
        try:
            if buttons:
                rec = await fake.click(
                    user, int(message["id"]), rng.choice(buttons).custom_id or ""
                )
            else:
                menu = rng.choice(menus)
                values = [v for _, v in menu.options[: max(1, menu.min_values)]]
                rec = await fake.select(user, int(message["id"]), menu.custom_id, values)
        except LookupError:  # redrawn between reading and clicking
            continue
        reply = await rec.wait_response()
        if move_accepted(reply):
            accepted += 1
            moves[user].append(time.monotonic())
    return accepted


def _notifications(fake: FakeDiscord, since: int) -> dict[int, list[float]]:
    """Times of new DMs that notify (no silent flag), per user."""
    owner = {channel: user for user, channel in fake.dm_channels.items()}
    out: dict[int, list[float]] = defaultdict(list)
    for request in fake.requests[since:]:
        match = POST_MESSAGE.match(request.path)
        if request.method != "POST" or match is None or request.status != 200:
            continue
        user = owner.get(int(match[1]))
        flags = int((request.json or {}).get("flags") or 0)
        if user is not None and not flags & SILENT:
            out[user].append(request.at)
    return out


async def test_four_games_stay_within_the_rest_budget(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.1
    guild = fake.guild_named("Test Server")
    tables = []
    for n, (game, humans, computers) in enumerate(GAMES):
        channel = fake.add_channel(guild, f"budget-{n}")
        users = [fake.add_user(f"{game}-{k}") for k in range(humans)]
        tables.append((game, channel, users, computers))
    await bot_process.start(env=bot_env(tmp_path))
    for game, channel, users, computers in tables:
        await open_game(fake, channel, users[0], users[1:], computers, game=game)
    fake.stats.reset()
    since, recorded = len(fake.requests), action_count(tmp_path / "bot.db")
    moves: dict[int, list[float]] = defaultdict(list)
    rng = random.Random(15)
    until = time.monotonic() + PLAY_SECONDS
    taken = await asyncio.gather(
        *(_play(fake, users, random.Random(rng.random()), until, moves) for *_, users, _ in tables)
    )
    await quiet(fake)
    assert all(n >= 4 for n in taken), taken
    calls = sum(fake.stats.calls.values())
    per_move = calls / (action_count(tmp_path / "bot.db") - recorded)
    assert per_move <= MAX_CALLS_PER_MOVE, (per_move, dict(fake.stats.calls))
    assert fake.stats.total_429 == 0, fake.stats.summary()
    # A click's answer updates its message without asking Discord to send the message back.
    updates = [
        r
        for r in fake.requests[since:]
        if r.kind.startswith("POST /interactions/") and (r.json or {}).get("type") == 7
    ]
    assert updates, "no click was answered with an update"
    assert all(r.status == 204 and "with_response" not in r.query for r in updates)
    for user, times in _notifications(fake, since).items():
        own = moves[user]
        # between two of their moves (and before the first, after the last): at most one
        edges = [-1.0, *own, float("inf")]
        for start, end in itertools.pairwise(edges):
            pings = [t for t in times if start < t <= end]
            assert len(pings) <= 1, (user, own, times)
