"""/history lists and replay steps as panels, by the games' own renderers (no Discord).

A replay step is the game's public table (``UI.table`` of the spectator's view), as the
channel showed it; the last step adds the game's result panel. A seat that a person left to a
computer shows the person until the step they left, then the computer "(took their seat)".
Inputs are protocols that the service's dataclasses satisfy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from engine.base import View
from i18n import N_, _, translate
from presentation import UIS
from presentation.base import GREY, Names, Panel, replayed
from presentation.common import credited
from presentation.viewing import Seat, seat_names

# What the replay says of a move, by who made it (a person, or a computer: its name carries a
# robot, when the actor is not listed); ``{move}`` is the game's words for it (``move_line``).
MOVES = {
    "timeout": N_("{player} (timer ran out): {move}"),
    "autopilot": N_("{player} (autopilot): {move}"),
    "forced": N_("{player} (only possible move): {move}"),
}
PLAYED = N_("{player}: {move}")


class Summary(Protocol):
    @property
    def game_id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def ended_at(self) -> float: ...
    @property
    def players(self) -> Sequence[Seat]: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def winners(self) -> frozenset[int]: ...


class Frame(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def step(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def view(self) -> View: ...
    @property
    def players(self) -> Sequence[Seat]: ...
    @property
    def move(self) -> tuple[int, str, str] | None: ...
    @property
    def left(self) -> Sequence[int]: ...


def mover(seated: Names, seat: int, actor: str) -> str:
    """Who made a move: the seat's label, or the person who left it when the move was theirs
    (a seat's computer moves as ``computer``; its person before, whatever played for them)."""
    left = seated.left_by(seat)
    return left if left is not None and actor != "computer" else seated.label(seat)


def history_panel(
    games: Sequence[Summary], titles: Mapping[str, str], player: str | None = None
) -> Panel:
    """Numbered lines (the Open buttons carry the same numbers): date, game, players, result.

    ``player``: whose games these are (a display name), or None for this channel's games.
    """
    lines = []
    for n, g in enumerate(games, start=1):
        seated = seat_names(g.players)
        people = ", ".join(
            f"{'🏆 ' if p.seat in g.winners else ''}{credited(seated, p.seat)} {g.totals[p.seat]}"
            if p.seat < len(g.totals)
            else seated.label(p.seat)
            for p in g.players
        )
        lines.append(f"**{n}.** <t:{int(g.ended_at)}:d> {titles.get(g.game, g.game)} — {people}")
    if player is None:
        title = _("Recent games in this channel")
    else:
        title = _("Recent games of {player}", player=player)
    return Panel(
        title=f"📜 {title}",
        description="\n".join(lines) or _("No finished games yet."),
        colour=GREY,
        footer=_("Open one to replay it step by step") if lines else None,
    )


def replay_panels(frame: Frame) -> list[Panel]:
    """The table at this step (its footer says which step and what move), then, on the
    last step, the game's result."""
    ui = UIS[frame.game]
    seated = seat_names(frame.players)
    table = replayed(ui.table(frame.view, seated))
    line = _("Replay · step {step} of {steps}", step=frame.step, steps=frame.steps)
    if frame.move is not None:
        seat, action, actor = frame.move
        said = ui.move_line(action, seat, frame.view, seated)
        move = translate(MOVES.get(actor, PLAYED), player=mover(seated, seat, actor), move=said)
        line += f" · {move}"
    for seat in frame.left:
        left = seated.left_by(seat)
        line += "\n🚪 " + _(
            "{name} left the game; {computer} plays their seat from here.",
            name=left,
            computer=seated.label(seat),
        )
    footer = f"{table.footer}\n{line}" if table.footer else line
    panels = [Panel(table.title, table.description, table.fields, table.colour, footer)]
    if frame.step == frame.steps and frame.view.get("outcome") is not None:
        panels.append(ui.result(frame.view, seated))
    return panels
