"""What a move owes its channel, folded into the table: a round's summary in a game that goes
on waits for the table's job; anything owed after it that cannot be folded sends it first, on
its own, so the channel keeps the order the moves owed them in."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from db.models import GameStatus
from delivery.owed import OwedPosts
from i18n import later
from service.owed import line, summary
from service.reports import Said

GAME, CHANNEL = 7, 70


@dataclass
class Outbox:
    """Records the keys queued, in their lane's order."""

    keys: list[Hashable] = field(default_factory=list)

    def put(self, lane: Hashable, key: Hashable, job: Any, *, game_id: int | None = None) -> Any:
        assert lane == ("ch", CHANNEL)
        self.keys.append(key)
        return asyncio.get_running_loop().create_future()


@dataclass
class Owing:
    sent: list[tuple[str, int | None]] = field(default_factory=list)

    async def mark(self, owed: Any, message_id: int | None) -> None:
        self.sent.append((owed.nonce, message_id))


def _loaded(status: GameStatus = GameStatus.ACTIVE) -> Any:
    return SimpleNamespace(row=SimpleNamespace(id=GAME, channel_id=CHANNEL, status=status))


def _posts(outbox: Outbox, owing: Owing) -> tuple[OwedPosts, list[int]]:
    folds: list[int] = []
    service = SimpleNamespace(owing=SimpleNamespace(sent=owing.mark))
    none = cast(Any, None)
    posts = OwedPosts(
        none,
        cast(Any, service),
        cast(Any, outbox),
        none,
        none,
        none,
        none,
        lambda loaded: None,
        fold=lambda loaded: folds.append(loaded.row.id),
    )
    return posts, folds


def _summary(version: int, *, result: bool = False) -> Said:
    return Said(summary(GAME, version, result=result), before=object(), after=object())


async def test_a_rounds_summary_waits_for_the_table_and_is_marked_sent_with_it() -> None:
    outbox, owing = Outbox(), Owing()
    posts, folds = _posts(outbox, owing)
    said = _summary(5)
    posts.put(_loaded(), said)
    posts.put(_loaded(), said)  # the repair finding it again: still once
    assert outbox.keys == [] and folds == [GAME]
    assert posts.folds(GAME) == [said]
    await posts.folded(_loaded(), [said], 99)
    assert owing.sent == [(said.owed.nonce, 99)] and posts.folds(GAME) == []


async def test_a_line_or_the_result_after_a_waiting_summary_sends_it_first() -> None:
    outbox, owing = Outbox(), Owing()
    posts, _ = _posts(outbox, owing)
    first, second = _summary(5), _summary(9)
    posts.put(_loaded(), first)
    posts.put(_loaded(), second)  # two rounds ended before the table's job ran
    timeout = Said(line(GAME, 10, later("{name} ran out of time")), text=later("x"))
    posts.put(_loaded(), timeout)
    nonces = [first.owed.nonce, second.owed.nonce, timeout.owed.nonce]
    assert outbox.keys == [("owed", n) for n in nonces]
    assert posts.folds(GAME) == []
    third = _summary(12)
    posts.put(_loaded(), third)
    result = _summary(14, result=True)  # never folded: the result has its own message
    posts.put(_loaded(GameStatus.FINISHED), result)
    assert outbox.keys[3:] == [("owed", third.owed.nonce), ("owed", result.owed.nonce)]


async def test_a_summary_of_a_game_already_over_is_posted_on_its_own() -> None:
    outbox, owing = Outbox(), Owing()
    posts, folds = _posts(outbox, owing)
    said = _summary(5)
    posts.put(_loaded(GameStatus.CANCELLED), said)
    assert outbox.keys == [("owed", said.owed.nonce)] and folds == []
