"""2-Player Hearts pictures: a player's hand and the table (current and last trick, points)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.hearts2p.view import HeartsView, next_trick_view
from i18n import _
from presentation.common import own_seat
from presentation.drawing.layout import MARGIN, Kit, Sheet, card_height
from presentation.drawing.palette import GOLD, HIGHLIGHT

GAME = "hearts"
HAND_CARD = 160
TRICK_CARD = 130
SMALL_CARD = 76
WIDTH = 1200
HAND_WIDTH = 1000  # a hand: narrower than the table, so it reads at phone width (360 px)


def _header(view: HeartsView) -> str:
    broken = _("hearts broken") if view["hearts_broken"] else _("hearts not broken")
    parts = (_("Hand {hand}", hand=view["hand_no"]), _("trick {trick}/13", trick=view["trick_no"]))
    return "  ·  ".join((*parts, broken))


def hand_step(count: int) -> float:
    """The distance between two cards of a hand of ``count`` in the fan: the visible strip of
    each card but the last."""
    room = HAND_WIDTH - 2 * MARGIN - HAND_CARD
    return min(HAND_CARD + 12, room / max(1, count - 1))


def hand(view: HeartsView, names: Sequence[str], faces: Kit) -> bytes:
    """The viewer's hand as an overlapping fan (every corner index shows), and the trick."""
    cards: list[str] = view["hand"]
    sheet = Sheet(faces, GAME, HAND_WIDTH, 1000)
    sheet.caption(MARGIN, MARGIN, _header(view), 30, bold=True, max_width=HAND_WIDTH - 2 * MARGIN)
    seat = own_seat(view)
    if view["phase"] == "over":
        turn = _("Game over")
    elif seat in view["to_act"]:
        turn = _("Your turn")
    else:
        turn = _("{player} to play", player=names[1 - seat])
    sheet.caption(MARGIN, MARGIN + 40, turn, 28, colour=HIGHLIGHT)
    y = float(MARGIN + 86)
    trick = view["trick"]
    if trick:
        sheet.caption(MARGIN, y, _("On the table"), 28, bold=True)
        x = MARGIN
        for play in trick:
            sheet.card(play["card"], x, y + 38, TRICK_CARD)
            sheet.caption(
                x + TRICK_CARD / 2,
                y + 46 + card_height(TRICK_CARD),
                names[play["seat"]],
                26,
                anchor="ma",
                max_width=TRICK_CARD + 60,
            )
            x += TRICK_CARD + 80
        y += 38 + card_height(TRICK_CARD) + 50
    if cards:
        sheet.row(cards, MARGIN, y, HAND_CARD, step=hand_step(len(cards)))
    else:
        sheet.caption(MARGIN, y, _("No cards left in hand."), 28)
    return sheet.png()


def hands_ahead(view: HeartsView) -> list[HeartsView]:
    """The seat's view as the next trick begins (the engine's guess, ``next_trick_view``):
    its hand picture's header is a caption no picture has shown yet, made ahead while the
    drawing process waits (:meth:`presentation.drawing.api.Pictures.ahead`)."""
    later = next_trick_view(view)
    return [] if later is None else [later]


def table(view: HeartsView, names: Sequence[str], faces: Kit) -> bytes:
    """The trick in play, the last trick with its winner, and each seat's point cards."""
    sheet = Sheet(faces, GAME, WIDTH, 1200)
    sheet.caption(MARGIN, MARGIN, _header(view), 28, bold=True, max_width=WIDTH - 2 * MARGIN)
    y = float(MARGIN + 56)
    height = card_height(TRICK_CARD)
    sheet.panel((MARGIN, y, MARGIN + 400, y + height + 96))
    sheet.caption(MARGIN + 16, y + 12, _("This trick"), 22, bold=True)
    by_seat = {play["seat"]: play["card"] for play in view["trick"]}
    for seat in (0, 1):
        x = MARGIN + 30 + seat * (TRICK_CARD + 80)
        card = by_seat.get(seat)
        if card is None:
            to_play = seat in view["to_act"]
            sheet.slot(x, y + 44, TRICK_CARD, _("to play") if to_play else "")
        else:
            sheet.card(card, x, y + 44, TRICK_CARD)
        sheet.caption(
            x + TRICK_CARD / 2,
            y + 52 + height,
            names[seat],
            18,
            anchor="ma",
            max_width=TRICK_CARD + 70,
        )
    last = view["last_trick"]
    if last is not None:
        left = MARGIN * 2 + 400
        sheet.panel((left, y, left + 400, y + height + 96))
        sheet.caption(
            left + 16,
            y + 12,
            _("Last trick: {player}", player=names[last["winner"]]),
            22,
            bold=True,
            max_width=370,
        )
        for i, play in enumerate(last["cards"]):
            x = left + 30 + i * (TRICK_CARD + 80)
            sheet.card(play["card"], x, y + 44, TRICK_CARD, mark=play["seat"] == last["winner"])
            sheet.caption(
                x + TRICK_CARD / 2,
                y + 52 + height,
                names[play["seat"]],
                18,
                anchor="ma",
                max_width=TRICK_CARD + 70,
            )
    y += height + 96 + MARGIN
    for seat in (0, 1):
        y = _seat_row(sheet, view, names, seat, y)
    return sheet.png()


def _seat_row(sheet: Sheet, view: HeartsView, names: Sequence[str], seat: int, y: float) -> float:
    taken = view["taken"][seat]
    height = card_height(SMALL_CARD)
    bottom = y + height + 64
    name = _("{name}  (dealer)", name=names[seat]) if seat == view["dealer"] else names[seat]
    sheet.panel(
        (MARGIN, y, WIDTH - MARGIN, bottom), outline=GOLD if seat in view["to_act"] else None
    )
    sheet.caption(MARGIN + 16, y + 12, name, 22, bold=True, max_width=500)
    status = _(
        "hand {hand}  ·  points this hand {points}  ·  total {total}",
        hand=view["hand_sizes"][seat],
        points=taken["points"],
        total=view["totals"][seat],
    )
    sheet.caption(WIDTH - MARGIN - 16, y + 14, status, 20, anchor="ra")
    point_cards: list[str] = taken["point_cards"]
    if point_cards:
        sheet.row(point_cards, MARGIN + 16, y + 48, SMALL_CARD, step=SMALL_CARD * 0.7)
    else:
        sheet.caption(MARGIN + 16, y + 48 + height / 2, _("no point cards taken"), 18, anchor="lm")
    return bottom + 12


def summary(view: HeartsView, names: Sequence[str], faces: Kit) -> bytes | None:
    """The last scored hand: the two dead cards (shown only now), each seat's point cards,
    the hand's points and the new totals; None before the first hand is scored."""
    last = view["last_hand"]
    if last is None:
        return None
    sheet = Sheet(faces, GAME, 1000, 900)
    moon = last["moon"]
    if moon is None:
        title = _("Hand {hand} scored", hand=last["hand_no"])
    else:
        title = _(
            "Hand {hand} scored: {player} shot the moon!", hand=last["hand_no"], player=names[moon]
        )
    sheet.caption(MARGIN, MARGIN, title, 28, bold=True, max_width=960)
    y = MARGIN + 50.0
    sheet.caption(MARGIN, y, _("Dead cards"), 22, bold=True)
    sheet.row(last["dead"], MARGIN, y + 32, SMALL_CARD)
    y += 32 + card_height(SMALL_CARD) + 24
    for seat in (0, 1):
        bottom = y + card_height(SMALL_CARD) + 64
        sheet.panel((MARGIN, y, 1000 - MARGIN, bottom))
        sheet.caption(MARGIN + 16, y + 12, names[seat], 22, bold=True, max_width=400)
        status = _(
            "+{points} this hand  ·  total {total}",
            points=last["points"][seat],
            total=last["totals"][seat],
        )
        sheet.caption(1000 - MARGIN - 16, y + 14, status, 20, anchor="ra", colour=HIGHLIGHT)
        cards: list[str] = last["point_cards"][seat]
        if cards:
            sheet.row(cards, MARGIN + 16, y + 48, SMALL_CARD, step=SMALL_CARD * 0.7)
        else:
            sheet.caption(
                MARGIN + 16,
                y + 48 + card_height(SMALL_CARD) / 2,
                _("no point cards"),
                18,
                anchor="lm",
            )
        y = bottom + 12
    return sheet.png()


# What one point of the score chart stands for (a key of presentation.drawing.chart.UNITS).
UNIT = "hand"

# The cards' widths (and whether a back's) this game's hands and round summaries draw: their
# faces are drawn ahead with the game's first picture (presentation.drawing.warm).
CARD_SIZES = ((HAND_CARD, False), (TRICK_CARD, False), (SMALL_CARD, False))


def progress(view: HeartsView) -> int:
    """A counter that grows by one with each scored hand."""
    return len(view["hands_history"])


def totals(view: HeartsView) -> list[int]:
    """Every seat's total after the scored hands (``totals`` is the running total before the
    hand in play, so the scored hands are summed when there are any)."""
    if not view["hands_history"]:
        return [int(t) for t in view["totals"]]
    sums = [0] * view["players"]
    for record in view["hands_history"]:
        sums = [a + b for a, b in zip(sums, record["points"], strict=True)]
    return sums


def rounds(view: HeartsView) -> list[list[int]] | None:
    """Each scored hand's points (the view keeps every hand)."""
    return [list(record["points"]) for record in view["hands_history"]]
