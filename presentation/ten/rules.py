"""Ten: the rules panel (``/rules``), written for players (rules: ``ten.md``).

One message per paragraph, cards shown as on the table (their letters follow the language).
"""

from __future__ import annotations

from i18n import _
from presentation.base import BLUE, Panel
from presentation.common import EXAMPLE
from presentation.common import rules_panel as panel
from presentation.ten.text import card_text, game_title, grouped

# A collection worth 5 + 2 + 1 + 3 = 11 (the rules' scoring example, S14).
EXAMPLE_COLLECTION = ("R1a", "R2a", "R3a", "R4a", "R5a", "B4a", "B5a", "O7a", "G1a", "G2a", "G3a")


def _turn() -> str:
    return _(
        "Turn cards over one by one into the row. Number cards raise the total, currency "
        "cards (🪙) lower it. You **bust** when the net (numbers − currency) reaches 11, or "
        "when the currency alone reaches 11; exactly 10 is safe.\n"
        "• **Stop** after at least one card and take either all the **numbers** (they join "
        "your collection, the others get the row's currency as 🪙 tokens, then you may buy "
        "one market card) or all the **currency** as 🪙 tokens (the numbers go to the "
        "market). You hold at most 10 🪙: the rest is lost.\n"
        "• **Bust**: your turn ends at once, you take a 💥 bust token and the numbers go to "
        "the market. On a number bust the others still get the row's currency."
    )


def _auction() -> str:
    return _(
        "A wild (✱ any number of its colour, 🌈5 a 5 of any colour, 🌈✱ anything) never "
        "enters the row: it goes to **auction** at once. Starting on the active player's left "
        "and ending with the active player, each bids once (more than the highest bid so "
        "far) or passes. "
        "The highest bidder pays their bid and takes the wild; if nobody bids, it is "
        "discarded. Then the turn goes on."
    )


def _paying() -> str:
    return _(
        "Pay with 🪙 tokens (1 each), 💥 bust tokens (3 each, no change given) or cards "
        "from your collection (1 each). A market card costs its number. You may not buy a "
        "number card whose colour and number you already hold."
    )


def _scoring() -> str:
    return _(
        "When the last card is drawn, that turn ends as usual, then everyone makes one last "
        "purchase. Each colour scores the length of its longest run of consecutive numbers; "
        "a full run 1–9 scores 10. Each wild fills one gap, as a number its kind allows: the "
        "bot places them for your best score. Highest total wins; ties: more 🪙 tokens "
        "(💥 do not count), then fewer cards."
    )


def _example() -> str:
    return _(
        "You turn over {red5}, {coin3} and {blue6}: 11 − 3 = net 8, safe. One more {green4} "
        "would make 12: bust. You stop and take the numbers {red5} {blue6}; the others get "
        "3 🪙 each, and you may buy a card.\n"
        "At the end, the collection {collection} scores 5 + 2 + 1 + 3 = 11.",
        red5=card_text("R5a"),
        coin3=card_text("C3a"),
        blue6=card_text("B6a"),
        green4=card_text("G4a"),
        collection=grouped(EXAMPLE_COLLECTION),
    )


def _solo() -> str:
    return _(
        "Wilds are not auctioned: take one for 3 (the super wild for 5) or decline it. After "
        "each of your turns a rival turns over 2 cards (numbers go to the market). You win "
        "with 20 points or more."
    )


def rules_panel() -> Panel:
    """The quick rules: a turn, the auction, paying, scoring, an example, solo play."""
    return panel(
        game_title(),
        _(
            "1–5 players. Collect cards in four colours: in each colour your longest run of "
            "consecutive numbers scores. The highest total wins."
        )
        + "\n\n**"
        + _("Your turn")
        + "**\n"
        + _turn(),
        BLUE,
        (_("Wild cards and the auction"), _auction()),
        (_("Paying"), _paying()),
        (_("End of the game and scoring"), _scoring()),
        (_(EXAMPLE), _example()),
        (_("Solo"), _solo()),
        icon="🔟 ",
    )
