"""The game's name and its ``/rules`` panel: rules/hearts2p.md told to players.

One message per paragraph, so each language can phrase it freely. Cards are written as the
buttons show them (rank and suit symbol); the examples are the rules file's own: the sequence
check of section 8.2 and hand S1 of section 8.4.
"""

from __future__ import annotations

from i18n import N_, _
from presentation import titles
from presentation.base import RED, Panel
from presentation.common import EXAMPLE, SCORING
from presentation.common import rules_panel as panel

# TRANSLATORS: the game's title; every message that names the game shows this one translation.
TITLE = N_("2-Player Hearts")  # the engine's title: presentation.titles translates it


def game_title() -> str:
    return titles.game_title("hearts")


def _overview() -> str:
    return _(
        "Two players, 28 cards: 2, 4, 6, 8, 10, Q (queen) and A (ace) of ♣ ♦ ♥ ♠. Each hand "
        "deals 13 cards to each player; the other 2 are dead cards that nobody sees until "
        "the hand is scored. Points are bad: the lower total wins."
    )


def _tricks() -> str:
    return _(
        "• The first trick is opened with the lowest club in play (2♣, or 4♣ if the 2♣ is "
        "dead, else 6♣), by the player who holds it.\n"
        "• The other player must follow suit if they can; if not, they may play any card.\n"
        "• **Hearts are trump**: the higher heart wins the trick; with no heart in it, the "
        "higher card of the suit led wins. The winner leads the next trick.\n"
        "• A heart may not be led until hearts are broken (a heart has been played), unless "
        "you hold only hearts. Q♠ is an ordinary spade: it may be led at any time."
    )


def _scoring() -> str:
    return _(
        "Each ♥ you take is 1 point and the Q♠ is 13. If you take every point card in play "
        "(dead cards aside), you **shoot the moon**: you score 0 and your opponent 20.\n"
        "The game ends after the hand in which someone reaches 100 or more: the **lower** "
        "total wins. If the totals are equal, another hand is played."
    )


def _example() -> str:
    return _(
        "Trick 3, hearts not broken. You lead 10♦; your opponent has no diamonds and plays "
        "2♥. Hearts are now broken and the heart trumps: your opponent takes the trick "
        "(1 point) and leads the next one.\n"
        "At the end of a hand you have taken Q♠ 2♥ 4♥ 6♥ and your opponent the 4 other "
        "hearts: you score 16, your opponent 4."
    )


def rules_panel() -> Panel:
    """The deal, how a trick goes, how a hand scores, when the game ends, and two examples."""
    return panel(
        game_title(),
        _overview(),
        RED,
        (_("Playing a trick"), _tricks()),
        (_(SCORING), _scoring()),
        (_(EXAMPLE), _example()),
    )
