"""Gnoming A Round: the ``/rules`` text, written for players (rules: ``gnoming.md``).

One message per paragraph or bullet, so each can be translated whole; the headings are
messages of their own.
"""

from __future__ import annotations

from i18n import _


def _goal() -> list[str]:
    return [
        _(
            "3–7 players, 3 rounds (holes), a Golf game: **lowest total wins**. Each player has "
            "a 3×3 grid of cards dealt face down; nobody knows them, not even their owner."
        ),
        _(
            "At the start of a round everyone secretly picks two of their cards; they are "
            "turned face up together."
        ),
    ]


def _turn() -> list[str]:
    return [
        _("**Your turn**"),
        _("1. Draw the top card of the deck, or take the top card of discard pile A or B."),
        _(
            "2. Swap it into your grid (the card there is turned face up and leaves your grid), "
            "or discard it."
        ),
        _(
            "3. **Bounce**: if the card that left your grid was face down and is a positive "
            "number equal to a face-up positive number in your grid, it may go to another cell "
            "instead (not one filled this turn). The card there leaves in turn and may bounce "
            "too."
        ),
        _("4. The last card out goes on pile A or B (if one pile is empty, it must go there)."),
        _(
            "⚠️ A discarded **Hazard** leaves play for the round, and every other player may "
            "turn up one of their face-down cards (never their last one)."
        ),
        _("🃏 You may not place a **Mulligan** while another face-up mulligan is in your grid."),
        _(
            "🏁 When a player has no face-down card left, everyone else gets one last turn; "
            "then all cards are turned face up and the round is scored."
        ),
    ]


def _scoring() -> list[str]:
    return [
        _("**Scoring**"),
        _("• Numbers count their value; negative cards (−1 to −4) lower your score."),
        _(
            "• A row or column of three equal positive cards scores **minus** that value "
            "instead (three 6s: −6). Diagonals do not count; negative cards never match."
        ),
        _(
            "• 🃏 **Mulligan**: 0 points, and wild in lines (it may be a different value in "
            "its row and in its column). If a grid has several, only one is wild."
        ),
        _("• ⚠️ **Hazard**: +10 if it is still in your grid at the end of the round."),
        _(
            "• Whoever went out first gets −5 if their score is the lowest (a tie counts), "
            "otherwise +5. If nobody goes out before the turn limit, nobody gets ±5."
        ),
        _("• Tie on the total after 3 rounds: the lower round-3 score wins."),
    ]


def _example() -> list[str]:
    return [
        _("**Example**"),
        _(
            "Grid 6 6 6 / 3 4 5 / 7 8 3: the row of 6s scores −6, the other cards "
            "3 + 4 + 5 + 7 + 8 + 3 = 30, so the round scores 24. Had you gone out first with "
            "the lowest score, it would be 19."
        ),
    ]


def rules_text() -> str:
    """The whole rules panel's text in the current language."""
    return "\n".join([*_goal(), "", *_turn(), "", *_scoring(), "", *_example()])
