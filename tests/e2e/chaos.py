"""Helpers of the reliability suite: clicks that remember what they sent, checks on the log.

A :class:`Sent` is one click or menu choice with the seat step and action its custom_id (or
value) carried. After a run, :func:`check_log` matches every ``player`` entry of the action
log with exactly one sent click (the seat's n-th action was made with its step n button) and
finds every acknowledged click there; :func:`check_replay` replays the log from the seed and
compares with the stored snapshot; :func:`stranded` lists human seats that are due but have
no way to act.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import GAMES
from tests.e2e.driver import live_controls, old_control_answer
from tests.fakediscord import FakeDiscord, InteractionRecord
from tests.fakediscord.components import buttons

JSON = dict[str, Any]
MOVE_ID = re.compile(r"gs?:(?P<game>\d+):(?P<step>\d+):(?P<rest>.*)")
UPDATE_MESSAGE, DEFERRED_UPDATE = 7, 6
NOISE = ("Traceback", " ERROR ")


@dataclass
class Sent:
    """One move a user sent: the seat step and action it carried, and its interaction."""

    user: int
    game_id: int
    step: int
    action: str
    rec: InteractionRecord

    @property
    def acknowledged(self) -> bool:
        """Answered as an accepted move: the clicked message updated with the new hand, or a
        deferred update followed by that edit (a bare deferral promises nothing yet); not an
        old control's answer (the hand drawn again with the reason on top)."""
        reply = self.rec.response
        if reply is None or old_control_answer(reply):
            return False
        deferred_then_edited = reply.type == DEFERRED_UPDATE and bool(self.rec.edits)
        return reply.type == UPDATE_MESSAGE or deferred_then_edited


def db_read(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        return [tuple(row) for row in conn.execute(sql, args).fetchall()]


def due_users(db: Path, game_id: int) -> set[int]:
    """Users whose seat is due now, from the stored snapshot."""
    (name, status, snapshot), *_ = db_read(
        db, "SELECT game, status, snapshot FROM games WHERE id = ?", game_id
    )
    if status != "active":
        return set()
    due = GAMES[name].to_act(GAMES[name].from_json(snapshot))
    rows = db_read(db, "SELECT seat, user_id FROM seats WHERE game_id = ?", game_id)
    return {user for seat, user in rows if seat in due and user is not None}


def closed_dms(db: Path, game_id: int) -> set[int]:
    rows = db_read(db, "SELECT user_id FROM seats WHERE game_id = ? AND dm_closed = 1", game_id)
    return {user for (user,) in rows}


async def send_random_move(
    fake: FakeDiscord, users: list[int], rng: random.Random, hands: dict[int, int] | None = None
) -> Sent | None:
    """A user with live controls in their newest DM (or, for users in ``hands``, in that
    ephemeral hand message) clicks a button or picks a menu value."""
    ready = []
    for user in users:
        if hands and user in hands:
            hand = fake.message(hands[user])
            candidates = [hand] if hand is not None else []
        else:
            candidates = fake.dm_messages(user)
        for message in reversed(candidates):
            moves, menus = live_controls(message)
            if moves or menus:
                ready.append((user, message, moves, menus))
                break
    if not ready:
        return None
    user, message, moves, menus = rng.choice(ready)
    message_id = int(message["id"])
    if menus and (not moves or rng.random() < 0.4):
        menu = rng.choice(menus)
        value = rng.choice(menu.options)[1]
        custom_id = menu.custom_id
        rec = await fake.select(user, message_id, custom_id, [value], force=True)
    else:
        custom_id = rng.choice(moves).custom_id or ""
        value = ""
        rec = await fake.click(user, message_id, custom_id, force=True)
    found = MOVE_ID.fullmatch(custom_id)
    assert found is not None, custom_id
    action = value or found["rest"]
    return Sent(user, int(found["game"]), int(found["step"]), action, rec)


async def wait_until(check: Callable[[], bool], timeout: float, step: float = 0.005) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(step)
    return check()


async def finishes(db: Path, game_id: int, *, stall: float = 45) -> bool:
    """Wait for the game to finish while it moves on: False once no action was logged for
    ``stall`` seconds (the game is stuck), however long a slow machine takes in all."""
    count, moved = -1, time.monotonic()
    while True:
        status, actions = db_read(
            db,
            "SELECT status, (SELECT COUNT(*) FROM actions WHERE game_id = games.id) "
            "FROM games WHERE id = ?",
            game_id,
        )[0]
        if status == "finished":
            return True
        if actions != count:
            count, moved = actions, time.monotonic()
        elif time.monotonic() - moved > stall:
            return False
        await asyncio.sleep(0.2)


def check_log(db: Path, game_id: int, sent: list[Sent]) -> None:
    """Every player entry of the log comes from one sent move; every acknowledged move is in
    the log exactly once (as its seat's step-th action, made by the player)."""
    seats = dict(db_read(db, "SELECT seat, user_id FROM seats WHERE game_id = ?", game_id))
    log = db_read(
        db, "SELECT seq, seat, action, actor FROM actions WHERE game_id = ? ORDER BY seq", game_id
    )
    seqs = [row[0] for row in log]
    assert seqs == list(range(len(seqs))) or seqs == list(range(1, len(seqs) + 1)), seqs[:20]
    by_seat: dict[int, list[tuple[str, str]]] = {}
    for _, seat, action, actor in log:
        by_seat.setdefault(seat, []).append((action, actor))
    mine = [s for s in sent if s.game_id == game_id]
    sent_at = {(s.user, s.step, s.action) for s in mine}
    used: set[tuple[int, int]] = set()
    for seat, entries in by_seat.items():
        for step, (action, actor) in enumerate(entries):
            if actor != "player":
                continue
            key = (seats[seat], step, action)
            assert key in sent_at, f"seat {seat}'s move #{step} {action!r} was never sent"
            used.add((seats[seat], step))
    for move in mine:
        if not move.acknowledged:
            continue
        seat = next(s for s, u in seats.items() if u == move.user)
        entries = by_seat.get(seat, [])
        assert move.step < len(entries), f"acknowledged move lost: {move}"
        assert entries[move.step] == (move.action, "player"), (move, entries[move.step])
    acked = {(m.user, m.step) for m in mine if m.acknowledged}
    assert acked <= used


def check_replay(db: Path, game_id: int) -> str:
    """Replay seed + log with the engine; the result must be the stored snapshot."""
    (name, seed, snapshot, status), *_ = db_read(
        db, "SELECT game, seed, snapshot, status FROM games WHERE id = ?", game_id
    )
    players = int(db_read(db, "SELECT COUNT(*) FROM seats WHERE game_id = ?", game_id)[0][0])
    game = GAMES[name]
    state = game.new_game(players, seed)
    for seat, action in db_read(
        db, "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", game_id
    ):
        state = game.apply(state, seat, game.parse_action(action))
    assert game.to_json(state) == snapshot, f"game {game_id}: the log does not replay"
    return str(status)


def stranded(fake: FakeDiscord, db: Path, game_id: int) -> list[str]:
    """Due human seats with no way to act: their newest DM has no live controls of their
    current step, and (DMs closed) the newest table message has no "My hand" button."""
    (name, status, snapshot, channel), *_ = db_read(
        db, "SELECT game, status, snapshot, channel_id FROM games WHERE id = ?", game_id
    )
    if status != "active":
        return []
    game = GAMES[name]
    due = game.to_act(game.from_json(snapshot))
    problems = []
    for seat, user, step, closed, computer, autopilot, known in db_read(
        db,
        "SELECT seat, user_id, step, dm_closed, is_computer, autopilot, dm_message_id "
        "FROM seats WHERE game_id = ?",
        game_id,
    ):
        if seat not in due or computer or autopilot or user is None:
            continue
        # The hand is the newest message the bot wrote there: an ephemeral answer to a click
        # on an older message (a refused old control) sits below it, and the hand stays live.
        dm_channel = fake.dm_channel_id(user)
        dms = [] if dm_channel is None else fake.messages(dm_channel)
        if dms and not closed:
            moves, menus = live_controls(dms[-1])
            ids = [b.custom_id or "" for b in moves] + [m.custom_id for m in menus]
            if any(i.startswith((f"g:{game_id}:{step}:", f"gs:{game_id}:{step}:")) for i in ids):
                continue
        if closed and has_my_hand(fake, channel, game_id):
            continue
        newest = dms[-1]["id"] if dms else None  # the bot's record vs. what the user sees
        problems.append(
            f"seat {seat} (user {user}, step {step}, dm_closed={closed}, "
            f"dm_message_id={known}, newest DM={newest})"
        )
    return problems


def has_my_hand(fake: FakeDiscord, channel: int, game_id: int) -> bool:
    """The channel's newest message with components is the table with a live "My hand"."""
    for message in reversed(fake.messages(channel)):
        if message.get("components"):
            return any(
                b.custom_id == f"hand:{game_id}" and not b.disabled for b in buttons(message)
            )
    return False


def clean_log(text: str) -> list[str]:
    """Lines of the bot's log that show a traceback or an ERROR."""
    return [line for line in text.splitlines() if any(n in line for n in NOISE)]
