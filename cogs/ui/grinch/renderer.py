"""Grinch Grow Your Heart, rendered from engine views."""

from __future__ import annotations

from cogs.ui.base import (
    GOLD,
    GREEN,
    RED,
    Button,
    Control,
    HandScreen,
    Names,
    Panel,
    View,
)
from cogs.ui.common import final_panel, final_screen, outcome_winners, over_panel, score_table
from engine import grinch as rules

SUIT_EMOJI = {"W": "🌿", "N": "🔔", "O": "🎀", "P": "🎁"}
ROW_TITLES = rules.ROW_NAMES
TITLE = "Grinch Grow Your Heart"
SUIT_LEGEND = " · ".join(f"{SUIT_EMOJI[s]} {rules.SUIT_NAMES[s]}" for s in rules.SUITS)
BONUS_LEGEND = (
    "Bonus marks, e.g. (+5 🎁): 5 points if your five cards hold at least 1 other 🎁 card; "
    "(+10 🎁): 10 points with at least 3 other 🎁 cards. A met bonus adds to whichever row "
    "you pick."
)


def card_short(card: str) -> str:
    """Compact public form: suit emoji and rank, e.g. 🌿3."""
    return f"{SUIT_EMOJI[card[0]]}{card[1]}"


def card_label(card: str) -> str:
    """The compact form, then the card's name or suit: "🎀2 Cindy-Lou Who", "🌿3 Wreaths"."""
    suit = rules.SUIT_NAMES[rules.suit_of(card)]
    name = rules.card_name(card)  # a known name, or "Wreaths 3" (the rank is already shown)
    return f"{card_short(card)} {suit if name == f'{suit} {rules.rank_of(card)}' else name}"


def bonus_mark(card: str) -> str:
    """The card's bonus with the suit it needs as an emoji ("+5 🎁"), or ""."""
    bonus = rules.bonus_of(card)
    return f"+{bonus.points} {SUIT_EMOJI[bonus.suit]}" if bonus else ""


def card_long(card: str) -> str:
    """Rank and suit as in the summaries, the name, and the bonus: "🎀2 Cindy-Lou Who (+5 🎁)"."""
    mark = bonus_mark(card)
    return f"{card_label(card)} ({mark})" if mark else card_label(card)


def legend(cards: list[str]) -> str:
    """The footer explaining suits, and bonus marks when one of ``cards`` carries a bonus."""
    if any(rules.bonus_of(c) for c in cards):
        return f"{SUIT_LEGEND}\n{BONUS_LEGEND}"
    return SUIT_LEGEND


def _pile_text(pile: list[str]) -> str:
    if not pile:
        return "empty"
    below = " ".join(card_short(c) for c in pile[:-1])
    top = f"top **{card_short(pile[-1])}**"
    return f"{top} ({len(pile)})" + (f" · below: {below}" if below else "")


def _phase_line(view: View, names: Names) -> str:
    phase = view["phase"]
    waiting = [names[s] for s in view["to_act"]]
    done = [names[s] for s in view.get("submitted", [])]
    if phase == "WHO_DISCARD":
        text = "The Whos are discarding, secretly."
    elif phase == "GRINCH_TAKE":
        text = f"The Grinch takes card {view['takes_done'] + 1} of 2."
    elif phase == "GRINCH_DISCARD":
        text = "The Grinch discards."
    elif phase == "SCORING":
        text = "Everyone picks a row for this hand, secretly."
    else:
        return "The game is over."
    parts = [text]
    if done:
        parts.append("Locked in: " + ", ".join(f"✅ {n}" for n in done))
    if waiting:
        parts.append("Waiting for: " + ", ".join(f"⏳ {n}" for n in waiting))
    return "\n".join(parts)


def _takes_line(view: View, names: Names) -> str:
    takes = view.get("takes") or []
    if not takes:
        return ""
    parts = []
    for take in takes:
        if take["source"] == "deck":
            card = f" ({card_short(take['card'])})" if take.get("card") else ""
            parts.append(f"the deck{card}")
        else:
            parts.append(f"{names[take['owner']]}'s pile ({card_short(take['card'])})")
    return "The Grinch took from " + " and ".join(parts) + "."


class GrinchUI:
    name = "grinch"

    def table_key(self, view: View) -> str:
        return f"round-{view['round']}"

    def table(self, view: View, names: Names) -> Panel:
        if view.get("outcome"):
            return over_panel(f"🎄 {TITLE}", view, names)
        grinch = view["grinch"]
        head = (
            f"Grinch: **{names[grinch]}** · Heart ❤️ {view['heart']} · "
            f"Deck {view['deck_size']} cards"
        )
        takes = _takes_line(view, names)
        description = "\n".join(x for x in (head, _phase_line(view, names), takes) if x)
        fields = []
        for seat in range(view["players"]):
            role = "😈 " if seat == grinch else ""
            value = (
                f"Hand: {view['hand_sizes'][seat]} cards · Score: {view['totals'][seat]}\n"
                f"Pile: {_pile_text(view['piles'][seat])}"
            )
            fields.append((f"{role}{names.label(seat)}", value, True))
        return Panel(
            title=f"🎄 Grinch Grow Your Heart — round {view['round']}/{view['rounds']}",
            description=description,
            fields=tuple(fields),
            colour=GREEN,
            footer="Your hand comes by DM. No DM? Press “My hand”.",
        )

    def result(self, view: View, names: Names) -> Panel:
        return final_panel(f"🏆 {TITLE} — result", view, names)

    def hand(self, view: View, legal: list[str], names: Names) -> HandScreen:
        if view.get("outcome"):
            return final_screen(self.result(view, names), view)
        hand = view.get("hand") or []
        seat = view["seat"]
        is_grinch = seat == view["grinch"]
        role = "😈 You are the **Grinch**" if is_grinch else "You are a **Who**"
        lines = [
            f"Round {view['round']}/{view['rounds']} · Heart ❤️ {view['heart']} · {role}",
            "",
            *(f"• {card_long(c)}" for c in hand),
        ]
        prompt = self._prompt(view, legal, is_grinch)
        if prompt:
            lines += ["", prompt]
        fields: list[tuple[str, str, bool]] = []
        if view["phase"] in ("GRINCH_TAKE", "GRINCH_DISCARD", "WHO_DISCARD"):
            piles = [f"{names[s]}: {_pile_text(p)}" for s, p in enumerate(view["piles"])]
            fields.append(("Discard piles", "\n".join(piles), False))
        used = view.get("used_rows") or []
        if used:
            sheet = view["sheet"][seat]
            fields.append(
                ("Your rows", ", ".join(f"{ROW_TITLES[r]} {sheet[r]}" for r in used), False)
            )
        shown = list(hand)
        if view["phase"] == "GRINCH_TAKE" and legal:
            shown += [pile[-1] for pile in view["piles"] if pile]
        panel = Panel(
            title="Your hand",
            description="\n".join(lines),
            fields=tuple(fields),
            colour=RED if is_grinch else GREEN,
            footer=legend(shown),
        )
        return HandScreen(panels=(panel,), controls=tuple(self._controls(view, legal, names)))

    @staticmethod
    def _prompt(view: View, legal: list[str], is_grinch: bool) -> str:
        phase = view["phase"]
        pending = view.get("my_pending")
        if pending:
            shown = ROW_TITLES.get(pending) or card_long(pending)
            return f"🔒 Locked in: **{shown}**. Waiting for the others."
        if not legal:
            if phase == "GAME_END":
                return "The game is over."
            return "Waiting for the other players."
        if phase == "WHO_DISCARD":
            return "👉 Pick a card to discard (it stays secret until every Who has chosen)."
        if phase == "GRINCH_TAKE":
            return f"👉 Take card {view['takes_done'] + 1} of 2: the deck or any pile's top."
        if phase == "GRINCH_DISCARD":
            return "👉 Discard one card onto your pile."
        if phase == "SCORING":
            return "👉 Pick a row for this hand. Each button shows the points it scores."
        return ""

    @staticmethod
    def _controls(view: View, legal: list[str], names: Names) -> list[Control]:
        controls: list[Control] = []
        phase = view["phase"]
        if phase in ("WHO_DISCARD", "GRINCH_DISCARD"):
            for card in view.get("hand") or []:
                action = f"d.{card}"
                if action in legal:
                    controls.append(Button(card_long(card), action))
        elif phase == "GRINCH_TAKE":
            if "t.deck" in legal:
                controls.append(Button(f"Deck ({view['deck_size']})", "t.deck", "primary"))
            for seat, pile in enumerate(view["piles"]):
                action = f"t.p{seat}"
                if action in legal and pile:
                    controls.append(Button(f"{names[seat]}: {card_long(pile[-1])}", action))
        elif phase == "SCORING" and legal:
            values = view.get("row_values") or {}
            for row in view["rows"]:
                action = f"r.{row}"
                points = values.get(row)
                label = f"{ROW_TITLES[row]}: {points}" if points is not None else ROW_TITLES[row]
                if action in legal:
                    controls.append(Button(label, action, "success"))
                else:
                    controls.append(Button(f"{ROW_TITLES[row]} (used)", None, disabled=True, row=3))
        return controls

    def summaries(self, before: View, after: View, names: Names) -> list[Panel]:
        panels: list[Panel] = []
        last = after.get("last_round")
        if last and last != before.get("last_round"):
            fields = []
            for seat in range(after["players"]):
                hand = " ".join(card_short(c) for c in last["hands"][seat])
                row = ROW_TITLES[last["rows"][seat]]
                fields.append(
                    (names[seat], f"{hand}\n**{row}**: {last['points'][seat]} points", True)
                )
            panels.append(
                Panel(
                    title=f"Round {last['round']} scored",
                    description=f"Grinch this round: {names[last['grinch']]}",
                    fields=tuple(fields),
                    colour=GOLD,
                )
            )
        if after.get("outcome") and not before.get("outcome"):
            panels.append(self.result(after, names))
        return panels

    def scores(self, view: View, names: Names) -> Panel:
        rows = [(ROW_TITLES[r], [sheet[r] for sheet in view["sheet"]]) for r in view["rows"]]
        return score_table(
            "Grinch score sheet", rows, view["totals"], names, winners=outcome_winners(view)
        )

    def rules(self) -> Panel:
        return Panel(
            title=f"{TITLE} — quick rules",
            description=(
                "2–6 players. Each round one player is the **Grinch**, the rest are **Whos**. "
                "Everyone starts with 2 cards; the heart grows 3 → 4 → 5 over three turns.\n"
                "• **Whos** draw 2 from the deck and secretly discard 1 onto their own pile.\n"
                "• The **Grinch** then takes 2, one at a time, from the deck or the top of any "
                "pile (his own too), and discards 1.\n"
                "• With 5 cards, everyone secretly picks an unused row of their sheet: a suit "
                "(sum of that suit), Rainbow (highest of each suit), Match (3/4/5 of a rank: "
                "10/20/30) or Run (4/5 in a row: 15/25).\n"
                "• **Bonus cards** name a suit: a +5 card scores 5 only if your five cards hold "
                "at least 1 other card of that suit, a +10 card scores 10 only with at least 3 "
                "other cards of that suit. A bonus that is met adds to whichever row you pick "
                "(even a row worth 0); several bonuses all count.\n"
                "Highest total after the last round wins; ties share the win."
            ),
            colour=GREEN,
        )


UI = GrinchUI()
