"""Gnoming A Round: a player's private screen (their grid as buttons, the choices of now)."""

from __future__ import annotations

from typing import Any, assert_never

from engine.gnoming.actions import PILES
from engine.gnoming.view import GnomeView
from i18n import N_, _, ngettext, pgettext, translate
from presentation.base import (
    BLUE,
    GOLD,
    GREEN,
    RED,
    Button,
    Control,
    HandScreen,
    Names,
    Panel,
    Select,
)
from presentation.common import own_seat, required
from presentation.gnoming.text import (
    FACE_DOWN,
    card_emoji,
    card_label,
    card_style,
    card_text,
    cell_label,
    cell_name,
    final_lap_line,
    piles_line,
    who,
)

CHOICE_ROW = 3
# The grid action of each phase, by prefix: "pl.4" places the held card at cell 4.
GRID_PREFIX = {"play": "pl", "bounce": "bo", "hazard_flips": "fl"}
# Opening pairs go in two menus (a menu holds at most 25 options): pairs with a top-row card
# (8 + 7 + 6 = 21), then the pairs inside the middle and bottom rows (15).
OPENING_MENUS = (
    (N_("Turn up 2 cards: pairs with a top-row card"), (0, 1, 2)),
    (N_("Turn up 2 cards: pairs in the middle and bottom rows"), (3, 4, 5, 6, 7)),
)


def hand_screen(view: GnomeView, legal: list[str], names: Names) -> HandScreen:
    seat = own_seat(view)
    phase = view["phase"]
    head = ngettext(
        "⛳ Round {round}/{rounds} · your grid shows **{showing}** · {n} face down · total {total}",
        "⛳ Round {round}/{rounds} · your grid shows **{showing}** · {n} face down · total {total}",
        view["face_down"][seat],
        round=view["round"],
        rounds=view["rounds"],
        showing=view["showing"][seat],
        total=view["totals"][seat],
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
        (pgettext("gnoming", "Table"), piles_line(view), False),
        (_("Others (showing, face down)"), " · ".join(others), False),
    ]
    last = view.get("last_round")
    if last and phase == "opening":
        mine = last["seats"][seat]
        fields.append(
            (
                pgettext("gnoming", "Round {round}", round=last["round"]),
                _("You scored **{score}**.", score=mine["score"]),
                False,
            ),
        )
    colour = GREEN if legal else BLUE
    if phase == "hazard_flips" and legal:
        colour = RED
    elif phase == "finished":
        colour = GOLD
    panel = Panel(
        title=_("Your gnome grid"),
        description="\n".join(lines),
        fields=tuple(fields),
        colour=colour,
    )
    return HandScreen(
        panels=(panel,),
        controls=tuple(_controls(view, legal)),
        content=_("👉 Your move.") if legal else "",
    )


def _held_card(view: GnomeView) -> str:
    held = view.get("held")
    card = held["card"] if held else None
    return card_text(card) if card else pgettext("gnoming", "a card")


def _prompt(view: GnomeView, legal: list[str], names: Names) -> str:
    phase = view["phase"]
    if phase == "finished":
        return _("The game is over. The result is in the channel.")
    if phase == "opening":
        return _opening_prompt(view, legal, names)
    if phase == "hazard_flips":
        return _flip_prompt(view, legal, names)
    if view["seat"] != view["active"]:
        return _watching(view, names)
    if phase == "draw":
        return _("👉 **Your turn.** Draw from the deck, or take the top card of a discard pile.")
    if phase == "play":
        return _play_prompt(view, legal)
    if phase == "bounce":
        card = card_text(required(view["bounce"])["card"])
        return "\n".join(
            (
                _(
                    "↪️ You revealed a **{card}**, which matches a face-up {card}: "
                    "it may **bounce**.",
                    card=card,
                ),
                _(
                    "👉 Tap a grid card to put the {card} there instead (the card it replaces "
                    "may bounce in turn), or discard the {card}. Cells filled this turn are "
                    "closed.",
                    card=card,
                ),
            )
        )
    if phase == "discard":
        card = card_text(required(view["pending_discard"])["card"])
        return "\n".join(
            (
                _("The card you replaced, a **{card}**, is discarded.", card=card),
                _("👉 Choose pile A or B for it."),
            )
        )
    assert_never(phase)  # every phase is handled above


def _opening_prompt(view: GnomeView, legal: list[str], names: Names) -> str:
    if legal:
        return _(
            "👉 Choose **two cards to turn face up** (menus below). Everyone chooses at the "
            "same time; the cards turn up together."
        )
    opening = view.get("opening")
    mine = opening["mine"] if opening else None
    waiting = who(names, opening["waiting"] if opening else [])
    if mine:
        return _(
            "🔒 You turn up {first} and {second}. Waiting for: {players}.",
            first=cell_name(mine[0]),
            second=cell_name(mine[1]),
            players=waiting,
        )
    return _("🔒 Waiting for: {players}.", players=waiting)


def _play_prompt(view: GnomeView, legal: list[str]) -> str:
    in_hand = view.get("held")
    source = in_hand["from"] if in_hand else None
    card = _held_card(view)
    if source == "deck":
        held = _("✋ You hold **{card}** (from the deck).", card=card)
    else:
        held = _("✋ You hold **{card}** (from pile {pile}).", card=card, pile=source)
    lines = [
        held,
        _(
            "👉 Tap a card of your grid to swap the {card} in (a face-down card there is "
            "revealed), or discard it.",
            card=card,
        ),
    ]
    places = [a for a in legal if a.startswith("pl.")]
    if len(places) < 9:
        lines.append(
            _("🃏 Only one face-up mulligan may be in your grid, so some cells are closed.")
        )
    return "\n".join(lines)


def _flip_prompt(view: GnomeView, legal: list[str], names: Names) -> str:
    flips = required(view["hazard_flips"])
    active = names[required(view["active"])]
    waiting = who(names, flips["waiting"])
    if legal:
        return _(
            "⚠️ **{player}** discarded a hazard!\n👉 You may turn up **one of your face-down "
            "cards**: tap it, or press “Don't flip”.",
            player=active,
        )
    if view["seat"] == view["active"]:
        return _("⚠️ Your hazard left play. Waiting for: {players}.", players=waiting)
    mine = flips.get("mine")
    if mine is not None:
        return _(
            "⚠️ **{player}** discarded a hazard! 🔒 You turn up your {cell} card. "
            "Waiting for: {players}.",
            player=active,
            cell=cell_name(mine),
            players=waiting,
        )
    return _(
        "⚠️ **{player}** discarded a hazard! Waiting for: {players}.",
        player=active,
        players=waiting,
    )


def _watching(view: GnomeView, names: Names) -> str:
    active = names[required(view["active"])]
    phase = view["phase"]
    if phase == "play":
        held = view.get("held")
        if held and held["card"]:
            return _(
                "⏳ **{player}** took **{card}** from pile {pile}.",
                player=active,
                card=card_text(held["card"]),
                pile=held["from"],
            )
        return _("⏳ **{player}** drew from the deck.", player=active)
    if phase == "bounce":
        return _(
            "⏳ **{player}** may bounce a **{card}**.",
            player=active,
            card=card_text(required(view["bounce"])["card"]),
        )
    if phase == "discard":
        return _(
            "⏳ **{player}** is discarding the **{card}**.",
            player=active,
            card=card_text(required(view["pending_discard"])["card"]),
        )
    return _("⏳ It is **{player}**'s turn.", player=active)


# ---------------------------------------------------------------- controls


def _controls(view: GnomeView, legal: list[str]) -> list[Control]:
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
                *((f"x.{p}", _("Discard on {pile}", pile=p), "secondary") for p in PILES),
                ("x", _("Discard the hazard (it leaves play)"), "danger"),
            ],
        )
    elif phase == "bounce":
        controls += _choice_buttons(
            legal,
            [(f"nb.{p}", _("No bounce: discard on {pile}", pile=p), "secondary") for p in PILES],
        )
    elif phase == "discard":
        card = card_label(required(view["pending_discard"])["card"])
        controls += _choice_buttons(
            legal,
            [
                (f"pi.{p}", _("Put the {card} on {pile}", card=card, pile=p), "primary")
                for p in PILES
            ],
        )
    elif phase == "hazard_flips":
        controls += _choice_buttons(legal, [("nf", _("Don't flip"), "secondary")])
    return controls


def _grid_buttons(view: GnomeView, legal: list[str]) -> list[Control]:
    prefix = GRID_PREFIX.get(view["phase"])
    cells = view["grids"][own_seat(view)]
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
            (f"{cell_name(a)} + {cell_name(b)}", f"op.{a}.{b}", _pair_map(a, b))
            for a in firsts
            for b in range(a + 1, 9)
            if f"op.{a}.{b}" in legal
        )
        if options:
            menus.append(Select(translate(placeholder), options, row=row))
    return menus


def _pair_map(a: int, b: int) -> str:
    """A tiny picture of the grid with the two chosen cells marked: "■■□ □□□ □□□"."""
    marks = ["■" if cell in (a, b) else "□" for cell in range(9)]
    return "   ".join("".join(marks[r * 3 : r * 3 + 3]) for r in range(3))


def _draw_buttons(view: GnomeView, legal: list[str]) -> list[Control]:
    buttons: list[Control] = []
    if "dr.deck" in legal:
        buttons.append(
            Button(
                _("Draw from the deck ({count})", count=view["draw_size"]),
                "dr.deck",
                "primary",
                row=CHOICE_ROW,
            )
        )
    for pile in ("A", "B"):
        top = view["discard"][pile]["top"]
        if f"dr.{pile}" in legal and top is not None:
            buttons.append(
                Button(
                    _("Take {card} from {pile}", card=card_label(top), pile=pile),
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
