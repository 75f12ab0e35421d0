"""Render every game in every language, and a pseudo-language that shows untranslated text.

``pseudo()`` replaces the catalogs with one that wraps every translated text in ⟦ ⟧; whatever
Latin letters are left outside the brackets (player names and card codes aside) were never
passed through the catalogs. ``screens()`` plays random positions of a game and renders all a
player or the channel can see of them. ``english()`` finds the English words left in text
rendered in another language with the real catalogs.
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

import i18n
from engine import GAMES
from engine.base import Level
from presentation import UIS
from presentation.base import Button, HandScreen, Names, Panel, Select
from presentation.lobby import lobby_panel

OPEN, CLOSE = "⟦", "⟧"
PLAYER_NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus")
COMPUTER = 1  # the second seat is a computer (its name gets a robot)


class Pseudo(gettext.NullTranslations):
    """Every text in brackets: what the catalogs served is visible in the output."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"


def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "translations", lambda language: Pseudo())


def untranslated(text: str, allowed: tuple[str, ...] = PLAYER_NAMES) -> list[str]:
    """Words outside ⟦ ⟧ (two Latin letters or more) that are not in ``allowed``."""
    inner = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        reduced = inner.sub(" ", text)
        if reduced == text:
            break
        text = reduced
    words = re.findall(r"[A-Za-z]{2,}", re.sub(r"<[^>]*>|https?://\S+", " ", text))
    return [w for w in words if w not in allowed]


def names_for(players: int) -> Names:
    return Names(PLAYER_NAMES[:players], frozenset({COMPUTER}) if players > 1 else frozenset())


def panel_text(panel: Panel) -> str:
    fields = [f"{name}\n{value}" for name, value, _ in panel.fields]
    return "\n".join([panel.title, panel.description, *fields, panel.footer or ""])


def screen_text(screen: HandScreen) -> str:
    parts = [screen.content, *(panel_text(p) for p in screen.panels)]
    for control in screen.controls:
        if isinstance(control, Button):
            parts.append(control.label)
        else:
            parts.append(control.placeholder)
            parts.extend(f"{label} {desc or ''}" for label, _, desc in control.options)
    return "\n".join(parts)


Shown = tuple[str, Panel | HandScreen]  # (what it is, the rendered thing; a move line's Panel)


@dataclass(frozen=True)
class LobbySeat:
    """A seat in the lobby (presentation.lobby.LobbySeat)."""

    user_id: int | None
    name: str
    is_computer: bool
    accepted: bool
    level: Level = Level.NORMAL


def screens(name: str, players: int, seed: int, *, moves: int = 400) -> Iterator[Shown]:
    """Everything rendered along one random game: tables, hands, summaries, scores, result."""
    game, ui = GAMES[name], UIS[name]
    names = names_for(players)
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    previous = game.view(state, None)
    yield "rules", ui.rules()
    seats = [LobbySeat(100 + s, n, s == COMPUTER, s != 1) for s, n in enumerate(names.names)]
    yield "lobby", lobby_panel(game, seats, host_id=100)
    for step in range(moves):
        spectator = game.view(state, None)
        yield "table", ui.table(spectator, names)
        for panel in ui.summaries(previous, spectator, names):
            yield "summary", panel
        previous = spectator
        if step % 7 == 0 or not game.to_act(state):
            yield "scores", ui.scores(spectator, names)
        for seat in range(players):
            legal = [str(a) for a in game.legal_actions(state, seat)]
            yield "hand", ui.hand(game.view(state, seat), legal, names)
        to_act = sorted(game.to_act(state))
        if not to_act:
            yield "result", ui.result(spectator, names)
            return
        seat = rng.choice(to_act)
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        yield "move", Panel("", ui.move_line(str(action), seat, game.view(state, None), names))


def limit_problems(kind: str, shown: Panel | HandScreen) -> list[str]:
    """Discord's limits broken by one rendered thing (before to_discord.py clips anything)."""
    panels = shown.panels if isinstance(shown, HandScreen) else (shown,)
    problems: list[str] = []
    total = 0
    for panel in panels:
        size = len(panel.title) + len(panel.description) + len(panel.footer or "")
        size += sum(len(n) + len(v) for n, v, _ in panel.fields)
        total += size
        if len(panel.title) > 256:
            problems.append(f"{kind}: title over 256: {panel.title!r}")
        if len(panel.description) > 4096:
            problems.append(f"{kind}: description over 4096")
        if len(panel.fields) > 25:
            problems.append(f"{kind}: over 25 fields")
        for field_name, value, _ in panel.fields:
            if len(field_name) > 256 or len(value) > 1024:
                problems.append(f"{kind}: field over 256/1024: {field_name!r}")
        if len(panel.footer or "") > 2048:
            problems.append(f"{kind}: footer over 2048")
    if total > 6000:
        problems.append(f"{kind}: embeds over 6000 characters ({total})")
    if isinstance(shown, HandScreen):
        if len(shown.content) > 2000:
            problems.append(f"{kind}: content over 2000")
        for control in shown.controls:
            if isinstance(control, Button) and len(control.label) > 80:
                problems.append(f"{kind}: button label over 80: {control.label!r}")
            if isinstance(control, Select):
                if len(control.placeholder) > 150:
                    problems.append(f"{kind}: placeholder over 150: {control.placeholder!r}")
                if len(control.options) > 25:
                    problems.append(f"{kind}: over 25 options")
                for label, _, desc in control.options:
                    if len(label) > 100 or len(desc or "") > 100:
                        problems.append(f"{kind}: option over 100: {label!r} {desc!r}")
    return problems


def sizes(name: str) -> list[int]:
    game = GAMES[name]
    return sorted({game.min_players, game.max_players})


def all_text(shown: Panel | HandScreen) -> str:
    return screen_text(shown) if isinstance(shown, HandScreen) else panel_text(shown)


def first_problems(items: list[Any], count: int = 8) -> list[Any]:
    return items[:count]


# Words of a language that are spelled as English words: its own words ("are" is Romanian for
# "has", "need" Estonian for "these", "ten" Lithuanian for "there") and loanwords it uses in
# the catalogs ("lobby", "rating"). The games' kept titles and the named cards are proper names.
PROPER_NAMES = frozenset(
    {"grinch", "grow", "your", "heart", "gnoming", "round", "cindy", "lou", "who", "whos"}
    | {"discord"}
)
SHARED_WORDS = {
    "ro": frozenset(
        {"active", "are", "bonus", "consecutive", "face", "final", "golf", "lobby", "minus"}
        | {"minute", "mulligan", "negative", "net", "rating", "rest", "rival", "secret"}
        | {"normal", "solo", "spectator", "stop", "super", "total", "direct", "server", "text"}
    ),
    "et": frozenset({"all", "bot", "mulligan", "need", "number", "on", "see", "sees", "trump"}),
    "lt": frozenset({"be", "centre", "minus", "net", "per", "super", "ten", "ties", "to"}),
}
WORD = re.compile(r"[^\W\d_]{2,}")
MARKUP = re.compile(r"\{[^}]*\}|<[^>]*>|https?://\S+")


@cache
def english_words() -> frozenset[str]:
    """Every word (lowercase) of the English texts the games' screens are made of: the message
    ids of every catalog but the commands'."""
    from babel.messages.pofile import read_po

    from i18n.catalogs import LOCALES
    from tools.messages import ALL_DOMAINS

    words: set[str] = set()
    for domain in ALL_DOMAINS:
        if domain == "commands":
            continue
        with (LOCALES / f"{domain}.pot").open("rb") as source:
            for message in read_po(source):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                for text in ids:
                    if isinstance(text, str):
                        words.update(w.lower() for w in WORD.findall(MARKUP.sub(" ", text)))
    return frozenset(words)


def english(text: str, language: str) -> list[str]:
    """English words in ``text`` rendered in ``language``: words of the English texts that are
    neither the language's own (``SHARED_WORDS``), a proper name, nor a player's name."""
    allowed = SHARED_WORDS[language] | PROPER_NAMES | {n.lower() for n in PLAYER_NAMES}
    words = WORD.findall(MARKUP.sub(" ", text))
    return [w for w in words if w.lower() in english_words() and w.lower() not in allowed]
