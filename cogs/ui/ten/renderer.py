"""Ten (push-your-luck and auction), rendered from engine views.

Everything in Ten is public, so the channel's table message carries the whole game: the row
and its totals against the bust line, the auction, the market, every collection by colour,
tokens, the deck, whose turn, and the last finished turn. Turns are short and frequent (often
one or two clicks), so they are folded into the table ("Last turn") instead of one channel
message each, which would push the table out of sight; the channel gets a message only for
the result. The acting player's controls come by DM (see :mod:`cogs.ui.ten.hand`).
"""

from __future__ import annotations

from cogs.ui.base import BLUE, GOLD, RED, HandScreen, Names, Panel, View
from cogs.ui.common import final_screen, outcome_winners, score_table
from cogs.ui.ten.hand import hand_screen
from cogs.ui.ten.text import (
    BUST,
    LEGEND,
    TOKEN,
    auction_line,
    auction_record,
    colour_lines,
    final_buys_line,
    grouped,
    named,
    plural,
    row_lines,
    seat_line,
    solo_line,
    status_line,
    turn_text,
)

TITLE = "Ten"
COLOUR_ROWS = (("R", "Red"), ("B", "Blue"), ("O", "Orange"), ("G", "Green"))


def _tie_note(view: View, names: Names) -> str:
    """How a tie on the top total was settled (rules §5: tokens, then fewer cards)."""
    outcome = view["outcome"]
    totals: list[int] = outcome["totals"]
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    if len(tied) < 2:
        return ""
    tokens, cards = outcome["tokens"], outcome["cards"]
    who = ", ".join(f"{names[s]} {TOKEN} {tokens[s]} / {plural(cards[s], 'card')}" for s in tied)
    if len(outcome["winners"]) == len(tied):
        return f"Tie on {best} points, on tokens and on cards ({who})."
    if len({tokens[s] for s in tied}) > 1:
        return f"Tie on {best} points: more currency tokens wins ({who})."
    return f"Tie on {best} points and tokens: fewer cards wins ({who})."


def _breakdown(view: View, seat: int) -> str:
    scores = view["seats"][seat]["colour_scores"]
    return " · ".join(f"{named(c)} {scores[c]}" for c, _ in COLOUR_ROWS)


def result_panel(view: View, names: Names) -> Panel:
    """The final result: winners from the engine's outcome, every player's score by colour."""
    outcome = view["outcome"]
    totals: list[int] = outcome["totals"]
    if view["players"] == 1:
        score, target = totals[0], outcome["target"]
        if outcome["won"]:
            verdict = f"target **{target}** reached — **{names[0]} wins!** 🎉"
        else:
            verdict = f"{target - score} short of the **{target}** needed to win. Try again!"
        text = f"**{names[0]}** scored **{score}**: {verdict}\n{_breakdown(view, 0)}"
        return Panel(f"🎯 {TITLE} solo — result", text, colour=GOLD if outcome["won"] else RED)
    winners = set(outcome["winners"])
    places: list[int] = outcome["places"]
    won = " and ".join(f"**{names[s]}**" for s in sorted(winners))
    lines = [f"{won} {'share the win' if len(winners) > 1 else 'wins'}!"]
    note = _tie_note(view, names)
    if note:
        lines.append(note)
    lines.append("")
    for seat in sorted(range(len(totals)), key=lambda s: (places[s], s)):
        mark = "🏆" if seat in winners else f"{places[seat]}."
        lines.append(
            f"{mark} **{names[seat]}** — **{totals[seat]}** · {TOKEN} {outcome['tokens'][seat]} · "
            f"{plural(outcome['cards'][seat], 'card')}\n   {_breakdown(view, seat)}"
        )
    return Panel(f"🏆 {TITLE} — result", "\n".join(lines), colour=GOLD)


def _board(view: View, names: Names) -> tuple[tuple[str, str, bool], ...]:
    """The market, then every player's tokens and collection by colour."""
    fields = [("🛒 Market (price = number)", grouped(view["market"]), False)]
    live = view["phase"] not in ("final_buy", "over")
    for info in view["seats"]:
        seat = info["seat"]
        mark = "🎯 " if live and seat == view["active"] else ""
        body = [seat_line(info), *colour_lines(info)]
        fields.append((f"{mark}{names.label(seat)}", "\n".join(body), True))
    return tuple(fields)


class TenUI:
    name = "ten"

    def table_key(self, view: View) -> str:
        return "game"  # one table for the whole game, edited in place

    def table(self, view: View, names: Names) -> Panel:
        players = view["players"]
        title = f"🔟 {TITLE}" + (" — solo" if players == 1 else f" — {players} players")
        footer = f"{LEGEND}\nYour controls come by DM. No DM? Press “My hand”."
        if view.get("outcome"):
            # The board stays as it ended; the ranking is the result message below.
            verdict = result_panel(view, names).description.split("\n")[0]
            lines = ["🏁 The game is over.", verdict, final_buys_line(view, names)]
            text = "\n".join(x for x in lines if x)
            return Panel(f"{title} — game over", text, _board(view, names), GOLD, LEGEND)
        lines = [status_line(view, names)]
        if view["phase"] not in ("buy", "final_buy"):
            lines += row_lines(view)
        lines += [x for x in (auction_line(view, names), final_buys_line(view, names)) if x]
        solo = solo_line(view)
        if solo:
            lines.append(solo)
        turn = view.get("turn") or {}
        if turn.get("auctions"):
            done = "; ".join(auction_record(a, names) for a in turn["auctions"])
            lines.append(f"This turn: {done}")
        fields = _board(view, names)
        if view.get("last_turn"):
            fields += (("Last turn", turn_text(view["last_turn"], view, names), False),)
        return Panel(title, "\n".join(lines), fields, BLUE, footer)

    def result(self, view: View, names: Names) -> Panel:
        return result_panel(view, names)

    def hand(self, view: View, legal: list[str], names: Names) -> HandScreen:
        if view.get("outcome"):
            return final_screen(self.result(view, names), view)
        return hand_screen(view, legal, names)

    def summaries(self, before: View, after: View, names: Names) -> list[Panel]:
        if after.get("outcome") and not before.get("outcome"):
            return [self.result(after, names)]
        return []

    def scores(self, view: View, names: Names) -> Panel:
        seats = view["seats"]
        rows = [(named(c), [s["colour_scores"][c] for s in seats]) for c, _ in COLOUR_ROWS]
        extras = [
            f"{TOKEN} {s['tokens']}"
            + (f" · {BUST} {s['bust_tokens']}" if s["bust_tokens"] else "")
            + f" · {plural(s['cards'], 'card')}"
            for s in seats
        ]
        sheet = score_table(
            f"{TITLE} — scores",
            rows,
            view["totals"],
            names,
            winners=outcome_winners(view),
            extras=extras if view["players"] > 1 else None,
        )
        if view["players"] == 1:
            fields = (*sheet.fields[:-1], ("Solo", solo_line(view), False))
            return Panel(sheet.title, sheet.description, fields, GOLD)
        note = "Ties: more tokens, then fewer cards."
        return Panel(sheet.title, f"{sheet.description}\n{note}", sheet.fields, sheet.colour)

    def rules(self) -> Panel:
        return Panel(
            title=f"{TITLE} — quick rules",
            description=(
                "1–5 players. On your turn, turn cards over one by one into the row. Number "
                "cards raise the total, currency cards lower it: you **bust** when the net "
                "(numbers − currency) reaches 11, or when the currency alone reaches 11. A bust "
                f"gives you a {BUST} bust token (worth 3) and sends the numbers to the market; "
                "on a number bust the others still get the row's currency.\n"
                "• **Stop** after at least one card and take either all the **numbers** (the "
                f"others get the row's currency as {TOKEN} tokens; then you may buy one market "
                "card) or all the **currency** (the numbers go to the market). You hold at "
                "most 10 tokens.\n"
                "• A **wild** turned over is auctioned at once: each player bids once or "
                "passes, the active player last; the highest bid pays.\n"
                "• Pay with tokens, bust tokens (3 each, no change) or cards from your "
                "collection (1 each). A market card costs its number; you may not buy a "
                "number card you already hold (same colour and number).\n"
                "• When the deck runs out, everyone makes one last purchase. Each colour "
                "scores its longest run of consecutive numbers (1–9 scores 10); wilds fill "
                "gaps. Highest total wins; ties: more tokens, then fewer cards.\n"
                "• **Solo**: wilds cost 3 (super wild 5) instead of an auction, a rival turns "
                "over 2 cards after each turn, and you win with 20 points or more."
            ),
            colour=BLUE,
        )


UI = TenUI()
