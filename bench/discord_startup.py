"""A restart with many open games, for ``bench.discord_load --startup`` (not a test).

The database is built directly with the store API: ``games`` started games (all human seats,
mixed over the four games; 200 players, each in several games, their DM channels known as a
running bot records them; no message drawn yet), one channel each. Two
starts of the real bot against the rate-limited fake Discord (real windows):

- nothing stale (every game shown up to its last move): the REST calls that redraw games in
  the first 20 s after ready (target 0);
- all stale (no game shown yet): the 429s while the bot redraws in the background (target 0),
  and a move in one game: the player asks for their hand (``/<game> hand``) as soon as the
  bot is ready and clicks a move on it; the time from ready to the click's answer (target
  within 1 s), and how far the redraw got in ``WATCH_SECONDS``.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

from bench import discord_players as dp
from db.opening import open_store
from engine import GAMES
from engine.base import Game
from tests.e2e.driver import live_controls
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

PLAYERS = 200
SEATS = {"grinch": 2, "gnome": 3, "hearts": 2, "ten": 2}
ORDER = ("grinch", "gnome", "hearts", "ten")
WATCH_SECONDS = 60.0
QUIET_SECONDS = 20.0
WRITES = ("POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/")


async def build(
    fake: FakeDiscord, db: Path, games: int, *, stale: bool
) -> tuple[int, tuple[int, int, str]]:
    """The open games in ``db``; returns how many, and a due player of the first one
    (channel, user, game)."""
    guild = fake.add_guild("Restart")
    users = [fake.add_user(f"r{n}", guild_ids=[guild]) for n in range(PLAYERS)]
    store = await open_store(db)
    probe: tuple[int, int, str] | None = None
    rng = random.Random(7)
    try:
        for n in range(games):
            name = ORDER[n % len(ORDER)]
            channel = fake.add_channel(guild, f"r-{n}")
            seated = rng.sample(users, SEATS[name])
            row = await store.lobbies.create_lobby(
                guild_id=guild,
                channel_id=channel,
                game=name,
                host_id=seated[0],
                host_name="P0",
                seed=n,
            )
            for k, user in enumerate(seated[1:], start=1):
                await store.lobbies.add_seat(row.id, user_id=user, name=f"P{k}", max_seats=7)
            state = _settled(GAMES[name], GAMES[name].new_game(len(seated), n))
            deadline = time.time() + 3600
            due = GAMES[name].to_act(state)
            await store.play.start(
                row.id,
                GAMES[name].to_json(state),
                {k: deadline if k in due else None for k in range(len(seated))},
            )
            for k, user in enumerate(seated):  # DM channels known, as a running bot keeps them
                await store.seats.set_dm(row.id, k, channel_id=fake.open_dm(user), message_id=None)
            if not stale:
                await store.shown.set_rendered_version(row.id, 0)
            if probe is None:
                probe = (channel, next(u for k, u in enumerate(seated) if k in due), name)
    finally:
        await store.close()
    assert probe is not None
    return games, probe


def _settled(game: Game[Any, Any], state: Any) -> Any:
    """``state`` with the moves nobody chooses played (a player's only possible move), as
    the bot plays them before anyone sees the game: a running bot leaves no game with one
    due."""
    while forced := [
        (seat, action)
        for seat in sorted(game.to_act(state))
        if (action := game.forced(state, seat)) is not None
    ]:
        state = game.apply(state, *forced[0])
    return state


def _writes(fake: FakeDiscord, since: int) -> int:
    return sum(1 for r in fake.requests[since:] if r.kind.startswith(WRITES))


async def _probe(fake: FakeDiscord, probe: tuple[int, int, str], ready: float) -> str:
    """A due player of the first game asks for their hand and clicks a move on it."""
    channel, user, game = probe
    hand = await (await fake.slash(user, channel, f"{game} hand")).wait_response(5)
    message = hand.message() if not hand.deferred else await hand.interaction.wait_message(5)
    assert message is not None
    moves, menus = live_controls(message)
    mid = int(message["id"])
    if moves:
        rec = await fake.click(user, mid, moves[0].custom_id or "")
    else:
        menu = menus[0]
        values = [v for _, v in menu.options[: max(1, menu.min_values)]]
        rec = await fake.select(user, mid, menu.custom_id, values)
    answer = await rec.wait_response(5)
    served = (rec.acked_at or time.monotonic()) - ready
    return (
        f"hand answered {hand.interaction.ack_latency or 0:.3f} s after asking; the move "
        f"answered (type {answer.type}) {served:.2f} s after ready, "
        f"click -> answer {rec.ack_latency or 0:.3f} s"
    )


async def one_start(folder: Path, games: int, *, stale: bool) -> None:
    fake = FakeDiscord()
    fake.click_settle = 0.0
    await fake.start()
    db = folder / f"restart-{'stale' if stale else 'fresh'}.db"
    bot = BotProcess(
        fake,
        folder / f"restart-{stale}.log",
        env={"DATABASE_PATH": str(db), "TURN_TIMEOUT_SECONDS": "300", "LOG_LEVEL": "WARNING"},
    )
    try:
        built = time.monotonic()
        _, probe = await build(fake, db, games, stale=stale)
        print(f"   built {games} games in {time.monotonic() - built:.1f} s")
        since = len(fake.requests)
        with dp.harness_without_pauses():  # the fake holds every game's messages
            await bot.start(timeout=120)
            ready = time.monotonic()
            fake.stats.reset()
            probed = await _probe(fake, probe, ready) if stale else ""
            watch = WATCH_SECONDS if stale else QUIET_SECONDS
            await asyncio.sleep(max(0.0, ready + watch - time.monotonic()))
        stats = fake.stats
        print(
            f"   {'all stale' if stale else 'nothing stale'}: {_writes(fake, since)} message "
            f"writes (redraws) in {watch:.0f} s after ready; 429s bucket {stats.bucket_429}, "
            f"global {stats.global_429} {dict(stats.by_route_429())}; load average "
            + " ".join(f"{x:.2f}" for x in os.getloadavg())
        )
        if probed:
            print(f"   {probed}")
    finally:
        await bot.stop()
        await fake.stop()


async def startup(folder: Path, games: int) -> None:
    print(f"\n== restart with {games} open games")
    await one_start(folder, games, stale=False)
    await one_start(folder, games, stale=True)
