"""The ``/rules`` panel of Grinch Grow Your Heart: rules/grinch.md told to players.

One message per paragraph, so each language can phrase it freely; row and card names come
from ``text`` (the same words as on the buttons and the score sheet). The example hand is
test vector 7 of the rules file: its numbers are checked against the engine in the tests.
"""

from __future__ import annotations

from engine.grinch.scoring import base as base_points
from engine.grinch.scoring import bonus as bonus_points
from engine.grinch.scoring import score as row_score
from i18n import _
from presentation.base import GREEN, Panel
from presentation.common import EXAMPLE, SCORING
from presentation.common import rules_panel as panel
from presentation.grinch.text import card_long, card_short, game_title, row_name

# Test vector 7: Cindy-Lou Who (+5 🎁) met by the 🎁5; three 5s.
EXAMPLE_HAND = ("O2a", "P5a", "W5a", "N5b", "O6b")


def _overview() -> str:
    return _(
        "2–6 players. Each round one player is the **Grinch** and everyone else is a **Who**; "
        "the Grinch passes to the left every round. There are 6 rounds with 2 or 3 players, "
        "4 with 4, 5 with 5 and 6 with 6, so everybody is the Grinch equally often. Build the "
        "best five-card hand each round: the highest total after the last round wins, and "
        "ties share the win."
    )


def _round() -> str:
    return _(
        "All 48 cards are shuffled and everyone gets 2. Then come three turns; the heart "
        "shows how many cards everyone holds after the turn (3 → 4 → 5).\n"
        "• **Whos**, all at once: draw 2 cards from the deck, then discard 1 face up onto "
        "your own pile. No one sees the discards until every Who has chosen.\n"
        "• **Grinch**: take 2 cards, one at a time, each from the deck or from the top of any "
        "pile (your own too), then discard 1 onto your pile.\n"
        "Every pile is open to see; only its top card can be taken."
    )


def _scoring() -> str:
    suits = ", ".join(row_name(r) for r in ("wreaths", "noise", "ornaments", "presents"))
    lines = [
        _(
            "With five cards in hand, everyone secretly picks an empty row of their score "
            "sheet. Each row is used once per game; any empty row may be picked, even one "
            "worth 0."
        ),
        _("• **{rows}**: the ranks of that suit, added up.", rows=suits),
        _(
            "• **{row}**: the highest rank of each suit you hold, added up.",
            row=row_name("rainbow"),
        ),
        _(
            "• **{row}**: 3, 4 or 5 cards of the same rank score 10, 20 or 30.",
            row=row_name("match"),
        ),
        _(
            "• **{row}**: 4 or 5 consecutive ranks, any suits, score 15 or 25 "
            "(6 and 1 are not neighbours).",
            row=row_name("run"),
        ),
    ]
    return "\n".join(lines)


def _bonus() -> str:
    return _(
        "A bonus mark names a suit: a +5 card scores 5 only if your five cards hold at least "
        "1 other card of that suit, and a +10 card scores 10 only with at least 3 other cards "
        "of that suit. A met bonus adds to whichever row you pick (even a row worth 0), and "
        "several bonuses all count."
    )


def _example() -> str:
    bonus = bonus_points(EXAMPLE_HAND)
    intro = _(
        "You hold {named}, {cards}. The bonus is met (one other 🎁 card), so 5 is "
        "added to the row you pick:",
        named=card_long(EXAMPLE_HAND[0]),
        cards=", ".join(card_short(c) for c in EXAMPLE_HAND[1:]),
    )
    rows = [
        f"• {row_name(row)}: {base_points(EXAMPLE_HAND, row)} + {bonus} = "
        f"{row_score(EXAMPLE_HAND, row)}"
        for row in ("rainbow", "match", "ornaments", "run")
    ]
    return "\n".join([intro, *rows])


def rules_panel() -> Panel:
    """How a round goes, how rows and bonuses score, and one scored hand."""
    return panel(
        game_title(),
        _overview(),
        GREEN,
        (_("A round"), _round()),
        (_(SCORING), _scoring()),
        (_("Bonus cards"), _bonus()),
        (_(EXAMPLE), _example()),
    )
