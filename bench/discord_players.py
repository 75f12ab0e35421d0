"""Simulated players and what they measure, for ``bench.discord_load`` (not a test).

Players are users of the fake Discord (``tests/fakediscord``) clicking a random live control
of their newest hand DM after a random think time, without waiting for the bot to go quiet.
The figures come from the fake's own records: interaction callbacks (when the clicker's own
message was updated), every REST request with its time (the table edits, notifying DMs) and
``fake.stats`` (calls by kind, 429s).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import re
import sqlite3
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from db.models import GameStatus
from db.opening import open_store
from tests.e2e.driver import (
    add_computer,
    find_button,
    live_controls,
    newest_live_controls,
    old_control_answer,
)
from tests.fakediscord import FakeDiscord, InteractionRecord
from tests.fakediscord.components import buttons

ACCEPTED = (6, 7)  # deferred update, update: the move was taken
SILENT = 4096  # message flag: no notification
MIX = (("grinch", 3, 1), ("gnome", 3, 1), ("hearts", 2, 0), ("ten", 2, 1))  # humans, computers
CLK_TCK = os.sysconf("SC_CLK_TCK")
PATCH_MESSAGE = re.compile(r"^/channels/(\d+)/messages/(\d+)$")
POST_MESSAGE = re.compile(r"^/channels/(\d+)/messages$")


@dataclass(slots=True)
class Table:
    """One game being played: its channel and its human players."""

    game: str
    channel: int
    humans: list[int]
    computers: int


@dataclass(slots=True)
class Clicks:
    """What the players saw."""

    accepted: list[InteractionRecord] = field(default_factory=list)
    stale: int = 0
    refused: int = 0
    vanished: int = 0  # the control was gone before the click went out
    unanswered: int = 0
    by_user: Counter[int] = field(default_factory=Counter)


# Half the games 2-player Hearts, the others over the rest of MIX: friends who play fast.
HEARTS_HALF = (MIX[2], MIX[0], MIX[2], MIX[1], MIX[2], MIX[3])
MIXES = {"even": MIX, "hearts": HEARTS_HALF}


def world(fake: FakeDiscord, games: int, prefix: str = "", mix: str = "even") -> list[Table]:
    """A guild with one channel per game and fresh players for each (mixed over the games as
    ``mix``, a key of :data:`MIXES`, says)."""
    guild = fake.add_guild(f"Bench {prefix}")
    tables = []
    kinds = MIXES[mix]
    for n in range(games):
        name, humans, computers = kinds[n % len(kinds)]
        channel = fake.add_channel(guild, f"{prefix}table-{n}")
        users = [fake.add_user(f"{prefix}p{n}-{k}", guild_ids=[guild]) for k in range(humans)]
        tables.append(Table(name, channel, users, computers))
    return tables


async def known_dm_channels(fake: FakeDiscord, db: Path | str, users: list[int]) -> None:
    """Players who played before: their DM channels are in the database (an earlier, finished
    game each), so dealing does not wait for Discord's DM-open limit (10 per 10 s)."""
    store = await open_store(db)
    try:
        for n, user in enumerate(users):
            row = await store.lobbies.create_lobby(
                guild_id=1, channel_id=n + 1, game="ten", host_id=user, host_name="x", seed=n
            )
            await store.seats.set_dm(row.id, 0, channel_id=fake.open_dm(user), message_id=None)
            await store.play.end(row.id, GameStatus.FINISHED)
    finally:
        await store.close()


async def open_table(fake: FakeDiscord, table: Table) -> None:
    """`/<game> start`, the others join, computers are added, the host starts."""
    host = table.humans[0]
    reply = await (await fake.slash(host, table.channel, f"{table.game} start")).wait_response(20)
    lobby = reply.message()
    assert lobby is not None, reply
    lobby_id = int(lobby["id"])
    for user in table.humans[1:]:
        custom_id = await _lobby_button(fake, lobby_id, lobby, "Join")
        await (await fake.click(user, lobby_id, custom_id)).wait_response(20)
    for _ in range(table.computers):
        await (await add_computer(fake, host, lobby_id)).wait_response(20)
    custom_id = await _lobby_button(fake, lobby_id, lobby, "Start")
    await (await fake.click(host, lobby_id, custom_id)).wait_response(20)


async def _lobby_button(fake: FakeDiscord, lobby_id: int, first: Any, label: str) -> str:
    """The custom_id of the lobby's button ``label``, once it can be clicked. A bot that
    deferred the command (a busy database) shows the lobby only when it edits its answer, and
    Start stays disabled until the edit that shows the last seat taken: wait for those edits."""

    def found() -> bool:
        with contextlib.suppress(LookupError):
            return not find_button(fake.message(lobby_id) or first, label).disabled
        return False

    await fake.wait_for(found, timeout=20)
    return find_button(fake.message(lobby_id) or first, label).custom_id or ""


async def think_then(rng: random.Random, think: tuple[float, float], until: float) -> bool:
    """Think ``think`` seconds (uniform); False if the run ends meanwhile (no click then).

    A player still thinking when the window closes does not click at its last instant: a
    loop that slept ``min(pause, until - now)`` and clicked made about half of all players
    click together at the end (a burst no human makes, and the slowest answers after the
    first 5 s of every run)."""
    now = time.monotonic()
    pause = rng.uniform(*think)
    if now + pause >= until:
        await asyncio.sleep(max(0.0, until - now))
        return False
    await asyncio.sleep(pause)
    return True


async def play_everyone(
    fake: FakeDiscord,
    humans: Iterable[int],
    seed: int,
    seconds: float,
    think: tuple[float, float],
) -> tuple[Clicks, float]:
    """Every player of ``humans`` at once for ``seconds``: their clicks and the time it took."""
    clicks = Clicks()
    rng = random.Random(seed)
    start = time.monotonic()
    until = start + seconds
    await asyncio.gather(
        *(play(fake, user, random.Random(rng.random()), until, think, clicks) for user in humans)
    )
    return clicks, time.monotonic() - start


async def play(
    fake: FakeDiscord,
    user: int,
    rng: random.Random,
    until: float,
    think: tuple[float, float],
    clicks: Clicks,
) -> None:
    """One player: think, click a random live control of the newest hand, repeat."""
    while await think_then(rng, think, until):
        found = newest_live_controls(fake, user)
        if found is None:
            continue
        message, moves, menus = found
        message_id = int(message["id"])
        try:
            if moves and (not menus or rng.random() < 0.8):
                button = rng.choice(moves)
                rec = await fake.click(user, message_id, button.custom_id or "")
            else:
                menu = rng.choice(menus)
                values = [v for _, v in rng.sample(menu.options, k=max(1, menu.min_values))]
                rec = await fake.select(user, message_id, menu.custom_id, values)
        except LookupError:
            clicks.vanished += 1
            continue
        try:
            reply = await rec.wait_response(timeout=5.0)
        except TimeoutError:
            clicks.unanswered += 1
            continue
        if old_control_answer(reply):  # the hand drawn again with the reason, or the reason
            clicks.stale += 1
        elif reply.type in ACCEPTED:
            clicks.accepted.append(rec)
            clicks.by_user[user] += 1
        else:
            clicks.refused += 1


@contextlib.contextmanager
def harness_without_pauses() -> Iterator[None]:
    """This process (the fake Discord and the players) keeps every request, message and click
    it saw, a heap growing by tens of thousands of objects a second: Python's full
    collections paused it 0.15-0.44 s at a time during a run at 100 games (1.2 s at its end),
    and every click the bot answered meanwhile was timed that much later. The measured window
    runs with this process's collector off, what was built before frozen out of its way; the
    bot's own collector is untouched."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def own_update_times(
    fake: FakeDiscord, accepted: list[InteractionRecord], *, turn: bool | None = None
) -> list[float]:
    """Click -> the clicker's own message updated: the update callback, or for a deferred
    click the edit of its original response. ``turn``: only the answers that show the
    clicker's next turn (enabled move controls: with pictures on, they carry its picture),
    or only those that do not."""
    edits: dict[str, tuple[float, Any]] = {}
    for request in fake.requests:
        if request.method == "PATCH" and request.path.endswith("/messages/@original"):
            edits.setdefault(request.path.split("/")[3], (request.at, request.json))
    out = []
    for rec in accepted:
        reply = rec.response
        if reply is not None and reply.type == 7 and rec.acked_at is not None:
            at, shown = rec.acked_at, reply.data
        elif rec.token in edits:
            at, shown = edits[rec.token]
        else:
            continue
        if turn is None or _shows_turn(shown) == turn:
            out.append(at - rec.sent_at)
    return out


def _shows_turn(message: Any) -> bool:
    moves, menus = live_controls(message) if isinstance(message, dict) else ([], [])
    return bool(moves or menus)


def table_messages(fake: FakeDiscord, channel: int) -> set[int]:
    """Messages of a channel that ever carried the table's "My hand" button."""
    found = set()
    for mid in fake.channel_messages.get(channel, []):
        for version in fake.message_versions(mid):
            if any((b.custom_id or "").startswith("hand:") for b in buttons(version)):
                found.add(mid)
                break
    return found


def _carries_table_buttons(payload: Any) -> bool:
    """Whether a message payload has the table's "My hand" button (custom_id ``hand:<id>``)."""
    rows = payload.get("components") or [] if isinstance(payload, dict) else []
    return any(
        str(item.get("custom_id", "")).startswith("hand:")
        for row in rows
        for item in (row.get("components") or [])
    )


def table_update_times(
    fake: FakeDiscord,
    accepted: list[InteractionRecord],
    channel_of: dict[int, int],
    first_request: int,
) -> tuple[list[float], int]:
    """Click -> the first write that showed the table after the move was committed (the
    click's acknowledgement follows the commit): a new table message, or an edit of one that
    keeps its buttons, or the last table's final edit (a game over has none). An old table's
    retirement shows no move and does not count. ``channel_of``: each player's game channel.
    Returns the latencies and the number of clicks whose table was never drawn afterwards.

    A table edit drawn just before the commit but sent after it would count too early; the
    bot redraws an edit that waited for its rate-limit slot, so that window is short.
    """
    writes: dict[int, list[float]] = {}
    tables: dict[int, set[int]] = {}
    for request in fake.requests[first_request:]:
        posted = POST_MESSAGE.match(request.path)
        if request.method == "POST" and posted and request.status == 200:
            if _carries_table_buttons(request.json):  # a new table (a new round's)
                writes.setdefault(int(posted[1]), []).append(request.at)
            continue
        match = PATCH_MESSAGE.match(request.path)
        if request.method != "PATCH" or match is None or request.status != 200:
            continue
        channel, message = int(match[1]), int(match[2])
        if channel not in tables:
            tables[channel] = table_messages(fake, channel)
        live = _carries_table_buttons(request.json)
        if message in tables[channel] and (live or message == max(tables[channel])):
            writes.setdefault(channel, []).append(request.at)
    out, missing = [], 0
    for rec in accepted:
        after = rec.acked_at or rec.sent_at
        times = writes.get(channel_of[rec.user_id], [])
        first = next((t for t in times if t >= after), None)
        if first is None:
            missing += 1
        else:
            out.append(first - rec.sent_at)
    return out, missing


def notifying_dms(fake: FakeDiscord, first_request: int) -> Counter[int]:
    """New DMs sent without the silent flag, per DM channel's user."""
    owner = {cid: uid for uid, cid in fake.dm_channels.items()}
    counts: Counter[int] = Counter()
    for request in fake.requests[first_request:]:
        match = POST_MESSAGE.match(request.path)
        if request.method != "POST" or match is None or request.status != 200:
            continue
        channel = int(match[1])
        if channel not in owner:
            continue
        flags = int((request.json or {}).get("flags") or 0)
        if not flags & SILENT:
            counts[owner[channel]] += 1
    return counts


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):  # gone meanwhile
        return None


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of the process alone (the event loop and its threads)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / CLK_TCK if fields else 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its live descendants (the bot's
    drawing and thinking processes count as the bot's)."""
    stats = {
        int(p.name): s
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and (s := _stat(int(p.name)))
    }
    parent = {child: int(fields[1]) for child, fields in stats.items()}
    total = 0
    for candidate, fields in stats.items():
        ancestor = candidate
        while ancestor not in (pid, 0, 1) and ancestor in parent:
            ancestor = parent[ancestor]
        if ancestor == pid:
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


def recorded_moves(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def moves_by_game(db: Path, since: float) -> Counter[str]:
    """Moves recorded since ``since`` (epoch seconds), per game type."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        rows = conn.execute(
            "SELECT g.game, COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id "
            "WHERE a.at >= ? GROUP BY g.game",
            (since,),
        ).fetchall()
    return Counter({str(game): int(n) for game, n in rows})


def calls_by_game(
    fake: FakeDiscord, tables: list[Table], first_request: int
) -> dict[str, Counter[str]]:
    """REST calls by kind per game type: a game's channel, its players' DMs and the
    interactions they made."""
    game_of_channel = {t.channel: t.game for t in tables}
    game_of_user = {u: t.game for t in tables for u in t.humans}
    for user, channel in fake.dm_channels.items():
        if user in game_of_user:
            game_of_channel[channel] = game_of_user[user]
    out: dict[str, Counter[str]] = {t.game: Counter() for t in tables}
    for request in fake.requests[first_request:]:
        parts = request.path.split("/")
        game = None
        if len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit():
            game = game_of_channel.get(int(parts[2]))
        elif len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
            rec = fake.interactions_by_token.get(parts[3])
            game = None if rec is None else game_of_user.get(rec.user_id)
        if game is not None and request.kind:
            out[game][request.kind] += 1
    return out
