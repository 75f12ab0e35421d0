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
# The table and round pictures: every seat's grid in a cell, three or four cells to a row.
GRID_HEIGHT = 3 * card_height(TABLE_CARD) + 2 * GAP
CELL_WIDTH = 3 * TABLE_CARD + 2 * GAP + 2 * MARGIN + 20
CELL_HEIGHT = GRID_HEIGHT + 96
CELLS_TOP = MARGIN + 50  # below the title


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


def _per_row(players: int) -> int:
    return 3 if players in {5, 6} else 4


def _cells_sheet(players: int, faces: Kit) -> Sheet:
    """A sheet wide enough for a row of seat cells (within 760 to 1200 pixels)."""
    width = min(1200, max(760, 2 * MARGIN + _per_row(players) * CELL_WIDTH))
    return Sheet(faces, GAME, width, 1300)


def _cell(
    sheet: Sheet, seat: int, players: int, name: str, *, framed: bool = False
) -> tuple[int, int]:
    """The panel of ``seat``'s cell with its name on top; returns the cell's top left corner."""
    row, col = divmod(seat, _per_row(players))
    x = MARGIN + col * CELL_WIDTH
    y = CELLS_TOP + row * (CELL_HEIGHT + MARGIN)
    box = (x, y, x + CELL_WIDTH - MARGIN, y + CELL_HEIGHT)
    sheet.panel(box, outline=GOLD if framed else None)
    sheet.caption(x + 14, y + 10, name, 20, bold=True, max_width=CELL_WIDTH - 50)
    return x, y


def table(view: GnomeView, names: Sequence[str], faces: Kit) -> bytes:
    """Every seat's grid with its name and scores, four to a row, above the piles."""
    players = view["players"]
    sheet = _cells_sheet(players, faces)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 26, bold=True, max_width=sheet.width - 40)
    for seat in range(players):
        x, y = _cell(sheet, seat, players, names[seat], framed=seat == view["active"])
        _grid(sheet, view["grids"][seat], x + 20, y + 42, TABLE_CARD)
        scores = _(
            "showing {showing}  ·  total {total}",
            showing=view["showing"][seat],
            total=view["totals"][seat],
        )
        sheet.caption(x + 14, y + 52 + GRID_HEIGHT, scores, 17, max_width=CELL_WIDTH - 50)
    rows = -(-players // _per_row(players))
    _side(sheet, view, MARGIN, CELLS_TOP + rows * (CELL_HEIGHT + MARGIN))
    return sheet.png()


def summary(view: GnomeView, names: Sequence[str], faces: Kit) -> bytes | None:
    """The last scored round: every final grid, matched lines marked, and the scores; None
    before the first round ends."""
    last = view["last_round"]
    if last is None:
        return None
    players = view["players"]
    sheet = _cells_sheet(players, faces)
    title = _("Round {round} scored", round=last["round"])
    if last["first_out"] is not None:
        title += "  ·  " + _("{player} went out first", player=names[last["first_out"]])
    sheet.caption(MARGIN, MARGIN, title, 26, bold=True, max_width=sheet.width - 40)
    for seat, entry in enumerate(last["seats"]):
        x, y = _cell(sheet, seat, players, names[seat])
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
        room = CELL_WIDTH - 50
        sheet.caption(x + 14, y + 52 + GRID_HEIGHT, scores, 17, colour=HIGHLIGHT, max_width=room)
    return sheet.png()


# What one point of the score chart stands for (a key of presentation.drawing.chart.UNITS).
UNIT = "round"

# The cards' widths (and whether a back's) this game's hands and round summaries draw: their
# faces are drawn ahead with the game's first picture (presentation.drawing.warm).
CARD_SIZES = (
    (GRID_CARD, False),
    (GRID_CARD, True),
    (SIDE_CARD, False),
    (SIDE_CARD, True),
    (SIDE_CARD // 2, False),  # the cards out this round
    (TABLE_CARD, False),
)


def progress(view: GnomeView) -> int:
    """A counter that grows by one with each scored round."""
    return len(view["round_scores"])


def totals(view: GnomeView) -> list[int]:
    """Every seat's total so far."""
    return [int(t) for t in view["totals"]]


def rounds(view: GnomeView) -> list[list[int]] | None:
    """Each scored round's points (the view keeps every round)."""
    return [list(row) for row in view["round_scores"]]
