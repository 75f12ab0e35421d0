"""Discord faults during whole games: every game finishes, no player is ever stranded.

In each of the four games the fake answers chosen requests with 429, 500/502/503, 10008,
30046, 50007 and 50013, one step of faults after another while two players click at random
(a player whose DMs are closed, or become closed by a 50007, plays through "My hand"). After
every move, once the bot is quiet, each due human seat has a way to act: live controls of its
current step in the newest DM, or (DMs closed) a "My hand" button on the table. Every step
must have hit at least once, or the test would prove nothing. Then the players stop
clicking: their turn timers (3 s) put them on autopilot and the game must finish, with the
last faults still in place.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.chaos import (
    Sent,
    check_log,
    check_replay,
    clean_log,
    closed_dms,
    due_users,
    finishes,
    has_my_hand,
    send_random_move,
    stranded,
)
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, open_game, open_hand, quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import Fault

MESSAGE = "/channels/{channel_id}/messages/{message_id}"
MESSAGES = "/channels/{channel_id}/messages"


@dataclass
class Ctx:
    fake: FakeDiscord
    db: Path
    channel: int
    target: int  # the user whose DM channel gets the DM faults
    users: list[int]  # every human player

    @property
    def dm(self) -> int:
        found = self.fake.dm_channel_id(self.target)
        assert found is not None
        return found

    @property
    def dms(self) -> list[int]:
        """Every human's DM channel the bot has opened."""
        found = (self.fake.dm_channel_id(user) for user in self.users)
        return [channel for channel in found if channel is not None]

    @property
    def table(self) -> int:
        return int(game_row(self.db)["table_message_id"])

    def add(self, method: str, route: str, error: str, **where: int | float) -> Fault:
        return self.fake.faults.add(method, route, error, **where)  # type: ignore[arg-type]  # by name


def _deleted(fake: FakeDiscord, message_id: int) -> list[Fault]:
    fake.delete_message(message_id)
    return []


Step = Callable[[Ctx], list[Fault]]
BLOCKED = "50013 on the channel"
STEPS: list[tuple[str, Step]] = [
    (
        "429 on the table channel",
        lambda c: [
            c.add("PATCH", MESSAGE, "429", channel_id=c.channel, times=1, retry_after=0.3),
            c.add("POST", MESSAGES, "429", channel_id=c.channel, times=1, retry_after=0.3),
        ],
    ),
    ("500 on the table", lambda c: [c.add("PATCH", MESSAGE, "500", message_id=c.table, times=2)]),
    (
        "DM gone (10008), new DM 503 twice",
        lambda c: [
            c.add("PATCH", MESSAGE, "10008", channel_id=c.dm, times=1),
            c.add("POST", MESSAGES, "503", channel_id=c.dm, times=2),
        ],
    ),
    (
        "table too old to edit (30046, for good)",
        lambda c: [c.add("PATCH", MESSAGE, "30046", message_id=c.table)],
    ),
    # On every human's DM: whose DM the bot edits next, and when, depends on the random moves
    # and the turn timers.
    (
        "502 on a DM edit",
        lambda c: [c.add("PATCH", MESSAGE, "502", channel_id=dm, times=1) for dm in c.dms],
    ),
    ("table deleted by a moderator", lambda c: _deleted(c.fake, c.table)),
    (
        "DM gone, then DMs closed (50007)",
        lambda c: [
            c.add("PATCH", MESSAGE, "10008", channel_id=c.dm, times=1),
            c.add("POST", MESSAGES, "50007", channel_id=c.dm),
        ],
    ),
    (
        "50013 on the channel",
        lambda c: [c.add("*", MESSAGES + "*", "50013", channel_id=c.channel, times=1)],
    ),
]
TURN_TIMEOUT = 3  # seconds; the players click well within it until they stop
GAMES = {  # game: (humans, computers)
    "grinch": (["alice", "bob", "dora"], 0),
    "gnome": (["alice", "bob"], 1),
    "hearts": (["alice", "bob"], 0),
    "ten": (["alice", "bob"], 1),
}


# Longer than the gap between the outbox's first retries (0.5 s, then 1 s): a pause that long
# means the bot is done, not between two tries of a job.
RETRY_PAUSE = 1.6


async def _settle(fake: FakeDiscord, *, blocked: bool = False) -> None:
    """quiet(): the bot is done and its database says the game is fully shown. Once a channel
    refused the table (``blocked``), the table is only marked shown by a retry 15 s later or
    the periodic repair: then wait for the bot's requests alone, with a pause longer
    than a retry's, and at once: waiting out the database's checks first would let the turn
    timers move the game on meanwhile, and the wait could end between two of their writes."""
    if not blocked:
        await quiet(fake, timeout=6)
        return
    checks, fake.settle_checks[:] = list(fake.settle_checks), []
    hints, fake.idle_checks[:] = list(fake.idle_checks), []
    try:
        await quiet(fake, idle=RETRY_PAUSE)
    finally:
        fake.settle_checks[:] = checks
        fake.idle_checks[:] = hints


@pytest.mark.allow_429
@pytest.mark.parametrize("name", sorted(GAMES))
async def test_faults_during_a_whole_game(
    name: str, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    humans, computers = GAMES[name]
    users = [fake.user_named(n) for n in humans]
    channel = fake.channel_named("games")
    await bot_process.start(env=bot_env(tmp_path, timeout=str(TURN_TIMEOUT)))
    await open_game(fake, channel, users[0], users[1:], computers, game=name)
    game_id = int(game_row(db)["id"])
    target = users[1] if fake.dm_channel_id(users[1]) else users[0]
    ctx = Ctx(fake, db, channel, target=target, users=users)
    rng = random.Random(f"faults:{name}")
    injected: list[tuple[str, list[Fault]]] = []
    sent: list[Sent] = []
    hands: dict[int, int] = {}
    rounds = 0
    while len(injected) < len(STEPS) or rounds < 2 * len(STEPS) + 3:
        if game_row(db)["status"] != "active":
            break
        rounds += 1
        if rounds % 2 == 0 and len(injected) < len(STEPS):
            label, step = STEPS[len(injected)]
            injected.append((label, step(ctx)))
        due = due_users(db, game_id)
        for user in closed_dms(db, game_id) & due:
            hands[user] = await open_hand(fake, user, channel)
        move = await send_random_move(fake, users, rng, hands)
        assert move is not None, f"round {rounds}: nobody can act after {injected[-1:]}"
        sent.append(move)
        await move.rec.wait_response()
        steps = [label for label, _ in injected]
        # Retried and replaced messages all end up shown (quiet() checks the database says
        # so); only a channel refused stays behind.
        await _settle(fake, blocked=BLOCKED in steps)
        assert stranded(fake, db, game_id) == [], f"after {steps}"
    # Nobody clicks any more: the turn timers put the players on autopilot, the game ends.
    assert await finishes(db, game_id)
    await _settle(fake, blocked=True)
    assert len(injected) == len(STEPS), f"the game ended after {len(injected)} fault steps"
    missed = [label for label, faults in injected if faults and not any(f.hits for f in faults)]
    assert missed == [], f"faults that never hit: {missed}"
    check_log(db, game_id, sent)
    assert check_replay(db, game_id) == "finished"
    assert clean_log(bot_process.log_text()) == []


async def test_deleted_table_is_replaced_while_a_player_without_dms_is_due(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """A moderator deletes the table while the only due player has closed DMs: without a new
    table they would have no button to act with."""
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    alice, dora = fake.user_named("alice"), fake.user_named("dora")
    channel = fake.channel_named("games")
    await bot_process.start(env=bot_env(tmp_path))
    await open_game(fake, channel, alice, [dora], 0, game="hearts")
    game_id = int(game_row(db)["id"])
    rng = random.Random(3)
    while due_users(db, game_id) != {dora}:
        hand = (
            {dora: await open_hand(fake, dora, channel)} if dora in due_users(db, game_id) else {}
        )
        move = await send_random_move(fake, [alice, dora], rng, hand)
        assert move is not None
        await move.rec.wait_response()
        await quiet(fake)
    table = int(game_row(db)["table_message_id"])
    fake.delete_message(table)
    await fake.wait_for(
        lambda: (
            has_my_hand(fake, channel, game_id) and int(game_row(db)["table_message_id"]) != table
        ),
        timeout=10,
    )
    await quiet(fake)
    assert stranded(fake, db, game_id) == []
