"""High card pictures: a hand, the table (who has played, face down) and the last round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import _
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height

View = dict[str, Any]
GAME = "fifth"
CARD = 120
WIDTH = 800
UNIT = "round"  # one point of the score chart is one round


def hand(view: View, names: Sequence[str], faces: Kit) -> bytes:
    sheet = Sheet(faces, GAME, WIDTH, 600)
    sheet.caption(MARGIN, MARGIN, _("Round {round}/3", round=view["round"]), 28, bold=True)
    sheet.row(view["hand"], MARGIN, MARGIN + 48, CARD)
    return sheet.png()


def table(view: View, names: Sequence[str], faces: Kit) -> bytes:
    """Each seat's place: a card back once it has played this round (never its face)."""
    sheet = Sheet(faces, GAME, WIDTH, 600)
    sheet.caption(MARGIN, MARGIN, _("Round {round}/3", round=view["round"]), 28, bold=True)
    for seat, done in enumerate(view["played"]):
        x = MARGIN + seat * (CARD + 60)
        if done:
            sheet.card(None, x, MARGIN + 48, CARD)
        else:
            sheet.slot(x, MARGIN + 48, CARD, _("to play"))
        label = f"{names[seat]}: {view['totals'][seat]}"
        sheet.caption(x, MARGIN + 60 + card_height(CARD), label, 18, max_width=CARD + 50)
    return sheet.png()


def summary(view: View, names: Sequence[str], faces: Kit) -> bytes | None:
    if not view["rounds"]:
        return None
    record = view["rounds"][-1]
    sheet = Sheet(faces, GAME, WIDTH, 600)
    title = _(
        "Round {round}: {name} +{points}",
        round=len(view["rounds"]),
        name=names[record["winner"]],
        points=record["points"],
    )
    sheet.caption(MARGIN, MARGIN, title, 28, bold=True, max_width=WIDTH - 2 * MARGIN)
    sheet.row(record["cards"], MARGIN, MARGIN + 48, CARD, marked=[record["winner"]])
    return sheet.png()


def progress(view: View) -> int:
    return len(view["rounds"])


def totals(view: View) -> list[int]:
    return list(view["totals"])


def rounds(view: View) -> list[list[int]] | None:
    """Each complete round's points per seat (the winner takes them all)."""
    return [
        [r["points"] if r["winner"] == seat else 0 for seat in range(view["players"])]
        for r in view["rounds"]
    ]
