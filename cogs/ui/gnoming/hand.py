"""Gnoming A Round: a player's private screen (their grid as buttons, the choices of now)."""

from __future__ import annotations

from typing import Any

from cogs.ui.base import BLUE, GOLD, GREEN, RED, Button, Control, HandScreen, Names, Panel, Select
from cogs.ui.base import View as ViewDict
from cogs.ui.gnoming.text import (
    CELL_NAMES,
    FACE_DOWN,
    card_emoji,
    card_style,
    card_text,
    cell_label,
    final_lap_line,
    piles_line,
    who,
)
from engine.gnoming import card_label

CHOICE_ROW = 3
# The grid action of each phase, by prefix: "pl.4" places the held card at cell 4.
GRID_PREFIX = {"play": "pl", "bounce": "bo", "hazard_flips": "fl"}
# Opening pairs go in two menus (a menu holds at most 25 options): pairs with a top-row card
# (8 + 7 + 6 = 21), then the pairs inside the middle and bottom rows (15).
OPENING_MENUS = (
    ("Turn up 2 cards: pairs with a top-row card", (0, 1, 2)),
    ("Turn up 2 cards: pairs in the middle and bottom rows", (3, 4, 5, 6, 7)),
)


def hand_screen(view: ViewDict, legal: list[str], names: Names) -> HandScreen:
    seat: int = view["seat"]
    phase = view["phase"]
    head = (
        f"⛳ Round {view['round']}/{view['rounds']} · your grid shows **{view['showing'][seat]}** "
        f"· {view['face_down'][seat]} face down · total {view['totals'][seat]}"
    )
    lines = [head, "", _prompt(view, legal, names)]
    lap = final_lap_line(view, names)
    if lap:
        lines += ["", lap]
    others = [
        f"{names[s]} {view['showing'][s]} ({view['face_down'][s]} {FACE_DOWN})"
        for s in range(view["players"])
        if s != seat
    ]
    fields: list[tuple[str, str, bool]] = [
        ("Table", piles_line(view), False),
        ("Others (showing, face down)", " · ".join(others), False),
    ]
    last = view.get("last_round")
    if last and phase == "opening":
        mine = last["seats"][seat]
        fields.append(
            (f"Round {last['round']}", f"You scored **{mine['score']}**.", False),
        )
    colour = GREEN if legal else BLUE
    if phase == "hazard_flips" and legal:
        colour = RED
    elif phase == "finished":
        colour = GOLD
    panel = Panel(
        title="Your gnome grid", description="\n".join(lines), fields=tuple(fields), colour=colour
    )
    return HandScreen(
        panels=(panel,),
        controls=tuple(_controls(view, legal)),
        content="👉 Your move." if legal else "",
    )


def _held_card(view: ViewDict) -> str:
    held = view.get("held") or {}
    card = held.get("card")
    return card_text(card) if card else "a card"


def _prompt(view: ViewDict, legal: list[str], names: Names) -> str:
    phase = view["phase"]
    seat = view["seat"]
    active = view["active"]
    if phase == "finished":
        return "The game is over. The result is in the channel."
    if phase == "opening":
        mine = view["opening"]["mine"] if view.get("opening") else None
        if legal:
            return (
                "👉 Choose **two cards to turn face up** (menus below). Everyone chooses at the "
                "same time; the cards turn up together."
            )
        picked = " and ".join(CELL_NAMES[c] for c in mine) if mine else "your two cards"
        waiting = who(names, view["opening"]["waiting"]) if view.get("opening") else "nobody"
        return f"🔒 You turn up {picked}. Waiting for: {waiting}."
    if phase == "hazard_flips":
        return _flip_prompt(view, legal, names)
    if seat != active:
        return _watching(view, names)
    if phase == "draw":
        return "👉 **Your turn.** Draw from the deck, or take the top card of a discard pile."
    if phase == "play":
        source = (view.get("held") or {}).get("from")
        where = "the deck" if source == "deck" else f"pile {source}"
        card = _held_card(view)
        text = (
            f"✋ You hold **{card}** (from {where}).\n"
            f"👉 Tap a card of your grid to swap the {card} in (a face-down card there is "
            "revealed), or discard it."
        )
        places = [a for a in legal if a.startswith("pl.")]
        if len(places) < 9:
            text += "\n🃏 Only one face-up mulligan may be in your grid, so some cells are closed."
        return text
    if phase == "bounce":
        card = card_text(view["bounce"]["card"])
        return (
            f"↪️ You revealed a **{card}**, which matches a face-up {card}: it may **bounce**.\n"
            f"👉 Tap a grid card to put the {card} there instead (the card it replaces may "
            f"bounce in turn), or discard the {card}. Cells filled this turn are closed."
        )
    if phase == "discard":
        card = card_text(view["pending_discard"]["card"])
        return f"The card you replaced, a **{card}**, is discarded.\n👉 Choose pile A or B for it."
    return ""


def _flip_prompt(view: ViewDict, legal: list[str], names: Names) -> str:
    flips = view["hazard_flips"]
    active = names[view["active"]]
    head = f"⚠️ **{active}** discarded a hazard!"
    if legal:
        return (
            f"{head}\n👉 You may turn up **one of your face-down cards**: tap it, or press "
            "“Don't flip”."
        )
    if view["seat"] == view["active"]:
        return f"⚠️ Your hazard left play. Waiting for: {who(names, flips['waiting'])}."
    mine = flips.get("mine")
    mark = f"🔒 You turn up your {CELL_NAMES[mine]} card. " if mine is not None else ""
    return f"{head} {mark}Waiting for: {who(names, flips['waiting'])}."


def _watching(view: ViewDict, names: Names) -> str:
    active = names[view["active"]]
    phase = view["phase"]
    if phase == "play":
        held = view.get("held") or {}
        if held.get("card"):
            return f"⏳ **{active}** took **{card_text(held['card'])}** from pile {held['from']}."
        return f"⏳ **{active}** drew from the deck."
    if phase == "bounce":
        return f"⏳ **{active}** may bounce a **{card_text(view['bounce']['card'])}**."
    if phase == "discard":
        return (
            f"⏳ **{active}** is discarding the **{card_text(view['pending_discard']['card'])}**."
        )
    return f"⏳ It is **{active}**'s turn."


# ---------------------------------------------------------------- controls


def _controls(view: ViewDict, legal: list[str]) -> list[Control]:
    controls: list[Control] = _grid_buttons(view, legal)
    phase = view["phase"]
    if phase == "opening":
        controls += _opening_menus(legal)
    elif phase == "draw":
        controls += _draw_buttons(view, legal)
    elif phase == "play":
        controls += _choice_buttons(
            legal,
            [
                ("x.A", "Discard on A", "secondary"),
                ("x.B", "Discard on B", "secondary"),
                ("x", "Discard the hazard (it leaves play)", "danger"),
            ],
        )
    elif phase == "bounce":
        controls += _choice_buttons(
            legal,
            [
                ("nb.A", "No bounce: discard on A", "secondary"),
                ("nb.B", "No bounce: discard on B", "secondary"),
            ],
        )
    elif phase == "discard":
        card = card_label(view["pending_discard"]["card"])
        controls += _choice_buttons(
            legal,
            [
                ("pi.A", f"Put the {card} on A", "primary"),
                ("pi.B", f"Put the {card} on B", "primary"),
            ],
        )
    elif phase == "hazard_flips":
        controls += _choice_buttons(legal, [("nf", "Don't flip", "secondary")])
    return controls


def _grid_buttons(view: ViewDict, legal: list[str]) -> list[Control]:
    prefix = GRID_PREFIX.get(view["phase"])
    cells: list[dict[str, Any]] = view["grids"][view["seat"]]
    buttons: list[Control] = []
    for index, cell in enumerate(cells):
        card = cell["card"] if cell["up"] else None
        label, emoji, row = cell_label(cell), card_emoji(card), index // 3
        action = f"{prefix}.{index}" if prefix else None
        if action is not None and action in legal:
            buttons.append(Button(label, action, "primary", row=row, emoji=emoji))
        else:
            buttons.append(
                Button(label, None, card_style(card), row=row, disabled=True, emoji=emoji)
            )
    return buttons


def _opening_menus(legal: list[str]) -> list[Control]:
    menus: list[Control] = []
    for row, (placeholder, firsts) in enumerate(OPENING_MENUS, start=CHOICE_ROW):
        options = tuple(
            (f"{CELL_NAMES[a]} + {CELL_NAMES[b]}", f"op.{a}.{b}", _pair_map(a, b))
            for a in firsts
            for b in range(a + 1, 9)
            if f"op.{a}.{b}" in legal
        )
        if options:
            menus.append(Select(placeholder, options, row=row))
    return menus


def _pair_map(a: int, b: int) -> str:
    """A tiny picture of the grid with the two chosen cells marked: "■■□ □□□ □□□"."""
    marks = ["■" if cell in (a, b) else "□" for cell in range(9)]
    return "   ".join("".join(marks[r * 3 : r * 3 + 3]) for r in range(3))


def _draw_buttons(view: ViewDict, legal: list[str]) -> list[Control]:
    buttons: list[Control] = []
    if "dr.deck" in legal:
        buttons.append(
            Button(
                f"Draw from the deck ({view['draw_size']})", "dr.deck", "primary", row=CHOICE_ROW
            )
        )
    for pile in ("A", "B"):
        top = view["discard"][pile]["top"]
        if f"dr.{pile}" in legal and top is not None:
            buttons.append(
                Button(
                    f"Take {card_label(top)} from {pile}",
                    f"dr.{pile}",
                    "success",
                    row=CHOICE_ROW,
                    emoji=card_emoji(top),
                )
            )
    return buttons


def _choice_buttons(legal: list[str], choices: list[tuple[str, str, Any]]) -> list[Control]:
    return [
        Button(label, action, style, row=CHOICE_ROW)
        for action, label, style in choices
        if action in legal
    ]
