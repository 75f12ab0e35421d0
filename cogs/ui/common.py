"""Pieces every game's renderer shares: the final result and the score table."""

from __future__ import annotations

from collections.abc import Sequence

from cogs.ui.base import GOLD, Names, Panel, View


def outcome_winners(view: View) -> list[int] | None:
    """The winning seats once the game is over, else None."""
    outcome = view.get("outcome")
    return None if not outcome else list(outcome["winners"])


def final_panel(
    title: str, view: View, names: Names, *, colour: int = GOLD, lowest_wins: bool = False
) -> Panel:
    """Winners and every total, best first (the view's outcome decides who won)."""
    outcome = view["outcome"]
    totals: list[int] = outcome["totals"]
    winners = set(outcome["winners"])
    order = sorted(range(len(totals)), key=lambda s: (totals[s] if lowest_wins else -totals[s], s))
    lines = [
        f"{'🏆' if seat in winners else '▫️'} **{names[seat]}** — {totals[seat]}" for seat in order
    ]
    won = " and ".join(names[s] for s in sorted(winners))
    verb = "share the win" if len(winners) > 1 else "wins"
    head = f"**{won}** {verb}!" if winners else "No winner this time."
    return Panel(title=title, description=head + "\n\n" + "\n".join(lines), colour=colour)


def score_table(
    title: str,
    rows: Sequence[tuple[str, Sequence[int | None]]],
    totals: Sequence[int],
    names: Names,
    *,
    lowest_wins: bool = False,
    winners: Sequence[int] | None = None,
) -> Panel:
    """A monospaced sheet: one line per row, one column per player, totals last.

    ``winners``: the finished game's winning seats (from the engine's outcome); while the
    game runs it is None and the current leaders by total are shown.
    """
    width = 7
    head = f"{'':<10}" + "".join(f"{names[s][:width]:>{width + 1}}" for s in range(len(names)))
    lines = [head]
    for label, cells in rows:
        line = f"{label[:10]:<10}" + "".join(
            f"{'·' if c is None else c:>{width + 1}}" for c in cells
        )
        lines.append(line)
    lines.append(f"{'Total':<10}" + "".join(f"{t:>{width + 1}}" for t in totals))
    if winners is not None:  # the game is over: the engine's outcome decided
        label = "Winner" if len(winners) == 1 else "Winners"
        shown = ", ".join(names[s] for s in sorted(winners)) or "nobody"
    else:
        best = min(totals) if lowest_wins else max(totals)
        label, shown = "Leading", ", ".join(names[s] for s, t in enumerate(totals) if t == best)
    return Panel(
        title=title,
        description="```\n" + "\n".join(lines) + "\n```",
        fields=((label, shown, False),),
        colour=GOLD,
    )
