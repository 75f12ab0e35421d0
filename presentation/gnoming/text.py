"""Gnoming A Round: small display pieces shared by the table and the hand screen.

Everything here reads view data (card ids, cells, pile dicts) and the engine's card values;
no rule is computed. Words are translated where they are shown: the tables below hold
``N_`` marks, the functions translate them in the current language.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.gnoming.cards import card_kind, card_short, card_value
from engine.gnoming.view import GnomeCell, GnomePile, GnomeView
from i18n import N_, _, pgettext, translate
from presentation import titles
from presentation.base import Names, Style

FACE_DOWN = "🂠"
HAZARD_EMOJI = "⚠️"
MULLIGAN_EMOJI = "🃏"

# Where a cell is in the 3x3 grid, written to fit "You turn up {first} and {second}".
CELL_NAMES = (
    N_("top left"),
    N_("top middle"),
    N_("top right"),
    N_("middle left"),
    N_("centre"),
    N_("middle right"),
    N_("bottom left"),
    N_("bottom middle"),
    N_("bottom right"),
)
# A matched line in a round summary: one sentence per line, so each language words it whole.
LINE_NOTES: dict[tuple[int, ...], str] = {
    (0, 1, 2): N_("top row of {value}s: {points}"),
    (3, 4, 5): N_("middle row of {value}s: {points}"),
    (6, 7, 8): N_("bottom row of {value}s: {points}"),
    (0, 3, 6): N_("left column of {value}s: {points}"),
    (1, 4, 7): N_("middle column of {value}s: {points}"),
    (2, 5, 8): N_("right column of {value}s: {points}"),
}


# TRANSLATORS: the game's published title (a brand: most languages keep it); every message that
# names the game shows this one translation.
TITLE = N_("Gnoming A Round")  # the engine's title: presentation.titles translates it


def title() -> str:
    """The game's name in the current language."""
    return titles.game_title("gnome")


def cell_name(cell: int) -> str:
    """Where ``cell`` is in the grid, in the current language ("top left")."""
    return translate(CELL_NAMES[cell])


def line_note(cells: Sequence[int], value: int) -> str:
    """A matched line in a round summary: "top row of 6s: -6"."""
    return translate(LINE_NOTES[tuple(cells)], value=value, points=-value)


def card_label(card: str) -> str:
    """A card on a button or in a table: "6", "-2", "Hazard", "Mulligan"."""
    kind = card_kind(card)
    if kind == "H":
        return pgettext("gnoming", "Hazard")
    if kind == "M":
        return pgettext("gnoming", "Mulligan")
    return str(card_value(card))


def card_text(card: str) -> str:
    """Bold-ready text for a card in sentences: "6", "-2", "⚠️ Hazard", "🃏 Mulligan"."""
    emoji = card_emoji(card)
    return f"{emoji} {card_label(card)}" if emoji else card_label(card)


def card_emoji(card: str | None) -> str | None:
    """The emoji shown on a button for special cards (None for numbers and face-down cards)."""
    if card is None:
        return None
    return {"H": HAZARD_EMOJI, "M": MULLIGAN_EMOJI}.get(card_kind(card))


def card_style(card: str | None) -> Style:
    """Button colour of a card shown for display: negatives green, hazards red, rest grey."""
    kind = card_kind(card) if card is not None else None
    if kind == "N":
        return "success"
    if kind == "H":
        return "danger"
    return "secondary"


def cell_label(cell: GnomeCell) -> str:
    """A grid button's label: the back of a face-down card, else the card's label."""
    card = cell["card"]
    if not cell["up"] or card is None:
        return FACE_DOWN
    return card_label(card)


def initial(card: str) -> str:
    """A card in the monospaced grids: its value, or the initial of the special card's name in
    the current language (a Romanian "pericol" is a P, an Estonian "oht" an O)."""
    kind = card_kind(card)
    if kind == "H":
        # TRANSLATORS: one letter, the initial of your word for the Hazard card.
        return pgettext("gnoming initial", "H")
    if kind == "M":
        # TRANSLATORS: one letter, the initial of your word for the Mulligan card.
        return pgettext("gnoming initial", "M")
    return card_short(card)


def grid_block(cells: Sequence[GnomeCell]) -> str:
    """Three monospaced lines of face-up cards; a face-down card is a dot."""
    texts = [initial(c["card"]) if c["up"] and c["card"] else "·" for c in cells]
    rows = [" ".join(f"{t:>2}" for t in texts[r * 3 : r * 3 + 3]) for r in range(3)]
    return "```\n" + "\n".join(rows) + "\n```"


def scored_block(grid: Sequence[str], matched: set[int]) -> str:
    """A revealed grid; cards in a matched line are shown in brackets, e.g. [6]."""
    texts = []
    for cell, card in enumerate(grid):
        short = initial(card)
        texts.append(f"[{short}]" if cell in matched else f"{short:>2} ")
    rows = ["".join(texts[r * 3 : r * 3 + 3]).rstrip() for r in range(3)]
    return "```\n" + "\n".join(rows) + "\n```"


def short_legend() -> str:
    """What the letters of the grid blocks mean."""
    return _(
        "{hazard} hazard (+10) · {mulligan} mulligan (wild) · · face down",
        hazard=initial("HZ-01"),
        mulligan=initial("MU-01"),
    )


def pile_text(pile: GnomePile) -> str:
    """A discard pile's top and size: "**6** (3)" or "empty"."""
    if pile["top"] is None:
        return pgettext("gnoming", "empty")
    return f"**{card_text(pile['top'])}** ({pile['size']})"


def piles_line(view: GnomeView) -> str:
    discard = view["discard"]
    return _(
        "Draw pile **{count}** · Discard A: {a} · B: {b}",
        count=view["draw_size"],
        a=pile_text(discard["A"]),
        b=pile_text(discard["B"]),
    )


def who(names: Names, seats: Sequence[int]) -> str:
    return ", ".join(names[s] for s in seats) or pgettext("gnoming", "nobody")


def final_lap_line(view: GnomeView, names: Names) -> str:
    lap = view.get("final_lap")
    if not lap:
        return ""
    return _(
        "🏁 **{player}** went out! Last turns: {players}.",
        player=names[lap["first_out"]],
        players=who(names, lap["remaining"]),
    )


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)
