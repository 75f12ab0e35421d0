"""2-Player Hearts, rendered from engine views. Lowest total wins."""

from __future__ import annotations

from cogs.ui.base import GOLD, RED, Button, Control, HandScreen, Names, Panel, View
from cogs.ui.common import final_panel, final_screen, outcome_winners, over_panel, score_table
from engine import hearts2p as rules

SUIT_ORDER = ("C", "D", "S", "H")
MAX_ROWS = 5
ROW_WIDTH = 5


def _card(card: str) -> str:
    return rules.card_label(card)


def _cards(cards: list[str]) -> str:
    return " ".join(_card(c) for c in cards) or "—"


def _trick_line(trick: list[dict[str, object]], names: Names) -> str:
    if not trick:
        return "—"
    return " · ".join(f"{names[int(str(p['seat']))]}: **{_card(str(p['card']))}**" for p in trick)


class HeartsUI:
    name = "hearts"

    def table_key(self, view: View) -> str:
        return f"hand-{view['hand_no']}"

    def table(self, view: View, names: Names) -> Panel:
        if view.get("outcome"):
            return over_panel("♥️ 2-Player Hearts", view, names)
        to_act = view["to_act"]
        turn = f"**{names[to_act[0]]}** to play" if to_act else ""
        broken = "💔 Hearts are broken" if view["hearts_broken"] else "❤️ Hearts not broken yet"
        lines = [
            f"Trick {view['trick_no']}/13 · {turn}",
            f"On the table: {_trick_line(view['trick'], names)}",
            broken,
        ]
        last = view.get("last_trick")
        if last:
            winner = names[last["winner"]]
            lines.append(
                f"Last trick: {_trick_line(last['cards'], names)} → {winner}"
                + (f" (+{last['points']})" if last.get("points") else "")
            )
        fields = []
        for seat in range(2):
            taken = view["taken"][seat]
            value = (
                f"Cards left: {view['hand_sizes'][seat]}\n"
                f"This hand: {taken['points']} pts {_cards(taken['point_cards'])}\n"
                f"Total: {view['totals'][seat]}"
            )
            fields.append((names.label(seat), value, True))
        return Panel(
            title=f"♥️ 2-Player Hearts — hand {view['hand_no']}",
            description="\n".join(lines),
            fields=tuple(fields),
            colour=RED,
            footer="Lowest total wins when someone reaches 100. Your cards come by DM.",
        )

    def result(self, view: View, names: Names) -> Panel:
        return final_panel("🏆 2-Player Hearts — result", view, names, lowest_wins=True)

    def hand(self, view: View, legal: list[str], names: Names) -> HandScreen:
        if view.get("outcome"):
            return final_screen(self.result(view, names), view, lowest_wins=True)
        seat = view["seat"]
        other = 1 - seat
        lines = [
            f"Hand {view['hand_no']} · trick {view['trick_no']}/13 · "
            f"you {view['totals'][seat]}, {names[other]} {view['totals'][other]}",
            f"On the table: {_trick_line(view['trick'], names)}",
        ]
        if view["hearts_broken"]:
            lines.append("💔 Hearts are broken.")
        if legal:
            lines.append("👉 Your turn: play a card (only legal cards are enabled).")
        elif view.get("outcome"):
            lines.append("The game is over.")
        else:
            lines.append(f"Waiting for {names[other]}.")
        panel = Panel(
            title="Your hand",
            description="\n".join(lines),
            fields=(("Cards", _cards(view["hand"]), False),),
            colour=RED,
        )
        return HandScreen(panels=(panel,), controls=tuple(self._controls(view, legal)))

    @staticmethod
    def _controls(view: View, legal: list[str]) -> list[Control]:
        by_suit = {s: [c for c in view["hand"] if rules.suit(c) == s] for s in SUIT_ORDER}
        rows_needed = sum(-(-len(cards) // ROW_WIDTH) for cards in by_suit.values())
        explicit = rows_needed <= MAX_ROWS
        controls: list[Control] = []
        row = 0
        for suit in SUIT_ORDER:
            for n, card in enumerate(by_suit[suit]):
                if explicit and n and n % ROW_WIDTH == 0:
                    row += 1
                action = f"p.{card}"
                playable = action in legal
                controls.append(
                    Button(
                        _card(card),
                        action if playable else None,
                        "primary" if playable else "secondary",
                        row=row if explicit else None,
                        disabled=not playable,
                    )
                )
            if explicit and by_suit[suit]:
                row += 1
        return controls

    def summaries(self, before: View, after: View, names: Names) -> list[Panel]:
        panels: list[Panel] = []
        last = after.get("last_hand")
        if last and last != before.get("last_hand"):
            moon = last.get("moon")
            lines = [f"Dead cards: {_cards(last['dead'])}"]
            if moon is not None:
                lines.append(f"🌙 **{names[moon]} shot the moon!** The other player takes 20.")
            fields = tuple(
                (
                    names[s],
                    f"Took: {_cards(last['point_cards'][s])}\n"
                    f"Hand: {last['points'][s]} · Total: {last['totals'][s]}",
                    True,
                )
                for s in range(2)
            )
            panels.append(
                Panel(
                    title=f"Hand {last['hand_no']} scored",
                    description="\n".join(lines),
                    fields=fields,
                    colour=GOLD,
                )
            )
        if after.get("outcome") and not before.get("outcome"):
            panels.append(self.result(after, names))
        return panels

    def scores(self, view: View, names: Names) -> Panel:
        rows = [
            (
                f"Hand {h['hand_no']}" + (" 🌙" if h.get("moon") is not None else ""),
                list(h["points"]),
            )
            for h in view["hands_history"]
        ]
        totals = view["outcome"]["totals"] if view.get("outcome") else view["totals"]
        return score_table(
            "Hearts scores (lowest wins)",
            rows,
            totals,
            names,
            lowest_wins=True,
            winners=outcome_winners(view),
        )

    def rules(self) -> Panel:
        return Panel(
            title="2-Player Hearts — quick rules",
            description=(
                "28 cards (2, 4, 6, 8, 10, Q, A of each suit); 13 each, 2 dead cards nobody "
                "sees until the hand is scored.\n"
                "• The lowest club in play opens the first trick. Follow suit if you can.\n"
                "• **Hearts are trump**: a heart beats any other suit. You may not lead a heart "
                "until hearts are broken (unless you hold nothing else).\n"
                "• Each heart taken is 1 point, the Q♠ is 13. Take every live point card and "
                "you **shoot the moon**: 0 for you, 20 for your opponent.\n"
                "When someone reaches 100 the game ends; the **lowest** total wins."
            ),
            colour=RED,
        )


UI = HeartsUI()
