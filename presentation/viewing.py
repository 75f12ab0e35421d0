"""What a seat sees of a game and who sits where, read the same way by every face of the bot:
its Discord messages (delivery/) and the live table's frames (web/).

:class:`Views` remembers each state's views and legal actions, :func:`names_of` turns a game's
seats into :class:`~presentation.base.Names`. Both read only the engine and the seats' plain
facts, so the page's side needs nothing of the Discord write path to use them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.base import Game, Level, seat_view
from presentation.base import Names

STATES_KEPT = 256  # states whose views are remembered: a move's are asked for several times


class Views:
    """``game.view(state, seat)``, the seat's legal actions and the private part of its view,
    each computed once per state and seat: a move's table, its hands, the clicker's answer
    and every seat's private key ask for the same ones (states are never modified, and what
    is handed out is only read; Ten's legal actions weigh every payment, the costliest part
    of its hands). One per owner, bounded: the newest ``kept`` states are remembered."""

    def __init__(self, kept: int = STATES_KEPT) -> None:
        self._kept = kept
        # id(state) -> (the state, so that its id is not reused; (kind, seat) -> value)
        self._memo: dict[int, tuple[Any, dict[tuple[str, int | None], Any]]] = {}

    def of(self, game: Game[Any, Any], state: Any, seat: int | None) -> Any:
        if seat is None or not hasattr(game, "seat_view"):
            return self._remember("view", state, seat, lambda: game.view(state, seat))
        # the seat's view from the public one, which the table draws anyway
        return self._remember(
            "view", state, seat, lambda: seat_view(game, state, seat, self.of(game, state, None))
        )

    def legal(self, game: Game[Any, Any], state: Any, seat: int) -> list[str]:
        """The seat's legal actions as the texts their controls carry."""
        texts: list[str] = self._remember(
            "legal", state, seat, lambda: [str(a) for a in game.legal_actions(state, seat)]
        )
        return texts

    def private(
        self, game: Game[Any, Any], state: Any, seat: int
    ) -> tuple[dict[str, Any], list[str]]:
        """What the seat's view shows that the public view does not, and its legal actions."""

        def compute() -> tuple[dict[str, Any], list[str]]:
            view, public = self.of(game, state, seat), self.of(game, state, None)
            private = {k: v for k, v in view.items() if (p := public.get(k)) is not v and p != v}
            return private, self.legal(game, state, seat)

        found: tuple[dict[str, Any], list[str]] = self._remember("private", state, seat, compute)
        return found

    def _remember(self, kind: str, state: Any, seat: int | None, compute: Callable[[], Any]) -> Any:
        entry = self._memo.get(id(state))
        if entry is None or entry[0] is not state:  # (an entry keeps its state alive, so
            entry = (state, {})  # its id cannot be another state's: checked all the same)
            self._memo[id(state)] = entry
            if len(self._memo) > self._kept:
                del self._memo[next(iter(self._memo))]  # the oldest state
        values = entry[1]
        key = (kind, seat)
        if key in values:
            return values[key]
        value = values[key] = compute()
        return value


class Seat(Protocol):
    """What names a seat (a stored seat row has these, and a replay's seat)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def is_computer(self) -> bool: ...
    @property
    def left_name(self) -> str | None: ...
    @property
    def level(self) -> Level | None: ...


class Seated(Protocol):
    """A game with its seats in order (a loaded game)."""

    @property
    def seats(self) -> Sequence[Seat]: ...


def names_of(game: Seated) -> Names:
    return seat_names(game.seats)


def seat_names(seats: Sequence[Seat]) -> Names:
    """The names of ``seats``, given in seat order (a game's, or a replay's at one step)."""
    return Names(
        tuple(s.name for s in seats),
        frozenset(s.seat for s in seats if s.is_computer),
        tuple(s.left_name for s in seats),
        tuple(s.level if s.is_computer else None for s in seats),
    )
