"""Ten pictures: a player's collection with the row and market, and the whole table."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ten.view import TenAuction, TenSeat, TenView
from i18n import _, ngettext, pgettext
from presentation.common import own_seat
from presentation.drawing.fonts import fit, text_width
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height, readable_size
from presentation.drawing.palette import GOLD, HIGHLIGHT
from presentation.ten import channel
from presentation.ten.look import COLOUR, SHAPE

GAME = "ten"
WIDTH = 1200
HAND_WIDTH = 720  # a hand: narrow, so cards and words read at phone width (360 px)
ROW_CARD = 100
OWN_CARD = 84
HAND_ROW_CARD = 104  # a hand's cards, on its narrow picture
HAND_OWN_CARD = 88
MIN_TEXT = readable_size(HAND_WIDTH)  # the smallest text on a hand: readable on a phone
SEAT_CARD = 64
GROUPS = ("R", "B", "O", "G", "W")


def _header(view: TenView, names: Sequence[str]) -> str:
    actor = view["actor"]
    turn = _("game over") if actor is None else _("{player} to act", player=names[actor])
    return _("Deck {count}", count=view["deck_size"]) + "  ·  " + turn


def _strip(
    sheet: Sheet,
    title: str,
    cards: Sequence[str | None],
    y: float,
    width: int,
    note: str = "",
    *,
    size: int = 22,
) -> float:
    """A titled line of cards (overlapping if many), a note beside the title (below it when
    both do not fit); returns the y below it."""
    sheet.caption(MARGIN, y, title, size, bold=True)
    if note:
        room = sheet.width - 3 * MARGIN - text_width(title, size)
        if text_width(note, size - 2) <= room:
            sheet.caption(sheet.width - MARGIN, y + 2, note, size - 2, anchor="ra")
        else:
            y += size + 8
            sheet.caption(MARGIN, y, note, size - 2, max_width=sheet.width - 2 * MARGIN)
    y += size + 10
    if cards:
        room = sheet.width - 2 * MARGIN - width
        step = min(width + 10, room / max(1, len(cards) - 1))
        sheet.row(cards, MARGIN, y, width, step=step)
    else:
        sheet.slot(MARGIN, y, width, pgettext("picture", "none"))
    return y + card_height(width) + 18


def _row_note(view: TenView) -> str:
    return _(
        "numbers {numbers}  ·  currency {currency}  ·  net {net} (bust at {bust})",
        numbers=view["row_numbers"],
        currency=view["row_currency"],
        net=view["net"],
        bust=view["bust_line"],
    )


def hand(view: TenView, names: Sequence[str], faces: Kit) -> bytes:
    """The viewer's collection by colour, then the row, the auction and the market, on a
    narrow picture (a phone shows it at about 360 px wide)."""
    seat = own_seat(view)
    info = view["seats"][seat]
    sheet = Sheet(faces, GAME, HAND_WIDTH, 2000)
    room = HAND_WIDTH - 2 * MARGIN
    sheet.caption(MARGIN, MARGIN, _header(view, names), 28, bold=True, max_width=room)
    status = _(
        "Your score {score}  ·  coins {coins}  ·  bust tokens {bust}  ·  spending power {power}",
        score=info["score"],
        coins=info["tokens"],
        bust=info["bust_tokens"],
        power=info["spending_power"],
    )
    size = max(MIN_TEXT, fit(status, 24, room))  # one line: shrunk a little if it must
    sheet.caption(MARGIN, MARGIN + 40, status, size, colour=HIGHLIGHT, max_width=room)
    y = float(MARGIN + 84)
    y = _collection(sheet, info, y, HAND_OWN_CARD)
    y = _strip(sheet, _row(), view["row"], y + 10, HAND_ROW_CARD, _row_note(view), size=26)
    auction = view["auction"]
    if auction is not None:
        note = _auction_note(auction, names)
        y = _strip(sheet, _auction(), [auction["wild"]], y, HAND_ROW_CARD, note, size=26)
    _strip(sheet, _market(), view["market"], y, HAND_ROW_CARD, size=26)
    return sheet.png()


def _row() -> str:
    # TRANSLATORS: Ten: the cards turned over in front of the player this turn.
    return pgettext("ten", "Row")


def _auction() -> str:
    return pgettext("ten", "Auction")


def _market() -> str:
    return pgettext("ten", "Market")


def _auction_note(auction: TenAuction, names: Sequence[str]) -> str:
    if auction["solo"]:
        return _("price {price}", price=auction["price"])
    high = auction["high_bidder"]
    if high is None:
        return _("no bid yet")
    return _("high bid {bid} by {player}", bid=auction["high"], player=names[high])


def _collection(sheet: Sheet, info: TenSeat, y: float, width: int) -> float:
    """One block per colour (and the wilds), two to a line, each titled by the colour's shape
    (the cue every card carries, no letter to translate) and its run score."""
    height = card_height(width)
    by_colour: dict[str, list[str]] = info["by_colour"]
    lines = [g for g in GROUPS if by_colour[g]]
    if not lines:
        sheet.caption(MARGIN, y, _("No cards collected yet."), 24)
        return y + 44
    column = (sheet.width - 3 * MARGIN) / 2
    for i, group in enumerate(lines):
        x = MARGIN + (i % 2) * (column + MARGIN)
        top = y + (i // 2) * (height + 54)
        if group == "W":
            sheet.caption(x, top, _("Wilds"), 24, bold=True)
        else:
            score = info["colour_scores"][group]
            sheet.symbol(SHAPE[group], x + 12, top + 13, 12, COLOUR[group])
            title = ngettext("{n} point", "{n} points", score)
            sheet.caption(x + 32, top, title, 24, bold=True)
        cards = by_colour[group]
        step = min(width + 8, (column - width) / max(1, len(cards) - 1))
        sheet.row(cards, x, top + 36, width, step=step)
    return y + ((len(lines) + 1) // 2) * (height + 54)


def table(view: TenView, names: Sequence[str], faces: Kit) -> bytes:
    """The row, auction and market, then every seat's collection, score and tokens."""
    sheet = Sheet(faces, GAME, WIDTH, 1700)
    sheet.caption(MARGIN, MARGIN, _header(view, names), 26, bold=True)
    y = _strip(sheet, _row(), view["row"], MARGIN + 46, ROW_CARD, _row_note(view))
    auction = view["auction"]
    if auction is not None:
        note = _auction_note(auction, names)
        y = _strip(sheet, _auction(), [auction["wild"]], y, ROW_CARD, note)
    y = _strip(sheet, _market(), view["market"], y, OWN_CARD)
    for info in view["seats"]:
        y = _seat(sheet, view, names, info, y)
    return sheet.png()


def _seat(
    sheet: Sheet,
    view: TenView,
    names: Sequence[str],
    info: TenSeat,
    y: float,
    *,
    framed: bool | None = None,
) -> float:
    """A seat's panel: name, score, coins, bust tokens, cards, and its collection by colour,
    each colour's shape and run score over its cards. ``framed``: default, the active seat."""
    seat = info["seat"]
    height = card_height(SEAT_CARD)
    bottom = y + height + 84
    framed = seat == view["active"] if framed is None else framed
    sheet.panel((MARGIN, y, WIDTH - MARGIN, bottom), outline=GOLD if framed else None)
    sheet.caption(MARGIN + 14, y + 10, names[seat], 22, bold=True, max_width=420)
    status = channel.seat_status(info)
    sheet.caption(WIDTH - MARGIN - 14, y + 12, status, 20, anchor="ra")
    groups = [info["by_colour"][g] for g in GROUPS if info["by_colour"][g]]
    count = sum(len(cards) for cards in groups)
    gap = 16
    room = WIDTH - 2 * MARGIN - 28 - gap * len(groups) - SEAT_CARD * len(groups)
    step = min(SEAT_CARD + 6, room / max(1, count - len(groups)))
    x = MARGIN + 14.0
    for group in (g for g in GROUPS if info["by_colour"][g]):
        if group != "W":  # the run score of the colour, by its shape
            sheet.symbol(SHAPE[group], x + 8, y + 58, 8, COLOUR[group])
            score = str(info["colour_scores"][group])
            sheet.caption(x + 22, y + 48, score, 18, bold=True)
        x = sheet.row(info["by_colour"][group], x, y + 72, SEAT_CARD, step=step) + gap
    if not info["cards"]:
        sheet.caption(MARGIN + 14, y + 72 + height / 2, _("no cards yet"), 18, anchor="lm")
    return bottom + 12


def summary(view: TenView, names: Sequence[str], faces: Kit) -> bytes | None:
    """The channel's picture of the game so far, made for a phone: after a round, the table
    (market, every player's collection, score and tokens); once the game is over, the final
    standings (:mod:`presentation.ten.channel`); None before the first turn ends."""
    if view.get("outcome"):
        return channel.standings(view, names, faces)
    if view["turns"] == 0:
        return None
    return channel.round_table(view, names, faces)


# What one point of the score chart stands for (a key of presentation.drawing.chart.UNITS).
UNIT = "turn"

# The cards' widths (and whether a back's) this game's hands and round summaries draw: their
# faces are drawn ahead with the game's first picture (presentation.drawing.warm).
CARD_SIZES = ((HAND_ROW_CARD, False), (HAND_OWN_CARD, False), (channel.CARD, False))


def progress(view: TenView) -> int:
    """A counter that grows by one with each turn."""
    return int(view["turns"])


def totals(view: TenView) -> list[int]:
    """Every seat's total so far."""
    return [int(t) for t in view["totals"]]


def rounds(view: TenView) -> list[list[int]] | None:
    """Each turn's points, when the view keeps them (Ten's does not)."""
    return None
