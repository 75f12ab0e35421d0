"""Ten's pictures for the channel, made for a phone: a round's table and the final standings.

As the other games post a picture of each round, Ten posts one when every player has had a
turn: the market, then each player's collection by colour (each colour's run score over its
cards), score and tokens. The result carries the final standings the same way, best first.
Both are :data:`WIDTH` px wide and every word on them, the cards' words included, is at least
:func:`~presentation.drawing.layout.readable_size` high: readable when a phone shows the
picture 360 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ten.view import TenSeat, TenView
from i18n import _, ngettext, pgettext
from presentation.common import required
from presentation.drawing.fonts import text_width
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height, readable_size
from presentation.drawing.palette import GOLD, HIGHLIGHT
from presentation.ten.look import COLOUR, SHAPE

GAME = "ten"
WIDTH = 720
TEXT = readable_size(WIDTH)  # the smallest text: 9 px on a phone
NAME = 26
TITLE = 30
CARD = 88  # a card's words stay readable at this width (presentation.ten.look.LABEL)
STEP = 36  # an overlapped card still shows the number on its band
GAP = 18  # between two colours of a collection
GROUPS = ("R", "B", "O", "G", "W")
PAD = 14  # inside a player's panel


def seat_status(info: TenSeat) -> str:
    """A seat's score, coins, bust tokens and cards, on one line of a picture."""
    return _(
        "score {score}  ·  coins {coins}  ·  bust {bust}  ·  cards {cards}",
        score=info["score"],
        coins=info["tokens"],
        bust=info["bust_tokens"],
        cards=info["cards"],
    )


def round_of(view: TenView) -> int:
    """The rounds played: every player has had one turn more in each."""
    return int(view["turns"]) // max(1, int(view["players"]))


def round_table(view: TenView, names: Sequence[str], faces: Kit) -> bytes:
    """The table after a round: the market, then every player's collection, score and tokens
    (the player whose turn is next framed)."""
    sheet = Sheet(faces, GAME, WIDTH, 6000)
    room = WIDTH - 2 * MARGIN
    title = pgettext("ten", "Round {round}", round=round_of(view))
    deck = _("Deck {count}", count=view["deck_size"])
    sheet.caption(MARGIN, MARGIN, f"{title}  ·  {deck}", TITLE, bold=True, max_width=room)
    y = float(MARGIN + TITLE + 16)
    y = _market(sheet, view["market"], y)
    for info in view["seats"]:
        framed = info["seat"] == view["active"] and view["phase"] != "over"
        y = _seat(sheet, names[info["seat"]], info, y, framed=framed)
    return sheet.png()


def standings(view: TenView, names: Sequence[str], faces: Kit) -> bytes:
    """The final standings: every player by place (the rules' tie-breaks decided it), the
    winners framed, each with the total, tokens and collection the result counts."""
    outcome = required(view["outcome"])
    places: list[int] = list(outcome["places"])
    winners = set(outcome["winners"])
    sheet = Sheet(faces, GAME, WIDTH, 6000)
    room = WIDTH - 2 * MARGIN
    sheet.caption(MARGIN, MARGIN, _("Final standings"), TITLE, bold=True, max_width=room)
    y = float(MARGIN + TITLE + 16)
    for seat in sorted(range(len(places)), key=lambda s: (places[s], s)):
        name = f"{places[seat]}. {names[seat]}"
        y = _seat(sheet, name, view["seats"][seat], y, framed=seat in winners)
    return sheet.png()


def _market(sheet: Sheet, market: Sequence[str], y: float) -> float:
    """The market's cards (overlapping, in lines when many); returns the y below them."""
    sheet.caption(MARGIN, y, pgettext("ten", "Market"), NAME, bold=True)
    y += NAME + 10
    if not market:
        sheet.slot(MARGIN, y, CARD, pgettext("picture", "none"))
        return y + card_height(CARD) + 18
    room = WIDTH - 2 * MARGIN - CARD
    per_line = 1 + int(room // STEP)
    for start in range(0, len(market), per_line):
        line = market[start : start + per_line]
        step = min(CARD + 8, room / max(1, len(line) - 1))
        sheet.row(line, MARGIN, y, CARD, step=step)
        y += card_height(CARD) + 10
    return y + 8


def _title(info: TenSeat, group: str) -> str:
    """What stands over a colour's cards: its run score (its shape before it), or "Wilds"."""
    if group == "W":
        return _("Wilds")
    return ngettext("{n} point", "{n} points", info["colour_scores"][group])


def _group_width(info: TenSeat, group: str, room: float) -> float:
    """The width of a colour's cards, wide enough for its title too, at most ``room``."""
    cards = len(info["by_colour"][group])
    title = text_width(_title(info, group), TEXT) + (0 if group == "W" else 24)
    return min(max(CARD + (cards - 1) * STEP, title + 4), room)


def _lines(info: TenSeat, room: float) -> list[list[str]]:
    """The collection's colours in lines that fit ``room``, in the cards' order."""
    lines: list[list[str]] = []
    used = room + 1
    for group in GROUPS:
        if not info["by_colour"][group]:
            continue
        width = _group_width(info, group, room)
        if lines and used + GAP + width <= room:
            lines[-1].append(group)
            used += GAP + width
        else:
            lines.append([group])
            used = width
    return lines


def _seat(sheet: Sheet, name: str, info: TenSeat, y: float, *, framed: bool) -> float:
    """One player's panel: the name, score and tokens, then the collection by colour, each
    colour's shape and run score over its cards; returns the y below it."""
    room = WIDTH - 2 * MARGIN - 2 * PAD
    lines = _lines(info, room)
    block = TEXT + 8 + card_height(CARD)
    body = max(1, len(lines)) * (block + 12) if lines else TEXT + 16
    bottom = y + PAD + NAME + 8 + TEXT + 14 + body + PAD
    sheet.panel((MARGIN, y, WIDTH - MARGIN, bottom), outline=GOLD if framed else None)
    left = MARGIN + PAD
    sheet.caption(left, y + PAD, name, NAME, bold=True, max_width=room)
    status = seat_status(info)
    top = y + PAD + NAME + 8
    sheet.caption(left, top, status, TEXT, colour=HIGHLIGHT, max_width=room)
    top += TEXT + 14
    if not lines:
        sheet.caption(left, top, _("no cards yet"), TEXT)
        return bottom + 12
    for line in lines:
        x = float(left)
        for group in line:
            cards = info["by_colour"][group]
            width = _group_width(info, group, room)
            if group == "W":
                sheet.caption(x, top, _title(info, group), TEXT, bold=True, max_width=width)
            else:
                sheet.symbol(SHAPE[group], x + 9, top + TEXT / 2, 9, COLOUR[group])
                words = _title(info, group)
                sheet.caption(x + 24, top, words, TEXT, bold=True, max_width=width - 24)
            step = STEP if len(cards) < 2 else min(STEP, (width - CARD) / (len(cards) - 1))
            sheet.row(cards, x, top + TEXT + 8, CARD, step=step)
            x += width + GAP
        top += block + 12
    return bottom + 12
