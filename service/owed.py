"""What a move owes the game's channel, kept in the store until it is posted (no Discord).

A move that ends a round owes its summary (the result, when it ends the game); a move played
for a player whose timer ran out owes the line saying so; a leave owes the line saying who
took the seat. Each is an :class:`db.outbox.Owed` row written in the move's own transaction:
after a crash, what was owed and not posted is still there, and the repairs post it
(:class:`Owing` is the delivery layer's port to those rows).
"""

from __future__ import annotations

__all__ = [
    "LINE",
    "SUMMARY",
    "Owing",
    "RoundEnded",
    "Said",
    "is_result",
    "line",
    "said_by",
    "summary",
    "text_of",
]

import asyncio
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from db.outbox import Owed, new_nonce
from db.store import Store
from i18n import Later
from service.reports import Loaded, Said

SUMMARY = "summary"  # the round that ended at the row's version (the result: body "result")
LINE = "line"  # a public line (body "text": a Later, translated when posted)

# Whether the move from the first state to the second ends a round the channel is shown a
# summary of (the presentation layer knows: bot.py wires it through the publisher).
RoundEnded = Callable[[Loaded, Any, Any], bool]


def said_by(
    round_ended: RoundEnded | None,
    loaded: Loaded,
    new: Any,
    *,
    finished: bool,
    lines: Iterable[Later],
) -> list[Said]:
    """What the move from ``loaded`` to ``new`` owes the channel: the summary of the round
    it ends (the result if ``finished``), then ``lines``."""
    game_id, version = loaded.row.id, loaded.row.version + 1
    said = []
    if round_ended is not None and round_ended(loaded, loaded.state, new):
        said.append(Said(summary(game_id, version, result=finished), loaded.state, new))
    said += [Said(line(game_id, version, text), text=text) for text in lines]
    return said


def summary(game_id: int, version: int, *, result: bool) -> Owed:
    body = json.dumps({"result": result})
    return Owed(game_id, version, SUMMARY, body, new_nonce())


def line(game_id: int, version: int, text: Later) -> Owed:
    body = json.dumps({"text": _encode(text)}, ensure_ascii=False)
    return Owed(game_id, version, LINE, body, new_nonce())


def is_result(owed: Owed) -> bool:
    return bool(json.loads(owed.body).get("result"))


def text_of(owed: Owed) -> Later:
    return _decode(json.loads(owed.body)["text"])


def _encode(text: Later) -> dict[str, Any]:
    values = {
        k: {"later": _encode(v)} if isinstance(v, Later) else v for k, v in text.values.items()
    }
    return {"message": text.message, "values": values, "context": text.context}


def _decode(data: Mapping[str, Any]) -> Later:
    values = {
        k: _decode(v["later"]) if isinstance(v, dict) and "later" in v else v
        for k, v in data["values"].items()
    }
    return Later(data["message"], values, data.get("context"))


class Owing:
    """The delivery layer's port to what is owed: take it, mark it sent, redraw its states."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def claim(self, limit: int = 20) -> list[Owed]:
        """Rows nobody is posting (their claim ran out, or their process stopped), taken by
        this process, oldest first."""
        return await self._store.outbox.claim_owed(limit=limit)

    async def sent(self, owed: Owed, message_id: int | None) -> None:
        await self._store.outbox.owed_sent(owed.nonce, message_id)

    async def release(self, nonce: str) -> None:
        """Give a row back unsent: the next repair of any process takes it."""
        await self._store.outbox.release_owed(nonce)

    async def prune(self) -> None:
        await self._store.outbox.prune_owed()

    async def states(self, loaded: Loaded, version: int) -> tuple[Any, Any]:
        """The game's states at ``version - 1`` and ``version``, replayed from its seed and
        its action log (the action of version ``n`` has ``seq`` n)."""
        actions = await self._store.games.actions(loaded.row.id)
        game = loaded.game

        def replay() -> tuple[Any, Any]:
            state = game.new_game(len(loaded.seats), loaded.row.seed)
            before = state
            for action in actions:
                if action.seq > version:
                    break
                before, state = (
                    state,
                    game.apply(state, action.seat, game.parse_action(action.action)),
                )
            return before, state

        return await asyncio.to_thread(replay)
