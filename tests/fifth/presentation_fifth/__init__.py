"""High card, rendered from engine views only (the engine is ``engine/fifth/``)."""

from __future__ import annotations

from typing import Any

from engine.base import View
from i18n import _
from presentation.base import BLUE, GOLD, Button, HandScreen, Names, Panel, seat_list
from presentation.common import final_panel, final_screen, over_panel, score_table, sheet_of


def _round_line(record: dict[str, Any], names: Names) -> str:
    cards = " · ".join(f"{names[s]}: **{c}**" for s, c in enumerate(record["cards"]))
    return _("{cards} → {name}", cards=cards, name=names[record["winner"]])


class HighCardUI:
    name = "fifth"

    def table_key(self, view: View) -> str:
        return "table"  # one table message for the whole (short) game

    def table(self, view: View, names: Names) -> Panel:
        if view["outcome"]:
            return over_panel(_("🂠 High Card"), view, names)
        marks = {s: "✅ " if done else "⏳ " for s, done in enumerate(view["played"])}
        lines = [_("Round {round}/3", round=view["round"]), seat_list(names, marks)]
        if view["rounds"]:
            lines.append(_("Last round: {line}", line=_round_line(view["rounds"][-1], names)))
        fields = tuple(
            (names.label(s), _("Total: {total}", total=view["totals"][s]), True)
            for s in range(view["players"])
        )
        return Panel(_("🂠 High Card"), "\n".join(lines), fields, BLUE)

    def hand(self, view: View, legal: list[str], names: Names) -> HandScreen:
        if view["outcome"]:
            return final_screen(self.result(view, names), view)
        if legal:
            line = _("👉 Round {round}: play a card face down.", round=view["round"])
        else:
            line = _("You played **{card}**; waiting for the others.", card=view["my_card"])
        cards = " ".join(view["hand"]) or "—"
        panel = Panel(_("Your hand"), line, ((_("Cards"), cards, False),), BLUE)
        controls = tuple(
            Button(card, f"p.{card}", "primary", row=0)
            for card in view["hand"]
            if f"p.{card}" in legal
        )
        return HandScreen(panels=(panel,), controls=controls)

    def summaries(self, before: View, after: View, names: Names) -> list[Panel]:
        panels = []
        if len(after["rounds"]) > len(before["rounds"]):
            record = after["rounds"][-1]
            text = _round_line(record, names) + "\n" + _("+{points}", points=record["points"])
            panels.append(Panel(_("Round {round}", round=len(after["rounds"])), text, colour=GOLD))
        if after["outcome"] and not before["outcome"]:
            panels.append(self.result(after, names))
        return panels

    def result(self, view: View, names: Names) -> Panel:
        return final_panel(_("🏆 High Card — result"), view, names)

    def scores(self, view: View, names: Names) -> Panel:
        rows = [
            (
                _("Round {round}", round=n),
                [r["points"] if r["winner"] == s else 0 for s in range(view["players"])],
            )
            for n, r in enumerate(view["rounds"], start=1)
        ]
        return score_table(_("High Card scores"), rows, sheet_of(view), names)

    def rules(self) -> Panel:
        return Panel(
            _("🂠 High Card — rules"),
            _(
                "2–3 players, cards 1 to 12, three cards each. In each of three rounds everyone "
                "plays one card face down; when all have played, the highest card takes the sum "
                "of the round's cards. After three rounds the highest total wins."
            ),
            colour=BLUE,
        )

    def move_line(self, action: str, seat: int, view: View, names: Names) -> str:
        """The card once the round is complete (the view shows it then), else only that a card
        was played face down."""
        rounds = view["rounds"]
        card = action.removeprefix("p.")
        if rounds and not any(view["played"]) and rounds[-1]["cards"][seat] == card:
            return _("played {card}", card=card)
        return _("played a card face down")


UI = HighCardUI()
