"""The lobby's panel: the seats taken, who still has to accept, and what the game needs.
Once the lobby is closed nobody is waiting any more: a challenge declined says so on the
seat of the person who declined it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.base import Game, Level
from i18n import _, ngettext
from presentation.base import BLUE, GREY, Panel, computer_label
from presentation.titles import title_of


class LobbySeat(Protocol):
    """A seat of a lobby as the panel reads it (the store's seat rows satisfy it)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def name(self) -> str: ...

    @property
    def is_computer(self) -> bool: ...

    @property
    def accepted(self) -> bool: ...

    @property
    def level(self) -> Level: ...


def players_needed(game: Game[Any, Any]) -> str:
    """How many players ``game`` takes: "4 players", "2–6 players"."""
    if game.min_players == game.max_players:
        return ngettext("{n} player", "{n} players", game.min_players)
    return ngettext("{low}–{n} player", "{low}–{n} players", game.max_players, low=game.min_players)


def lobby_panel(
    game: Game[Any, Any],
    seats: Sequence[LobbySeat],
    host_id: int | None,
    closing: str | None = None,
    declined_by: int | None = None,
) -> Panel:
    """The lobby message: who sits, who is still to accept, and what the game needs;
    ``closing``: the lobby's last word once it is closed, instead of what to press;
    ``declined_by``: the challenged person who declined (the lobby closed on it)."""
    ended = closing is not None
    lines = []
    for seat in seats:
        if seat.is_computer:  # the robot is in the label, after the name, as everywhere
            lines.append(f"▫️ {computer_label(seat.name, seat.level)}")
            continue
        mark, note = "🙂", ""
        if not seat.accepted and seat.user_id is not None and seat.user_id == declined_by:
            mark, note = "✖️", " — " + _("declined the challenge")
        elif not seat.accepted and ended:  # closed before they answered: nobody waits now
            mark = "➖"
        elif not seat.accepted:
            mark, note = "⏳", " — " + _("waiting for them to accept")
        host = " " + _("(host)") if seat.user_id == host_id else ""
        lines.append(f"{mark} {seat.name}{host}{note}")
    count = len(seats)
    if closing is None:
        if any(not seat.accepted for seat in seats):  # a challenge: its buttons are these
            closing = _("Press **Accept** to play or **Decline** to refuse the challenge.")
        else:
            closing = _("Press **Join** to take a seat. The host starts the game.")
    need = players_needed(game)
    return Panel(
        title=_("{game} — lobby", game=title_of(game)),
        description=(
            need
            + " · "
            + ngettext("{n} seated", "{n} seated", count)
            + "\n\n"
            + "\n".join(lines)
            + "\n\n"
            + closing
        ),
        colour=GREY if ended else BLUE,
    )
