"""Ten (push-your-luck and auction), rendered from engine views.

Everything in Ten is public, so the channel's table message carries the whole game: the row
and its totals against the bust line, the auction, the market, every collection by colour,
tokens, the deck, whose turn, and the last finished turn. Turns are short and frequent (often
one or two clicks), so they are folded into the table ("Last turn") instead of one channel
message each, which would push the table out of sight; the channel gets a message only for
the result. The acting player's controls come by DM (see :mod:`presentation.ten.hand`).
"""

from __future__ import annotations

from engine.sheet import view_sheet
from engine.ten.view import TenView
from i18n import _, ngettext, translate
from presentation.base import BLUE, GOLD, RED, GameUI, HandScreen, Names, Panel
from presentation.common import Renderer, credited, required, score_table
from presentation.ten.channel import round_of
from presentation.ten.hand import hand_screen
from presentation.ten.moves import move_line
from presentation.ten.rules import rules_panel
from presentation.ten.text import (
    BUST,
    COLOURS,
    TOKEN,
    auction_line,
    auction_record,
    cards_count,
    colour_lines,
    empty_market,
    final_buys_line,
    game_title,
    grouped,
    legend,
    named,
    row_lines,
    seat_line,
    solo_line,
    status_line,
    turn_text,
)

HAND_BUTTON = "My hand"  # the table's button that shows a hand (discordkit/views.py)


def _tie_note(view: TenView, names: Names) -> str:
    """How a tie on the top total was settled (rules §5: tokens, then fewer cards)."""
    outcome = required(view["outcome"])
    totals = outcome["totals"]
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    if len(tied) < 2:
        return ""
    tokens, cards = outcome["tokens"], outcome["cards"]
    who = ", ".join(f"{names[s]} {TOKEN} {tokens[s]} / {cards_count(cards[s])}" for s in tied)
    if len(outcome["winners"]) == len(tied):
        return _("Tie on {points} points, on tokens and on cards ({who}).", points=best, who=who)
    if len({tokens[s] for s in tied}) > 1:
        return _("Tie on {points} points: more currency tokens wins ({who}).", points=best, who=who)
    return _("Tie on {points} points and tokens: fewer cards wins ({who}).", points=best, who=who)


def ranking(view: TenView) -> list[int]:
    """Each seat's place by rules §5: higher total, then more currency tokens, then fewer
    cards; still tied, the place is shared. The engine's places once the game is over."""
    outcome = view.get("outcome")
    if outcome:
        return list(outcome["places"])
    seats = view["seats"]
    keys = [(view["totals"][s], seats[s]["tokens"], -seats[s]["cards"]) for s in range(len(seats))]
    return [1 + sum(other > key for other in keys) for key in keys]


def _breakdown(view: TenView, seat: int) -> str:
    scores = view["seats"][seat]["colour_scores"]
    return " · ".join(f"{named(c)} {scores[c]}" for c in COLOURS)


def result_panel(view: TenView, names: Names) -> Panel:
    """The final result: winners from the engine's outcome, every player's score by colour."""
    outcome = required(view["outcome"])
    totals = outcome["totals"]
    if view["players"] == 1:
        score, target = totals[0], outcome["target"]
        if outcome["won"]:
            verdict = _(
                "**{name}** scored **{score}**: target **{target}** reached — **{name} wins!** 🎉",
                name=names[0],
                score=score,
                target=target,
            )
        else:
            verdict = _(
                "**{name}** scored **{score}**: {short} short of the **{target}** needed to win. "
                "Try again!",
                name=names[0],
                score=score,
                short=target - score,
                target=target,
            )
        text = f"{verdict}\n{_breakdown(view, 0)}"
        title = "🎯 " + _("{game} solo — result", game=game_title())
        return Panel(title, text, colour=GOLD if outcome["won"] else RED)
    winners = set(outcome["winners"])
    places: list[int] = outcome["places"]
    won = ", ".join(f"**{credited(names, s)}**" for s in sorted(winners))
    if len(winners) > 1:
        lines = [_("{names} share the win!", names=won)]
    else:
        lines = [_("{name} wins!", name=won)]
    note = _tie_note(view, names)
    if note:
        lines.append(note)
    lines.append("")
    for seat in sorted(range(len(totals)), key=lambda s: (places[s], s)):
        mark = "🏆" if seat in winners else f"{places[seat]}."
        lines.append(
            f"{mark} **{credited(names, seat)}** — **{totals[seat]}** · "
            f"{TOKEN} {outcome['tokens'][seat]} · {cards_count(outcome['cards'][seat])}\n"
            f"   {_breakdown(view, seat)}"
        )
    return Panel("🏆 " + _("{game} — result", game=game_title()), "\n".join(lines), colour=GOLD)


def round_panel(view: TenView, names: Names) -> Panel:
    """The standings after a round, by the rules' order (total, tokens, fewer cards)."""
    places = ranking(view)
    lines = [
        f"{places[s]}. **{credited(names, s)}** — {view['totals'][s]} · "
        f"{TOKEN} {view['seats'][s]['tokens']} · {cards_count(view['seats'][s]['cards'])}"
        for s in sorted(range(view["players"]), key=lambda s: (places[s], s))
    ]
    title = _("{game} — round {round}", game=game_title(), round=round_of(view))
    return Panel(f"🔟 {title}", "\n".join(lines), colour=BLUE)


def _board(view: TenView, names: Names) -> tuple[tuple[str, str, bool], ...]:
    """The market, then every player's tokens and collection by colour."""
    market = grouped(view["market"], empty_market())
    fields = [("🛒 " + _("Market (price = number)"), market, False)]
    live = view["phase"] not in ("final_buy", "over")
    for info in view["seats"]:
        seat = info["seat"]
        mark = "🎯 " if live and seat == view["active"] else ""
        body = [seat_line(info), *colour_lines(info)]
        fields.append((f"{mark}{names.label(seat)}", "\n".join(body), True))
    return tuple(fields)


class TenUI(Renderer[TenView]):
    name = "ten"
    icon = "🔟"

    def table_key(self, view: TenView) -> str:
        return "game"  # one table for the whole game, edited in place

    def _title(self, view: TenView) -> str:
        players = view["players"]
        if players == 1:
            return f"{self.icon} " + _("{game} — solo", game=game_title())
        return f"{self.icon} " + ngettext(
            "{game} — {n} player", "{game} — {n} players", players, game=game_title()
        )

    def over_table(self, view: TenView, names: Names) -> Panel:
        """The board stays as it ended; the ranking is the result message below."""
        verdict = result_panel(view, names).description.split("\n")[0]
        lines = ["🏁 " + _("The game is over."), verdict, final_buys_line(view, names)]
        text = "\n".join(x for x in lines if x)
        over = _("{title} — game over", title=self._title(view))
        return Panel(over, text, _board(view, names), GOLD, legend())

    def playing_table(self, view: TenView, names: Names) -> Panel:
        # The button's label is the bot's message (not extracted here, so it is never
        # translated twice).
        button = translate(HAND_BUTTON)
        for_players = _("Your controls come by DM. No DM? Press “{button}”.", button=button)
        lines = [status_line(view, names)]
        if view["phase"] not in ("buy", "final_buy"):
            lines += row_lines(view)
        lines += [x for x in (auction_line(view, names), final_buys_line(view, names)) if x]
        solo = solo_line(view)
        if solo:
            lines.append(solo)
        turn = view.get("turn")
        if turn and turn["auctions"]:
            done = "; ".join(auction_record(a, names) for a in turn["auctions"])
            lines.append(_("This turn: {auctions}", auctions=done))
        fields = _board(view, names)
        last = view.get("last_turn")
        if last:
            fields += ((_("Last turn"), turn_text(last, view, names), False),)
        title = self._title(view)
        return Panel(title, "\n".join(lines), fields, BLUE, legend(), for_players=for_players)

    def result(self, view: TenView, names: Names) -> Panel:
        return result_panel(view, names)

    def playing_hand(self, view: TenView, legal: list[str], names: Names) -> HandScreen:
        return hand_screen(view, legal, names)

    def round_summaries(self, before: TenView, after: TenView, names: Names) -> list[Panel]:
        """After each round (every player has had a turn), the standings, which come with
        the round's picture (at the end, the result alone, with the final standings'
        picture). A solo game, where every turn is a round, shows its turns on the table
        only."""
        solo = after["players"] == 1
        if not solo and not after.get("outcome") and round_of(after) > round_of(before):
            return [round_panel(after, names)]
        return []

    def scores(self, view: TenView, names: Names) -> Panel:
        seats = view["seats"]
        rows = [(named(c), [s["colour_scores"][c] for s in seats]) for c in COLOURS]
        extras = [
            f"{TOKEN} {s['tokens']}"
            + (f" · {BUST} {s['bust_tokens']}" if s["bust_tokens"] else "")
            + f" · {cards_count(s['cards'])}"
            for s in seats
        ]
        sheet = score_table(
            _("{game} — scores", game=game_title()),
            rows,
            view_sheet(view, lowest_wins=False, places=ranking(view)),
            names,
            extras=extras if view["players"] > 1 else None,
        )
        if view["players"] == 1:
            fields = (*sheet.fields[:-1], (_("Solo"), solo_line(view), False))
            return Panel(sheet.title, sheet.description, fields, GOLD)
        note = _("Ties: more tokens, then fewer cards.")
        return Panel(sheet.title, f"{sheet.description}\n{note}", sheet.fields, sheet.colour)

    def rules(self) -> Panel:
        return rules_panel()

    def move_line(self, action: str, seat: int, view: TenView, names: Names) -> str:
        """What ``seat`` did, for ``/history``, without the player's name ("drew 🟥R5 Red 5",
        "bid 4 on 🌈5 Wild 5", "bought 🟦B3 Blue 3 for 3 (3 🪙)"). ``view`` is the spectator's
        view right after the move. Everything in Ten is public, so no move hides its card;
        a text that does not parse gives a generic line (see :mod:`presentation.ten.moves`)."""
        return move_line(action, seat, view, names)


UI: GameUI[TenView] = TenUI()
