"""Grinch words in the current language: suits, rows, card names, legends, cards as text.

The engine names suits, rows and cards in English for its own use; what a player reads comes
from here, through the catalogs (domain ``grinch``). Short words carry the context "grinch" so
another game's "Match" or "Run" never lends them its translation.
"""

from __future__ import annotations

from engine.grinch.cards import ROWS, SUITS, bonus_of, suit_of
from i18n import N_, _, pgettext, translate
from presentation import titles

SUIT_EMOJI = {"W": "🌿", "N": "⚡", "O": "🎀", "P": "🎁"}

# The cards the rulebook names (the others are shown by suit and rank); keys as in the engine.
CARD_NAMES = {
    # TRANSLATORS: a Grinch card's name: translate the idea (a Who carol's refrain).
    "N1a": N_("Sing! Sing! Sing!"),
    # TRANSLATORS: a Grinch card's name: a person's name, usually kept as it is.
    "O2a": N_("Cindy-Lou Who"),
}


# TRANSLATORS: the game's published title (the box keeps it in English); every message that
# names the game shows this one translation.
TITLE = N_("Grinch Grow Your Heart")  # the engine's title: presentation.titles translates it


def game_title() -> str:
    return titles.game_title("grinch")


def suit_name(suit: str) -> str:
    """A suit's name ("Wreaths"); the four suit rows of the score sheet carry the same names."""
    names = {
        "W": pgettext("grinch", "Wreaths"),
        "N": pgettext("grinch", "Noise"),
        "O": pgettext("grinch", "Ornaments"),
        "P": pgettext("grinch", "Presents"),
    }
    return names[suit]


def row_name(row: str) -> str:
    """A score-sheet row's name, by its engine id ("match" -> "Match")."""
    if row in ("wreaths", "noise", "ornaments", "presents"):
        return suit_name(SUITS[ROWS.index(row)])
    names = {
        "rainbow": pgettext("grinch", "Rainbow"),
        # TRANSLATORS: the score-sheet row for 3, 4 or 5 cards of one rank.
        "match": pgettext("grinch", "Match"),
        # TRANSLATORS: the score-sheet row for 4 or 5 consecutive ranks.
        "run": pgettext("grinch", "Run"),
    }
    return names[row]


def card_short(card: str) -> str:
    """Compact public form: suit emoji and rank, e.g. 🌿3 (the same in every language)."""
    return f"{SUIT_EMOJI[card[0]]}{card[1]}"


def card_title(card: str) -> str:
    """The card's own name if the rulebook gives one, else its suit's name."""
    name = CARD_NAMES.get(card)
    return translate(name) if name else suit_name(suit_of(card))


def card_label(card: str) -> str:
    """The compact form, then the card's name or suit: "🎀2 Cindy-Lou Who", "🌿3 Wreaths"."""
    return f"{card_short(card)} {card_title(card)}"


def bonus_mark(card: str) -> str:
    """The card's bonus with the suit it needs as an emoji ("+5 🎁"), or ""."""
    bonus = bonus_of(card)
    return f"+{bonus.points} {SUIT_EMOJI[bonus.suit]}" if bonus else ""


def card_long(card: str) -> str:
    """Rank and suit as in the summaries, the name, and the bonus: "🎀2 Cindy-Lou Who (+5 🎁)"."""
    mark = bonus_mark(card)
    return f"{card_label(card)} ({mark})" if mark else card_label(card)


def suit_legend() -> str:
    """Each suit's emoji and name: "🌿 Wreaths · ⚡ Noise · …"."""
    return " · ".join(f"{SUIT_EMOJI[s]} {suit_name(s)}" for s in SUITS)


def bonus_legend() -> str:
    """What the bonus marks on cards mean (shown under a hand that holds one)."""
    return _(
        "Bonus marks, e.g. (+5 🎁): 5 points if your five cards hold at least 1 other 🎁 card; "
        "(+10 🎁): 10 points with at least 3 other 🎁 cards. A met bonus adds to whichever row "
        "you pick."
    )


def legend(cards: list[str]) -> str:
    """The footer explaining suits, and bonus marks when one of ``cards`` carries a bonus."""
    if any(bonus_of(c) for c in cards):
        return f"{suit_legend()}\n{bonus_legend()}"
    return suit_legend()
