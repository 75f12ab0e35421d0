"""Grinch pictures: a player's hand (from their own view) and the table (spectator view)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.grinch.view import GrinchView
from i18n import _, ngettext, pgettext
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height
from presentation.drawing.palette import GOLD, HIGHLIGHT, WHITE
from presentation.grinch.text import row_name  # the Grinch screens' own words

GAME = "grinch"
HAND_CARD = 170
PILE_CARD = 96  # the table's piles
HAND_PILE_CARD = 130  # the pile tops under a hand: readable when the picture is 360 px wide
SUMMARY_CARD = 100  # the hands shown in a round's summary


def grinch_mark(name: str) -> str:
    """A seat's name marked as this round's Grinch."""
    return _("{name}  (Grinch)", name=name)


def _header(view: GrinchView, names: Sequence[str]) -> str:
    return _(
        "Round {round}/{rounds}  ·  heart {heart}  ·  Grinch: {grinch}",
        round=view["round"],
        rounds=view["rounds"],
        heart=view["heart"],
        grinch=names[view["grinch"]],
    )


def hand(view: GrinchView, names: Sequence[str], faces: Kit) -> bytes:
    """The viewer's hand, large, with their locked-in discard marked, and every pile's top."""
    cards: list[str] = view["hand"] or []
    gap = 14
    count = max(len(cards), 5)
    width = max(640, 2 * MARGIN + count * (HAND_CARD + gap) - gap)
    sheet = Sheet(faces, GAME, width, 900)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 28, bold=True, max_width=width - 40)
    role = _("You are the Grinch") if view["role"] == "grinch" else _("You are a Who")
    sheet.caption(MARGIN, MARGIN + 38, role, 28, colour=HIGHLIGHT)
    y = MARGIN + 82
    pending = view.get("my_pending")
    marked = [i for i, c in enumerate(cards) if c == pending]
    sheet.row(cards, MARGIN, y, HAND_CARD, step=HAND_CARD + gap, marked=marked)
    y += card_height(HAND_CARD) + 24
    _pile_tops(sheet, view, names, y)
    return sheet.png()


def _pile_tops(sheet: Sheet, view: GrinchView, names: Sequence[str], y: float) -> None:
    """One slot per seat: the top card of their pile (what the Grinch may take)."""
    sheet.caption(MARGIN, y, _("Pile tops"), 28, bold=True)
    y += 38
    step = HAND_PILE_CARD + 24
    for seat, pile in enumerate(view["piles"]):
        x = MARGIN + seat * step
        if pile:
            sheet.card(pile[-1], x, y, HAND_PILE_CARD)
        else:
            sheet.slot(x, y, HAND_PILE_CARD, pgettext("picture", "empty"))
        sheet.caption(
            x + HAND_PILE_CARD / 2,
            y + card_height(HAND_PILE_CARD) + 6,
            names[seat],
            26,
            anchor="ma",
            max_width=step - 6,
        )


def table(view: GrinchView, names: Sequence[str], faces: Kit) -> bytes:
    """Every seat's whole pile (top card last), hand sizes, totals, the deck and the takes."""
    width = 1200
    sheet = Sheet(faces, GAME, width, 1100)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 28, bold=True, max_width=width - 40)
    sheet.card(None, width - MARGIN - 70, MARGIN, 70)
    deck = _("Deck {count}", count=view["deck_size"])
    sheet.caption(width - MARGIN - 80, MARGIN + 40, deck, 20, anchor="rm")
    y = MARGIN + 110
    column = (width - 3 * MARGIN) / 2
    panel_height = card_height(PILE_CARD) + 70
    for seat in range(view["players"]):
        x = MARGIN + (seat % 2) * (column + MARGIN)
        top = y + (seat // 2) * (panel_height + MARGIN)
        _seat_panel(sheet, view, names, seat, (x, top, x + column, top + panel_height))
    rows = (view["players"] + 1) // 2
    y += rows * (panel_height + MARGIN)
    _takes(sheet, view, names, y)
    return sheet.png()


def _seat_panel(
    sheet: Sheet,
    view: GrinchView,
    names: Sequence[str],
    seat: int,
    box: tuple[float, float, float, float],
) -> None:
    grinch = seat == view["grinch"]
    sheet.panel(box, outline=GOLD if grinch else None)
    x, y, right, _bottom = box
    title = grinch_mark(names[seat]) if grinch else names[seat]
    sheet.caption(x + 14, y + 12, title, 24, bold=True, max_width=right - x - 200)
    status = _(
        "hand {hand}  ·  total {total}", hand=view["hand_sizes"][seat], total=view["totals"][seat]
    )
    sheet.caption(right - 14, y + 14, status, 20, anchor="ra", colour=WHITE)
    pile: list[str] = view["piles"][seat]
    top = y + 52
    if seat in view["to_act"]:
        sheet.caption(
            right - 14,
            top + card_height(PILE_CARD) - 4,
            pgettext("picture", "to act"),
            20,
            anchor="rd",
            colour=HIGHLIGHT,
            bold=True,
        )
    if not pile:
        sheet.slot(x + 14, top, PILE_CARD, _("no pile"))
        return
    step = min(PILE_CARD + 10, (right - x - 128 - PILE_CARD) / max(1, len(pile) - 1))
    sheet.row(pile, x + 14, top, PILE_CARD, step=step, marked=[len(pile) - 1])


def _takes(sheet: Sheet, view: GrinchView, names: Sequence[str], y: float) -> None:
    """This turn's Grinch takes: a pile card is public, a deck card shows as a back."""
    takes = view["takes"]
    if not takes:
        return
    sheet.caption(MARGIN, y, _("The Grinch took"), 22, bold=True)
    x = MARGIN
    y += 34
    for take in takes:
        sheet.card(take["card"], x, y, PILE_CARD)
        if take["source"] == "deck":
            source = pgettext("picture", "deck")
        else:
            source = _("{player}'s pile", player=names[take["owner"]])
        sheet.caption(
            x + PILE_CARD / 2,
            y + card_height(PILE_CARD) + 6,
            source,
            16,
            anchor="ma",
            max_width=PILE_CARD + 70,
        )
        x += PILE_CARD + 90


def summary(view: GrinchView, names: Sequence[str], faces: Kit) -> bytes | None:
    """The last scored round: every seat's revealed hand, chosen row and points; None before
    the first scoring."""
    last = view["last_round"]
    if last is None:
        return None
    card = SUMMARY_CARD
    width = 2 * MARGIN + 5 * (card + 8) + 420
    sheet = Sheet(faces, GAME, width, 1400)
    sheet.caption(MARGIN, MARGIN, _("Round {round} scored", round=last["round"]), 28, bold=True)
    y = MARGIN + 50.0
    height = card_height(card)
    for seat, hand in enumerate(last["hands"]):
        bottom = y + height + 24
        sheet.panel((MARGIN, y, width - MARGIN, bottom))
        right = sheet.row(hand, MARGIN + 12, y + 12, card, step=card + 8)
        name = grinch_mark(names[seat]) if seat == last["grinch"] else names[seat]
        sheet.caption(right + 20, y + 18, name, 22, bold=True, max_width=width - right - 60)
        scored = last["points"][seat]
        row = ngettext(
            "{row}: {n} point",
            "{row}: {n} points",
            abs(scored),
            n=scored,
            row=row_name(last["rows"][seat]),
        )
        sheet.caption(right + 20, y + 56, row, 22, colour=HIGHLIGHT)
        sheet.caption(right + 20, y + 92, _("total {total}", total=view["totals"][seat]), 20)
        y = bottom + 12
    return sheet.png()


# What one point of the score chart stands for (a key of presentation.drawing.chart.UNITS).
UNIT = "round"

# The cards' widths (and whether a back's) this game's hands and round summaries draw: their
# faces are drawn ahead with the game's first picture (presentation.drawing.warm).
CARD_SIZES = ((HAND_CARD, False), (HAND_PILE_CARD, False), (SUMMARY_CARD, False))


def progress(view: GrinchView) -> int:
    """A counter that grows by one with each scored round."""
    last = view["last_round"]
    return 0 if last is None else int(last["round"])


def totals(view: GrinchView) -> list[int]:
    """Every seat's total so far."""
    return [int(t) for t in view["totals"]]


def rounds(view: GrinchView) -> list[list[int]] | None:
    """Each scored round's points, when the view keeps them (Grinch's does not)."""
    return None
