"""Grinch Grow Your Heart, rendered from engine views (words: ``text``; rules: ``rules``)."""

from __future__ import annotations

from engine.grinch.view import GrinchTake, GrinchView
from i18n import _, ngettext, pgettext
from presentation.base import (
    GOLD,
    GREEN,
    RED,
    Button,
    Control,
    GameUI,
    HandScreen,
    Names,
    Panel,
)
from presentation.common import (
    Renderer,
    final_panel,
    score_table,
    sheet_of,
)
from presentation.grinch.moves import move_line
from presentation.grinch.rules import rules_panel
from presentation.grinch.text import card_long, card_short, game_title, legend, row_name


def _pile_text(pile: list[str]) -> str:
    if not pile:
        return pgettext("grinch pile", "empty")
    top, count = card_short(pile[-1]), len(pile)
    if count == 1:
        return _("top **{card}** ({count})", card=top, count=count)
    below = " ".join(card_short(c) for c in pile[:-1])
    return _("top **{card}** ({count}) · below: {below}", card=top, count=count, below=below)


def _waiting_line(view: GrinchView, names: Names) -> str | None:
    """Who the game waits for (a live table's line; a replay leaves it out)."""
    if view.get("outcome") or not view["to_act"]:
        return None
    return _("Waiting for: {names}", names=", ".join(f"⏳ {names[s]}" for s in view["to_act"]))


def _phase_line(view: GrinchView, names: Names) -> str:
    phase = view["phase"]
    done = [names[s] for s in view.get("submitted", [])]
    if phase == "WHO_DISCARD":
        text = _("The Whos are discarding, secretly.")
    elif phase == "GRINCH_TAKE":
        text = _("The Grinch takes card {number} of 2.", number=view["takes_done"] + 1)
    elif phase == "GRINCH_DISCARD":
        text = _("The Grinch discards.")
    elif phase == "SCORING":
        text = _("Everyone picks a row for this hand, secretly.")
    else:
        return _("The game is over.")
    parts = [text]
    if done:
        parts.append(_("Locked in: {names}", names=", ".join(f"✅ {n}" for n in done)))
    return "\n".join(parts)


def _take_text(take: GrinchTake, names: Names) -> str:
    if take["source"] == "deck":
        if take["card"]:
            return _("the deck ({card})", card=card_short(take["card"]))
        return pgettext("grinch took from", "the deck")
    owner = names[take["owner"]]
    return _("{name}'s pile ({card})", name=owner, card=card_short(take["card"]))


def _takes_line(view: GrinchView, names: Names) -> str:
    takes = view.get("takes") or []
    if not takes:
        return ""
    sources = ", ".join(_take_text(take, names) for take in takes)
    return _("The Grinch took from: {sources}.", sources=sources)


class GrinchUI(Renderer[GrinchView]):
    name = "grinch"
    icon = "🎄"

    def playing_table(self, view: GrinchView, names: Names) -> Panel:
        grinch = view["grinch"]
        head = ngettext(
            "Grinch: **{name}** · Heart ❤️ {heart} · Deck {n} card",
            "Grinch: **{name}** · Heart ❤️ {heart} · Deck {n} cards",
            view["deck_size"],
            name=names[grinch],
            heart=view["heart"],
        )
        takes = _takes_line(view, names)
        description = "\n".join(x for x in (head, _phase_line(view, names), takes) if x)
        fields = []
        for seat in range(view["players"]):
            role = "😈 " if seat == grinch else ""
            hand = ngettext(
                "Hand: {n} card · Score: {score}",
                "Hand: {n} cards · Score: {score}",
                view["hand_sizes"][seat],
                score=view["totals"][seat],
            )
            pile = _("Pile: {pile}", pile=_pile_text(view["piles"][seat]))
            fields.append((f"{role}{names.label(seat)}", f"{hand}\n{pile}", True))
        title = _(
            "{game} — round {round}/{rounds}",
            game=game_title(),
            round=view["round"],
            rounds=view["rounds"],
        )
        return Panel(
            title=f"🎄 {title}",
            description=description,
            fields=tuple(fields),
            colour=GREEN,
            waiting=_waiting_line(view, names),
            for_players=_("Your hand comes by DM. No DM? Press “My hand”."),
        )

    def result(self, view: GrinchView, names: Names) -> Panel:
        title = _("{game} — result", game=game_title())
        return final_panel(f"🏆 {title}", view, names)

    def playing_hand(self, view: GrinchView, legal: list[str], names: Names) -> HandScreen:
        hand = view.get("hand") or []
        seat = view["seat"]
        is_grinch = seat == view["grinch"]
        role = _("😈 You are the **Grinch**") if is_grinch else _("You are a **Who**")
        round_line = _(
            "Round {round}/{rounds} · Heart ❤️ {heart}",
            round=view["round"],
            rounds=view["rounds"],
            heart=view["heart"],
        )
        lines = [f"{round_line} · {role}", "", *(f"• {card_long(c)}" for c in hand)]
        prompt = self._prompt(view, legal)
        if prompt:
            lines += ["", prompt]
        fields: list[tuple[str, str, bool]] = []
        if view["phase"] in ("GRINCH_TAKE", "GRINCH_DISCARD", "WHO_DISCARD"):
            piles = [f"{names[s]}: {_pile_text(p)}" for s, p in enumerate(view["piles"])]
            fields.append((_("Discard piles"), "\n".join(piles), False))
        used = view.get("used_rows") or []
        if used and seat is not None:  # a seat's own view (a spectator's has no used rows)
            sheet = view["sheet"][seat]
            rows = ", ".join(f"{row_name(r)} {sheet[r]}" for r in used)
            fields.append((_("Your rows"), rows, False))
        shown = list(hand)
        if view["phase"] == "GRINCH_TAKE" and legal:
            shown += [pile[-1] for pile in view["piles"] if pile]
        panel = Panel(
            title=pgettext("grinch", "Your hand"),
            description="\n".join(lines),
            fields=tuple(fields),
            colour=RED if is_grinch else GREEN,
            footer=legend(shown),
        )
        return HandScreen(panels=(panel,), controls=tuple(self._controls(view, legal, names)))

    @staticmethod
    def _prompt(view: GrinchView, legal: list[str]) -> str:
        phase = view["phase"]
        pending = view.get("my_pending")
        if pending:
            shown = row_name(pending) if pending in view["rows"] else card_long(pending)
            return _("🔒 Locked in: **{choice}**. Waiting for the others.", choice=shown)
        if not legal:
            if phase == "GAME_END":
                return _("The game is over.")
            return _("Waiting for the other players.")
        if phase == "WHO_DISCARD":
            return _("👉 Pick a card to discard (it stays secret until every Who has chosen).")
        if phase == "GRINCH_TAKE":
            return _(
                "👉 Take card {number} of 2: the deck or any pile's top.",
                number=view["takes_done"] + 1,
            )
        if phase == "GRINCH_DISCARD":
            return _("👉 Discard one card onto your pile.")
        if phase == "SCORING":
            return _("👉 Pick a row for this hand. Each button shows the points it scores.")
        return ""

    @staticmethod
    def _controls(view: GrinchView, legal: list[str], names: Names) -> list[Control]:
        controls: list[Control] = []
        phase = view["phase"]
        if phase in ("WHO_DISCARD", "GRINCH_DISCARD"):
            for card in view.get("hand") or []:
                action = f"d.{card}"
                if action in legal:
                    controls.append(Button(card_long(card), action))
        elif phase == "GRINCH_TAKE":
            if "t.deck" in legal:
                deck = pgettext("grinch", "Deck ({count})", count=view["deck_size"])
                controls.append(Button(deck, "t.deck", "primary"))
            for seat, pile in enumerate(view["piles"]):
                action = f"t.p{seat}"
                if action in legal and pile:
                    controls.append(Button(f"{names[seat]}: {card_long(pile[-1])}", action))
        elif phase == "SCORING" and legal:
            values = view.get("row_values") or {}
            for row in view["rows"]:
                action = f"r.{row}"
                points = values.get(row)
                name = row_name(row)
                label = f"{name}: {points}" if points is not None else name
                if action in legal:
                    controls.append(Button(label, action, "success"))
                else:
                    used = _("{row} (used)", row=name)
                    controls.append(Button(used, None, disabled=True, row=3))
        return controls

    def round_summaries(self, before: GrinchView, after: GrinchView, names: Names) -> list[Panel]:
        panels: list[Panel] = []
        last = after.get("last_round")
        if last and last != before.get("last_round"):
            fields = []
            for seat in range(after["players"]):
                hand = " ".join(card_short(c) for c in last["hands"][seat])
                points = ngettext(
                    "**{row}**: {n} point",
                    "**{row}**: {n} points",
                    last["points"][seat],
                    row=row_name(last["rows"][seat]),
                )
                fields.append((names[seat], f"{hand}\n{points}", True))
            panels.append(
                Panel(
                    title=_("Round {round} scored", round=last["round"]),
                    description=_("Grinch this round: {name}", name=names[last["grinch"]]),
                    fields=tuple(fields),
                    colour=GOLD,
                )
            )
        return panels

    def scores(self, view: GrinchView, names: Names) -> Panel:
        rows = [(row_name(r), [sheet[r] for sheet in view["sheet"]]) for r in view["rows"]]
        return score_table(_("Grinch score sheet"), rows, sheet_of(view), names)

    def rules(self) -> Panel:
        return rules_panel()

    def move_line(self, action: str, seat: int, view: GrinchView, names: Names) -> str:
        """What ``seat`` did, said for a spectator in a few words ("discarded 🌿3", "picked a
        row"), without the player's name; ``view`` is the spectator's view right after the
        move, and nothing it does not show is told (see :mod:`presentation.grinch.moves`)."""
        return move_line(action, seat, view, names)


UI: GameUI[GrinchView] = GrinchUI()
