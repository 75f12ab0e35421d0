"""Gnoming A Round pictures: a player's own 3x3 grid, and every grid on the table.

Face-down cells are drawn as card backs: a view never holds their ids, so they cannot show.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.gnoming.view import GnomeCell, GnomeView
from i18n import _, pgettext
from presentation.common import own_seat
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height
from presentation.drawing.palette import GOLD, HIGHLIGHT

GAME = "gnome"
GRID_CARD = 150
SIDE_CARD = 110
TABLE_CARD = 66
GAP = 8
COLUMN = SIDE_CARD + 26  # the width of a caption above a card beside the grid


def _header(view: GnomeView, names: Sequence[str]) -> str:
    active = view["active"]
    turn = _("game over") if active is None else _("{player} to play", player=names[active])
    return _("Round {round}/{rounds}", round=view["round"], rounds=view["rounds"]) + "  ·  " + turn


def _grid(
    sheet: Sheet,
    cells: Sequence[GnomeCell],
    x: float,
    y: float,
    width: int,
    marked: Sequence[int] = (),
) -> tuple[float, float]:
    """Nine cells row by row; returns the grid's right and bottom edges."""
    height = card_height(width)
    for cell, entry in enumerate(cells):
        row, col = divmod(cell, 3)
        sheet.card(
            entry["card"] if entry["up"] else None,
            x + col * (width + GAP),
            y + row * (height + GAP),
            width,
            mark=cell in marked,
        )
    return x + 3 * width + 2 * GAP, y + 3 * height + 2 * GAP


def hand(view: GnomeView, names: Sequence[str], faces: Kit) -> bytes:
    """The viewer's grid, large, beside the card in hand and the three piles."""
    seat = own_seat(view)
    width = 2 * MARGIN + 3 * GRID_CARD + 2 * GAP + 40 + 2 * SIDE_CARD + 30
    sheet = Sheet(faces, GAME, width, 1000)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 26, bold=True, max_width=width - 40)
    summary = _(
        "Showing {showing}  ·  total {total}",
        showing=view["showing"][seat],
        total=view["totals"][seat],
    )
    sheet.caption(MARGIN, MARGIN + 36, summary, 22, colour=HIGHLIGHT)
    top = MARGIN + 76
    right, _bottom = _grid(sheet, view["grids"][seat], MARGIN, top, GRID_CARD, view["locked"])
    _side(sheet, view, right + 40, top)
    return sheet.png()


def _side(sheet: Sheet, view: GnomeView, x: float, y: float) -> None:
    """The card in play (held, bouncing or to discard), the draw pile and discard piles A, B."""
    height = card_height(SIDE_CARD)
    in_play = _card_in_play(view)
    if in_play is not None:
        label, card = in_play
        sheet.caption(x, y, label, 20, bold=True, max_width=COLUMN)
        sheet.card(card, x, y + 30, SIDE_CARD, mark=True)
    draw = _("Draw {count}", count=view["draw_size"])
    sheet.caption(x + SIDE_CARD + 30, y, draw, 20, bold=True, max_width=COLUMN)
    sheet.card(None, x + SIDE_CARD + 30, y + 30, SIDE_CARD)
    y += height + 70
    for i, name in enumerate(("A", "B")):
        pile = view["discard"][name]
        left = x + i * (SIDE_CARD + 30)
        title = _("Pile {name} ({count})", name=name, count=pile["size"])
        sheet.caption(left, y, title, 20, bold=True, max_width=COLUMN)
        if pile["top"] is None:
            sheet.slot(left, y + 30, SIDE_CARD, pgettext("picture", "empty"))
        else:
            sheet.card(pile["top"], left, y + 30, SIDE_CARD)
    removed: list[str] = view["removed"]
    if removed:
        y += height + 70
        sheet.caption(x, y, _("Out this round"), 20, bold=True)
        sheet.row(removed, x, y + 30, SIDE_CARD // 2, step=SIDE_CARD // 2 + 6)


def _card_in_play(view: GnomeView) -> tuple[str, str | None] | None:
    """What the active player has in hand now; None stands for a card only they may see."""
    if view["held"] is not None:
        return _("Held"), view["held"]["card"]
    if view["bounce"] is not None:
        return _("Bouncing"), view["bounce"]["card"]
    if view["pending_discard"] is not None:
        return _("To discard"), view["pending_discard"]["card"]
    return None


def table(view: GnomeView, names: Sequence[str], faces: Kit) -> bytes:
    """Every seat's grid with its name and scores, four to a row, above the piles."""
    players = view["players"]
    per_row = 3 if players in {5, 6} else 4
    grid_w = 3 * TABLE_CARD + 2 * GAP
    cell_w = grid_w + 2 * MARGIN + 20
    width = min(1200, max(760, 2 * MARGIN + per_row * cell_w))
    sheet = Sheet(faces, GAME, width, 1300)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 26, bold=True, max_width=width - 40)
    top = MARGIN + 50
    grid_h = 3 * card_height(TABLE_CARD) + 2 * GAP
    cell_h = grid_h + 96
    for seat in range(players):
        row, col = divmod(seat, per_row)
        x = MARGIN + col * cell_w
        y = top + row * (cell_h + MARGIN)
        active = seat == view["active"]
        sheet.panel((x, y, x + cell_w - MARGIN, y + cell_h), outline=GOLD if active else None)
        sheet.caption(x + 14, y + 10, names[seat], 20, bold=True, max_width=cell_w - 50)
        _grid(sheet, view["grids"][seat], x + 20, y + 42, TABLE_CARD)
        scores = _(
            "showing {showing}  ·  total {total}",
            showing=view["showing"][seat],
            total=view["totals"][seat],
        )
        sheet.caption(x + 14, y + 52 + grid_h, scores, 17, max_width=cell_w - 50)
    rows = (players + per_row - 1) // per_row
    _side(sheet, view, MARGIN, top + rows * (cell_h + MARGIN))
    return sheet.png()


def summary(view: GnomeView, names: Sequence[str], faces: Kit) -> bytes | None:
    """The last scored round: every final grid, matched lines marked, and the scores; None
    before the first round ends."""
    last = view["last_round"]
    if last is None:
        return None
    players = view["players"]
    per_row = 3 if players in {5, 6} else 4
    grid_w = 3 * TABLE_CARD + 2 * GAP
    cell_w = grid_w + 2 * MARGIN + 20
    width = min(1200, max(760, 2 * MARGIN + per_row * cell_w))
    sheet = Sheet(faces, GAME, width, 1300)
    title = _("Round {round} scored", round=last["round"])
    if last["first_out"] is not None:
        title += "  ·  " + _("{player} went out first", player=names[last["first_out"]])
    sheet.caption(MARGIN, MARGIN, title, 26, bold=True, max_width=width - 40)
    top = MARGIN + 50
    grid_h = 3 * card_height(TABLE_CARD) + 2 * GAP
    cell_h = grid_h + 96
    for seat, entry in enumerate(last["seats"]):
        row, col = divmod(seat, per_row)
        x = MARGIN + col * cell_w
        y = top + row * (cell_h + MARGIN)
        sheet.panel((x, y, x + cell_w - MARGIN, y + cell_h))
        sheet.caption(x + 14, y + 10, names[seat], 20, bold=True, max_width=cell_w - 50)
        matched = {cell for line in entry["lines"] for cell in line["cells"]}
        cells: list[GnomeCell] = [{"card": card, "up": True} for card in entry["grid"]]
        _grid(sheet, cells, x + 20, y + 42, TABLE_CARD, sorted(matched))
        if entry["adjust"]:
            scores = _(
                "round {score} ({adjust})  ·  total {total}",
                score=entry["score"],
                adjust=f"{entry['adjust']:+d}",
                total=view["totals"][seat],
            )
        else:
            scores = _(
                "round {score}  ·  total {total}", score=entry["score"], total=view["totals"][seat]
            )
        sheet.caption(x + 14, y + 52 + grid_h, scores, 17, colour=HIGHLIGHT, max_width=cell_w - 50)
    return sheet.png()


# What one point of the score chart stands for (a key of presentation.drawing.chart.UNITS).
UNIT = "round"


def progress(view: GnomeView) -> int:
    """A counter that grows by one with each scored round."""
    return len(view["round_scores"])


def totals(view: GnomeView) -> list[int]:
    """Every seat's total so far."""
    return [int(t) for t in view["totals"]]


def rounds(view: GnomeView) -> list[list[int]] | None:
    """Each scored round's points (the view keeps every round)."""
    return [list(row) for row in view["round_scores"]]
