"""2-Player Hearts, rendered from engine views. Lowest total wins (rules text in ``rules``).

Cards are shown as rank and suit symbol ("Q♠", "10♥"), alike in every language; every word
around them comes from the catalogs (domain ``hearts2p``).
"""

from __future__ import annotations

from engine.hearts2p.cards import card_label
from engine.hearts2p.cards import suit as suit_of
from engine.hearts2p.view import HeartsPlay, HeartsView
from i18n import _, ngettext, pgettext
from presentation.base import GOLD, RED, Button, Control, GameUI, HandScreen, Names, Panel
from presentation.common import (
    Renderer,
    final_panel,
    own_seat,
    score_table,
    sheet_of,
)
from presentation.hearts2p.moves import move_line
from presentation.hearts2p.rules import game_title, rules_panel

SUIT_ORDER = ("C", "D", "S", "H")
MAX_ROWS = 5
ROW_WIDTH = 5


def _card(card: str) -> str:
    return card_label(card)


def _cards(cards: list[str]) -> str:
    return " ".join(_card(c) for c in cards) or "—"


def _trick_line(trick: list[HeartsPlay], names: Names) -> str:
    if not trick:
        return "—"
    return " · ".join(f"{names[p['seat']]}: **{_card(p['card'])}**" for p in trick)


class HeartsUI(Renderer[HeartsView]):
    name = "hearts"
    icon = "♥️"

    def table_key(self, view: HeartsView) -> str:
        return f"hand-{view['hand_no']}"

    def playing_table(self, view: HeartsView, names: Names) -> Panel:
        to_act = view["to_act"]
        trick = _("Trick {trick}/13", trick=view["trick_no"])
        if to_act:
            trick += " · " + _("**{name}** to play", name=names[to_act[0]])
        if view["hearts_broken"]:
            broken = _("💔 Hearts are broken")
        else:
            broken = _("❤️ Hearts not broken yet")
        lines = [
            trick,
            _("On the table: {cards}", cards=_trick_line(view["trick"], names)),
            broken,
        ]
        last = view.get("last_trick")
        if last:
            cards, winner = _trick_line(last["cards"], names), names[last["winner"]]
            if last.get("points"):
                lines.append(
                    ngettext(
                        "Last trick: {cards} → {name} (+{n} point)",
                        "Last trick: {cards} → {name} (+{n} points)",
                        last["points"],
                        cards=cards,
                        name=winner,
                    )
                )
            else:
                lines.append(_("Last trick: {cards} → {name}", cards=cards, name=winner))
        fields = []
        for seat in range(2):
            taken = view["taken"][seat]
            value = "\n".join(
                (
                    ngettext("{n} card left", "{n} cards left", view["hand_sizes"][seat]),
                    ngettext(
                        "This hand: {n} point {cards}",
                        "This hand: {n} points {cards}",
                        taken["points"],
                        cards=_cards(taken["point_cards"]),
                    ),
                    _("Total: {total}", total=view["totals"][seat]),
                )
            )
            fields.append((names.label(seat), value, True))
        return Panel(
            title=_("♥️ {game} — hand {hand}", game=game_title(), hand=view["hand_no"]),
            description="\n".join(lines),
            fields=tuple(fields),
            colour=RED,
            footer=_("Lowest total wins when someone reaches 100."),
            for_players=_("Your cards come by DM."),
        )

    def result(self, view: HeartsView, names: Names) -> Panel:
        title = _("🏆 {game} — result", game=game_title())
        return final_panel(title, view, names, lowest_wins=True)

    def playing_hand(self, view: HeartsView, legal: list[str], names: Names) -> HandScreen:
        seat = own_seat(view)
        other = 1 - seat
        lines = [
            _(
                "Hand {hand} · trick {trick}/13 · you {mine}, {name} {theirs}",
                hand=view["hand_no"],
                trick=view["trick_no"],
                mine=view["totals"][seat],
                name=names[other],
                theirs=view["totals"][other],
            ),
            _("On the table: {cards}", cards=_trick_line(view["trick"], names)),
        ]
        if view["hearts_broken"]:
            lines.append(_("💔 Hearts are broken."))
        if legal:
            lines.append(_("👉 Your turn: play a card (only legal cards are enabled)."))
        else:
            lines.append(_("Waiting for {name}.", name=names[other]))
        panel = Panel(
            title=pgettext("hearts", "Your hand"),
            description="\n".join(lines),
            fields=((pgettext("hearts", "Cards"), _cards(view["hand"]), False),),
            colour=RED,
        )
        return HandScreen(panels=(panel,), controls=tuple(self._controls(view, legal)))

    @staticmethod
    def _controls(view: HeartsView, legal: list[str]) -> list[Control]:
        by_suit = {s: [c for c in view["hand"] if suit_of(c) == s] for s in SUIT_ORDER}
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

    def round_summaries(self, before: HeartsView, after: HeartsView, names: Names) -> list[Panel]:
        panels: list[Panel] = []
        last = after.get("last_hand")
        if last and last != before.get("last_hand"):
            moon = last.get("moon")
            lines = [_("Dead cards: {cards}", cards=_cards(last["dead"]))]
            if moon is not None:
                lines.append(
                    _("🌙 **{name} shot the moon!** The other player takes 20.", name=names[moon])
                )
            fields = tuple(
                (
                    names[s],
                    _("Took: {cards}", cards=_cards(last["point_cards"][s]))
                    + "\n"
                    + _(
                        "Hand: {points} · Total: {total}",
                        points=last["points"][s],
                        total=last["totals"][s],
                    ),
                    True,
                )
                for s in range(2)
            )
            panels.append(
                Panel(
                    title=_("Hand {hand} scored", hand=last["hand_no"]),
                    description="\n".join(lines),
                    fields=fields,
                    colour=GOLD,
                )
            )
        return panels

    def scores(self, view: HeartsView, names: Names) -> Panel:
        rows = [
            (
                pgettext("hearts", "Hand {hand}", hand=h["hand_no"])
                + (" 🌙" if h.get("moon") is not None else ""),
                list(h["points"]),
            )
            for h in view["hands_history"]
        ]
        return score_table(
            _("Hearts scores (lowest wins)"), rows, sheet_of(view, lowest_wins=True), names
        )

    def rules(self) -> Panel:
        return rules_panel()

    def move_line(self, action: str, seat: int, view: HeartsView, names: Names) -> str:
        """What ``seat`` did ("led 2♣", "played Q♠ and took the trick (+13 points)"), for
        ``/history``; ``view`` is the spectator's view right after the move (see ``moves``)."""
        return move_line(action, seat, view, names)


UI: GameUI[HeartsView] = HeartsUI()
