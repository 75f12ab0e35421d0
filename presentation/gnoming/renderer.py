"""Gnoming A Round (a Golf variant), rendered from engine views.

The table shows every grid's face-up cards as a small monospaced block; a player's DM shows
their own grid as a 3x3 block of buttons (rows 0-2) with the choices of the moment below.
The lowest total wins, so the final result and the score sheet sort lowest first.
"""

from __future__ import annotations

from engine.gnoming.state import GnomeRound
from engine.gnoming.view import GnomeView
from i18n import _, pgettext, translate
from presentation.base import GOLD, GREEN, GameUI, HandScreen, Names, Panel
from presentation.common import (
    Renderer,
    final_panel,
    required,
    score_table,
    sheet_of,
)
from presentation.gnoming.hand import hand_screen
from presentation.gnoming.moves import move_line
from presentation.gnoming.rules import rules_text
from presentation.gnoming.text import (
    card_text,
    cell_name,
    final_lap_line,
    grid_block,
    line_note,
    piles_line,
    scored_block,
    short_legend,
    signed,
    title,
)


def _waiting(names: Names, seats: list[int]) -> str:
    return ", ".join(f"⏳ {names[s]}" for s in seats)


def _waiting_line(view: GnomeView, names: Names) -> str | None:
    """Who the game waits for when several choose at once (a live table's line; a replay
    leaves it out)."""
    if view["phase"] == "opening":
        seats = required(view["opening"])["waiting"]
    elif view["phase"] == "hazard_flips":
        seats = required(view["hazard_flips"])["waiting"]
    else:
        return None
    return _("Waiting for: {players}", players=_waiting(names, seats)) if seats else None


def _phase_line(view: GnomeView, names: Names) -> str:
    phase = view["phase"]
    if phase == "opening":
        return _("Everyone picks two cards to turn up, secretly.")
    active = names[required(view["active"])]
    if phase == "draw":
        return _("🎯 **{player}**'s turn: drawing from the deck or a discard pile.", player=active)
    if phase == "play":
        held = view.get("held")
        if held and held["card"]:
            return _(
                "🎯 **{player}** took **{card}** from pile {pile} and is placing it.",
                player=active,
                card=card_text(held["card"]),
                pile=held["from"],
            )
        return _("🎯 **{player}** drew from the deck and is deciding.", player=active)
    if phase == "bounce":
        return _(
            "↪️ **{player}** revealed a **{card}** that matches: it may bounce.",
            player=active,
            card=card_text(required(view["bounce"])["card"]),
        )
    if phase == "discard":
        return _(
            "🎯 **{player}** is choosing a pile for the **{card}**.",
            player=active,
            card=card_text(required(view["pending_discard"])["card"]),
        )
    if phase == "hazard_flips":
        return _(
            "⚠️ **{player}** discarded a hazard! The others may turn up one face-down card.",
            player=active,
        )
    return ""


def _result_text(view: GnomeView, names: Names) -> str:
    """Lowest total wins; say so, and how a tie on the total was settled."""
    outcome = required(view["outcome"])
    totals = outcome["totals"]
    winners = outcome["winners"]
    tied = [s for s, t in enumerate(totals) if t == min(totals)]
    text = _("Lowest total after three rounds wins.")
    if len(tied) > 1:
        last = view["round_scores"][-1] if view["round_scores"] else None
        scores = ", ".join(f"{names[s]} {last[s]}" for s in tied) if last is not None else ""
        if len(winners) < len(tied):
            text += " " + _(
                "Tie on {total}: the lower round-3 score wins ({scores}).",
                total=min(totals),
                scores=scores,
            )
        else:
            text += " " + _(
                "Tie on {total} and on the round-3 score ({scores}).",
                total=min(totals),
                scores=scores,
            )
    return text


class GnomingUI(Renderer[GnomeView]):
    name = "gnome"
    icon = "⛳"

    def playing_table(self, view: GnomeView, names: Names) -> Panel:
        lines = [piles_line(view)]
        if view["removed"]:
            lines.append(_("⚠️ Hazards out of play this round: {count}", count=len(view["removed"])))
        lines.append(_phase_line(view, names))
        lap = final_lap_line(view, names)
        if lap:
            lines.append(lap)
        final_lap = view.get("final_lap")
        first_out = final_lap["first_out"] if final_lap else None
        fields = []
        for seat in range(view["players"]):
            mark = "🎯 " if seat == view["active"] and view["phase"] != "opening" else ""
            if seat == first_out:
                mark = "🏁 "
            value = grid_block(view["grids"][seat]) + _(
                "Showing **{showing}** · total {total}",
                showing=view["showing"][seat],
                total=view["totals"][seat],
            )
            fields.append((f"{mark}{names.label(seat)}", value, True))
        return Panel(
            title=_(
                "⛳ {game} — round {round}/{rounds}",
                game=title(),
                round=view["round"],
                rounds=view["rounds"],
            ),
            description="\n".join(lines),
            fields=tuple(fields),
            colour=GREEN,
            waiting=_waiting_line(view, names),
            footer=short_legend(),
            for_players=_(
                "Your grid comes by DM. No DM? Press “{button}”.",
                # The table's button: its label is the bot's message, translated there.
                button=translate("My hand"),
            ),
        )

    def result(self, view: GnomeView, names: Names) -> Panel:
        return self._final(view, names, _("🏆 {game} — result", game=title()))

    def playing_hand(self, view: GnomeView, legal: list[str], names: Names) -> HandScreen:
        return hand_screen(view, legal, names)

    def round_summaries(self, before: GnomeView, after: GnomeView, names: Names) -> list[Panel]:
        last = after.get("last_round")
        if last and last != before.get("last_round"):
            return [self._round_panel(last, after, names)]
        return []

    @staticmethod
    def _final(view: GnomeView, names: Names, title: str) -> Panel:
        panel = final_panel(title, view, names, lowest_wins=True)
        return Panel(
            title=panel.title,
            description=f"{panel.description}\n\n{_result_text(view, names)}",
            colour=panel.colour,
        )

    @staticmethod
    def _round_panel(last: GnomeRound, view: GnomeView, names: Names) -> Panel:
        first = last["first_out"]
        if last["stalled"] or first is None:
            head = _("Nobody went out before the turn limit, so nobody gets ±5.")
        else:
            adjust = last["seats"][first]["adjust"]
            if adjust < 0:
                head = _(
                    "🏁 **{player}** went out first with the lowest score: **{points}**.",
                    player=names[first],
                    points=signed(adjust),
                )
            else:
                head = _(
                    "🏁 **{player}** went out first but not with the lowest score: **{points}**.",
                    player=names[first],
                    points=signed(adjust),
                )
        fields = []
        for seat, entry in enumerate(last["seats"]):
            matched = {cell for line in entry["lines"] for cell in line["cells"]}
            notes = [f"✅ {line_note(line['cells'], line['value'])}" for line in entry["lines"]]
            if entry["hazards"]:
                notes.append(_("⚠️ hazards: {count} (+10 each)", count=entry["hazards"]))
            if entry["wild"] is not None and entry["wild"] in matched:
                notes.append(_("🃏 wild mulligan: {cell}", cell=cell_name(entry["wild"])))
            values = {"raw": entry["raw"], "score": entry["score"], "total": view["totals"][seat]}
            if entry["adjust"]:
                score = _(
                    "Raw {raw} · went out {points} → **{score}** · total {total}",
                    points=signed(entry["adjust"]),
                    **values,
                )
            else:
                score = _("Raw {raw} → **{score}** · total {total}", **values)
            value = scored_block(entry["grid"], matched) + "\n".join([*notes, score])
            fields.append((f"{names.label(seat)}: {entry['score']}", value, True))
        return Panel(
            title=_("⛳ Round {round} scored", round=last["round"]),
            description=head
            + "\n"
            + _("Brackets mark matched lines (a line of three equal cards)."),
            fields=tuple(fields),
            colour=GOLD,
        )

    def scores(self, view: GnomeView, names: Names) -> Panel:
        played = view["round_scores"]
        rows: list[tuple[str, list[int | None]]] = []
        for index in range(view["rounds"]):
            cells: list[int | None] = (
                list(played[index]) if index < len(played) else [None] * view["players"]
            )
            rows.append((pgettext("gnoming", "Round {round}", round=index + 1), cells))
        panel = score_table(
            _("{game} scores", game=title()),
            rows,
            sheet_of(view, lowest_wins=True),
            names,
        )
        return Panel(
            title=panel.title,
            description=panel.description + "\n" + _("Lowest total wins."),
            fields=panel.fields,
            colour=panel.colour,
        )

    def move_line(self, action: str, seat: int, view: GnomeView, names: Names) -> str:
        """What ``seat`` did, for /history: see :func:`presentation.gnoming.moves.move_line`."""
        return move_line(action, seat, view, names)

    def rules(self) -> Panel:
        return Panel(
            title=_("{game} — quick rules", game=title()),
            description=rules_text(),
            colour=GREEN,
        )


UI: GameUI[GnomeView] = GnomingUI()
