"""Gnoming A Round: small display pieces shared by the table and the hand screen.

Everything here reads view data (card ids, cells, pile dicts) and the engine's card display
helpers; no rule is computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.ui.base import Names, Style, View
from engine.gnoming import card_kind, card_label, card_short

FACE_DOWN = "🂠"
HAZARD_EMOJI = "⚠️"
MULLIGAN_EMOJI = "🃏"

CELL_NAMES = (
    "top left",
    "top middle",
    "top right",
    "middle left",
    "centre",
    "middle right",
    "bottom left",
    "bottom middle",
    "bottom right",
)
LINE_NAMES = {
    (0, 1, 2): "top row",
    (3, 4, 5): "middle row",
    (6, 7, 8): "bottom row",
    (0, 3, 6): "left column",
    (1, 4, 7): "middle column",
    (2, 5, 8): "right column",
}

PHASE_WORDS = {
    "draw": "drawing",
    "play": "placing a card",
    "bounce": "bouncing",
    "discard": "discarding",
    "hazard_flips": "hazard flips",
}


def card_text(card: str) -> str:
    """Bold-ready text for a card in sentences: "6", "-2", "⚠️ Hazard", "🃏 Mulligan"."""
    kind = card_kind(card)
    if kind == "H":
        return f"{HAZARD_EMOJI} Hazard"
    if kind == "M":
        return f"{MULLIGAN_EMOJI} Mulligan"
    return card_label(card)


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


def cell_label(cell: dict[str, Any]) -> str:
    """A grid button's label: the back of a face-down card, else the card's label."""
    card = cell["card"]
    if not cell["up"] or card is None:
        return FACE_DOWN
    return card_label(card)


def grid_block(cells: Sequence[dict[str, Any]]) -> str:
    """Three monospaced lines of face-up cards; a face-down card is a dot."""
    texts = [card_short(c["card"]) if c["up"] and c["card"] else "·" for c in cells]
    rows = [" ".join(f"{t:>2}" for t in texts[r * 3 : r * 3 + 3]) for r in range(3)]
    return "```\n" + "\n".join(rows) + "\n```"


def scored_block(grid: Sequence[str], matched: set[int]) -> str:
    """A revealed grid; cards in a matched line are shown in brackets, e.g. [6]."""
    texts = []
    for cell, card in enumerate(grid):
        short = card_short(card)
        texts.append(f"[{short}]" if cell in matched else f"{short:>2} ")
    rows = ["".join(texts[r * 3 : r * 3 + 3]).rstrip() for r in range(3)]
    return "```\n" + "\n".join(rows) + "\n```"


def pile_text(pile: dict[str, Any]) -> str:
    """A discard pile's top and size: "**6** (3)" or "empty"."""
    if pile["top"] is None:
        return "empty"
    return f"**{card_text(pile['top'])}** ({pile['size']})"


def piles_line(view: View) -> str:
    discard = view["discard"]
    return (
        f"Draw pile **{view['draw_size']}** · Discard A: {pile_text(discard['A'])} · "
        f"B: {pile_text(discard['B'])}"
    )


def who(names: Names, seats: Sequence[int]) -> str:
    return ", ".join(names[s] for s in seats) or "nobody"


def final_lap_line(view: View, names: Names) -> str:
    lap = view.get("final_lap")
    if not lap:
        return ""
    left = who(names, lap["remaining"])
    return f"🏁 **{names[lap['first_out']]}** went out! Last turns: {left}."


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)
