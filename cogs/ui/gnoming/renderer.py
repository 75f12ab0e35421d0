"""Gnoming A Round (a Golf variant), rendered from engine views.

The table shows every grid's face-up cards as a small monospaced block; a player's DM shows
their own grid as a 3x3 block of buttons (rows 0-2) with the choices of the moment below.
The lowest total wins, so the final result and the score sheet sort lowest first.
"""

from __future__ import annotations

from typing import Any

from cogs.ui.base import GOLD, GREEN, HandScreen, Names, Panel, View
from cogs.ui.common import final_panel, final_screen, outcome_winners, over_panel, score_table
from cogs.ui.gnoming.hand import hand_screen
from cogs.ui.gnoming.text import (
    CELL_NAMES,
    LINE_NAMES,
    card_text,
    final_lap_line,
    grid_block,
    piles_line,
    scored_block,
    signed,
)

TITLE = "Gnoming A Round"
LEGEND = "H hazard (+10) · M mulligan (wild) · · face down"


def _phase_line(view: View, names: Names) -> str:
    phase = view["phase"]
    if phase == "opening":
        waiting = ", ".join(f"⏳ {names[s]}" for s in view["opening"]["waiting"])
        return f"Everyone picks two cards to turn up, secretly. Waiting for: {waiting}"
    active = names[view["active"]]
    if phase == "draw":
        return f"🎯 **{active}**'s turn: drawing from the deck or a discard pile."
    if phase == "play":
        held = view.get("held") or {}
        if held.get("card"):
            return (
                f"🎯 **{active}** took **{card_text(held['card'])}** from pile {held['from']} "
                "and is placing it."
            )
        return f"🎯 **{active}** drew from the deck and is deciding."
    if phase == "bounce":
        card = card_text(view["bounce"]["card"])
        return f"↪️ **{active}** revealed a **{card}** that matches: it may bounce."
    if phase == "discard":
        card = card_text(view["pending_discard"]["card"])
        return f"🎯 **{active}** is choosing a pile for the **{card}**."
    if phase == "hazard_flips":
        waiting = ", ".join(f"⏳ {names[s]}" for s in view["hazard_flips"]["waiting"])
        return (
            f"⚠️ **{active}** discarded a hazard! The others may turn up one face-down card. "
            f"Waiting for: {waiting}"
        )
    return ""


def _result_text(view: View, names: Names) -> str:
    """Lowest total wins; say so, and how a tie on the total was settled."""
    outcome = view["outcome"]
    totals: list[int] = outcome["totals"]
    winners: list[int] = outcome["winners"]
    tied = [s for s, t in enumerate(totals) if t == min(totals)]
    text = "Lowest total after three rounds wins."
    if len(tied) > 1:
        last = view["round_scores"][-1] if view["round_scores"] else None
        scores = ", ".join(f"{names[s]} {last[s]}" for s in tied) if last is not None else ""
        if len(winners) < len(tied):
            text += f" Tie on {min(totals)}: the lower round-3 score wins ({scores})."
        else:
            text += f" Tie on {min(totals)} and on the round-3 score ({scores})."
    return text


class GnomingUI:
    name = "gnome"

    def table_key(self, view: View) -> str:
        return f"round-{view['round']}"

    def table(self, view: View, names: Names) -> Panel:
        if view.get("outcome"):
            return over_panel(f"⛳ {TITLE}", view, names)
        lines = [piles_line(view)]
        if view["removed"]:
            lines.append(f"⚠️ Hazards out of play this round: {len(view['removed'])}")
        lines.append(_phase_line(view, names))
        lap = final_lap_line(view, names)
        if lap:
            lines.append(lap)
        first_out = (view.get("final_lap") or {}).get("first_out")
        fields = []
        for seat in range(view["players"]):
            mark = "🎯 " if seat == view["active"] and view["phase"] != "opening" else ""
            if seat == first_out:
                mark = "🏁 "
            value = (
                grid_block(view["grids"][seat])
                + f"Showing **{view['showing'][seat]}** · total {view['totals'][seat]}"
            )
            fields.append((f"{mark}{names.label(seat)}", value, True))
        return Panel(
            title=f"⛳ {TITLE} — round {view['round']}/{view['rounds']}",
            description="\n".join(lines),
            fields=tuple(fields),
            colour=GREEN,
            footer=f"{LEGEND}\nYour grid comes by DM. No DM? Press “My hand”.",
        )

    def result(self, view: View, names: Names) -> Panel:
        return self._final(view, names, f"🏆 {TITLE} — result")

    def hand(self, view: View, legal: list[str], names: Names) -> HandScreen:
        if view.get("outcome"):
            return final_screen(self.result(view, names), view, lowest_wins=True)
        return hand_screen(view, legal, names)

    def summaries(self, before: View, after: View, names: Names) -> list[Panel]:
        panels: list[Panel] = []
        last = after.get("last_round")
        if last and last != before.get("last_round"):
            panels.append(self._round_panel(last, after, names))
        if after.get("outcome") and not before.get("outcome"):
            panels.append(self.result(after, names))
        return panels

    @staticmethod
    def _final(view: View, names: Names, title: str) -> Panel:
        panel = final_panel(title, view, names, lowest_wins=True)
        return Panel(
            title=panel.title,
            description=f"{panel.description}\n\n{_result_text(view, names)}",
            colour=panel.colour,
        )

    @staticmethod
    def _round_panel(last: dict[str, Any], view: View, names: Names) -> Panel:
        first = last["first_out"]
        if last["stalled"] or first is None:
            head = "Nobody went out before the turn limit, so nobody gets ±5."
        else:
            adjust = last["seats"][first]["adjust"]
            how = "with the lowest score" if adjust < 0 else "but not with the lowest score"
            head = f"🏁 **{names[first]}** went out first {how}: **{signed(adjust)}**."
        fields = []
        for seat, entry in enumerate(last["seats"]):
            matched = {cell for line in entry["lines"] for cell in line["cells"]}
            notes = [
                f"✅ {LINE_NAMES.get(tuple(line['cells']), 'line')} of {line['value']}s: "
                f"{-line['value']}"
                for line in entry["lines"]
            ]
            if entry["hazards"]:
                notes.append(f"⚠️ hazards: {entry['hazards']} (+10 each)")
            if entry["wild"] is not None and entry["wild"] in matched:
                notes.append(f"🃏 wild mulligan: {CELL_NAMES[entry['wild']]}")
            score = f"Raw {entry['raw']}"
            if entry["adjust"]:
                score += f" · went out {signed(entry['adjust'])}"
            score += f" → **{entry['score']}** · total {view['totals'][seat]}"
            value = scored_block(entry["grid"], matched) + "\n".join([*notes, score])
            fields.append((f"{names.label(seat)}: {entry['score']}", value, True))
        return Panel(
            title=f"⛳ Round {last['round']} scored",
            description=f"{head}\nBrackets mark matched lines (a line of three equal cards).",
            fields=tuple(fields),
            colour=GOLD,
        )

    def scores(self, view: View, names: Names) -> Panel:
        played = view["round_scores"]
        rows: list[tuple[str, list[int | None]]] = []
        for index in range(view["rounds"]):
            cells: list[int | None] = (
                list(played[index]) if index < len(played) else [None] * view["players"]
            )
            rows.append((f"Round {index + 1}", cells))
        panel = score_table(
            f"{TITLE} scores",
            rows,
            view["totals"],
            names,
            lowest_wins=True,
            winners=outcome_winners(view),
        )
        return Panel(
            title=panel.title,
            description=panel.description + "\nLowest total wins.",
            fields=panel.fields,
            colour=panel.colour,
        )

    def rules(self) -> Panel:
        return Panel(
            title=f"{TITLE} — quick rules",
            description=(
                "3–7 players, 3 rounds, a Golf game: **lowest total wins**.\n"
                "• Everyone has a 3×3 grid dealt face down and starts by turning up two cards "
                "(all at once).\n"
                "• On your turn draw from the deck or take the top of discard pile A or B, then "
                "swap it into your grid (the card there is revealed and discarded) or discard "
                "it.\n"
                "• **Bounce**: a revealed face-down number matching a face-up number in your "
                "grid may jump to another cell instead, revealing that card in turn.\n"
                "• A row or column of three equal numbers scores **minus** that number. "
                "Negative cards count as they are and never match.\n"
                "• ⚠️ **Hazard**: +10 if it stays in your grid. Discarding one removes it and "
                "lets every other player turn up one face-down card (never their last).\n"
                "• 🃏 **Mulligan**: 0 and wild in lines; only one may be placed in a grid.\n"
                "• When someone has no face-down card left, everyone else gets one last turn. "
                "Whoever went out first gets −5 if their score is the lowest (ties count), "
                "else +5."
            ),
            colour=GREEN,
        )


UI = GnomingUI()
