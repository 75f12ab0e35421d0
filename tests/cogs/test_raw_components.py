"""The hand, table and spectator components written as Discord's API dicts
(discordkit/views.py, with to_discord.py's rows)
are exactly what discord.py makes of the same controls with its own items: ids, styles,
labels, emoji, rows, disabled flags, select options and placeholders, key order included.
Clicks are dispatched by those ids (cogs/guard.py and the dynamic item), so nothing else
changes.

The discord.py builders below are the ones the bot used before it wrote the dicts."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from typing import Any
from unittest import mock

import discord
import pytest
from discord.http import handle_message_parameters
from hypothesis import given, settings
from hypothesis import strategies as st

import i18n
from discordkit import to_discord
from discordkit.clicks import BACK, HAND, MOVE, move_of
from discordkit.views import (
    clickable,
    hand_message,
    seat_button,
    table_view,
    watch_button,
    watch_view,
)
from engine import GAMES
from presentation import UIS
from presentation.base import Button, Control, HandScreen, Names, Panel, Select

GAME, STEP = 4242, 17
CUSTOM = "<:gnome:123456789012345678>"  # a custom emoji (ids have 13-20 digits)
ANIMATED = "<a:spin:1234567890123>"


# -- the builders made of discord.py objects ---------------------------------------------


def old_controls_view(game_id: int, step: int, controls: Iterable[Control]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    filler = 0
    for n, control in enumerate(controls):
        if isinstance(control, Button):
            options: dict[str, Any] = {
                "label": to_discord.clip(control.label, 80),
                "style": discord.ButtonStyle[control.style],
                "row": control.row,
                "emoji": control.emoji,
            }
            if control.action is None or control.disabled:
                filler += 1
                view.add_item(
                    discord.ui.Button(custom_id=f"x:{game_id}:{filler}", disabled=True, **options)
                )
            else:
                custom_id = f"g:{game_id}:{step}:{control.action}"
                # The dynamic item checked only that its id began as a move's; the whole id
                # must be one now, as the guard routes it (discordkit/controls.move_of).
                if MOVE.pattern.fullmatch(custom_id) is None:
                    raise ValueError(custom_id)
                view.add_item(discord.ui.Button(custom_id=custom_id, **options))
        elif isinstance(control, Select):
            choices = [
                discord.SelectOption(
                    label=to_discord.clip(label, 100),
                    value=action,
                    description=to_discord.clip(desc, 100) if desc else None,
                )
                for label, action, desc in control.options[:25]
            ]
            # No row: the dynamic item that wrapped move selects never passed it on.
            view.add_item(
                discord.ui.Select(
                    custom_id=f"gs:{game_id}:{step}:{n}",
                    placeholder=to_discord.clip(control.placeholder, 150),
                    options=choices,
                )
            )
    return view


def old_hand_view(
    game_id: int, step: int, controls: Iterable[Control], *, autopilot: bool
) -> discord.ui.View:
    view = old_controls_view(game_id, step, controls)
    if autopilot:  # on its row 4, else where discord.py finds room
        custom_id, look = seat_button(BACK, game_id)
        back = clickable(custom_id, **look)
        try:
            view.add_item(back)
        except ValueError:
            back.row = None
            view.add_item(back)
    return view


def old_table_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for custom_id, look in (seat_button(HAND, game_id), watch_button(game_id)):
        view.add_item(clickable(custom_id, **look))
    return view


def old_watch_view(game_id: int, *, live: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if live:
        custom_id, look = watch_button(game_id, "r")
        view.add_item(clickable(custom_id, **look))
    return view


# -- comparing ---------------------------------------------------------------------------


def _outcome(build: Callable[[], discord.ui.View]) -> str:
    """The components as JSON (so key order counts), or the error discord.py would raise."""
    try:
        components = build().to_components()
    except ValueError:
        return "ValueError"
    return json.dumps(components, ensure_ascii=False)


def same_hand(controls: Iterable[Control], *, autopilot: bool = False, game: int = GAME) -> str:
    """Asserts that both builders agree on a hand's controls; returns what they made."""
    controls = tuple(controls)
    screen = HandScreen((), controls)
    old = _outcome(lambda: old_hand_view(game, STEP, controls, autopilot=autopilot))
    new = _outcome(lambda: hand_message(game, STEP, screen, autopilot=autopilot)["view"])
    assert new == old, controls
    return new


def _buttons(count: int, **look: Any) -> list[Control]:
    return [Button(f"{r}♥", f"p.{r}h", **look) for r in range(count)]


SAMPLES: dict[str, list[Control]] = {
    "nothing": [],
    "a hand of ten": _buttons(10),
    "twenty-five": _buttons(25),
    "every style": [
        Button(style, f"s.{style}", style)
        for style in ("primary", "secondary", "success", "danger")
    ],
    "rows given": [
        Button("a", "a", row=2),
        Button("b", "b", row=0),
        Button("c", "c"),
        Button("d", "d", row=4),
        Button("e", "e", row=2),
        Button("f", "f"),
    ],
    "rows fill up in order": [*_buttons(4, row=0), *_buttons(7)],
    "disabled and shown only": [
        Button("gone", "g.1", disabled=True),
        Button("shown", None, "danger"),
        Button("used", None, disabled=True, row=3),
        Button("live", "l.1", "success"),
    ],
    "emoji": [
        Button("unicode", "e.1", emoji="🃏"),
        Button("custom", "e.2", emoji=CUSTOM),
        Button("animated", "e.3", emoji=ANIMATED),
        Button("bare", "e.4", emoji="gnome:1234567890123"),
        Button("short id", "e.5", emoji="<:gnome:123>"),
        Button("", "e.6", emoji="💣"),
        Button("shown", None, emoji=CUSTOM, disabled=True),
    ],
    "long labels": [
        Button("x" * 80, "l.80"),
        Button("y" * 81, "l.81"),
        Button("🂡" * 200, "l.200"),
        Button("", "l.0", emoji="🃏"),
    ],
    "selects": [
        Button("Pass", "pass", "danger", row=0),
        Select(
            "Pick a card…", (("Ace", "p.a", "high"), ("Two", "p.2", None), ("Three", "p.3", ""))
        ),
        Select("p" * 200, tuple((f"o{n}" * 30, f"o.{n}", "d" * 120) for n in range(30)), row=3),
        Select("", (), row=4),
    ],
    "ten's auction": [
        Button("Pass", "pass", "danger", row=0),
        Select("Bid…", tuple((f"{n} 🪙", f"bid.{n}", None) for n in range(1, 20)), row=1),
        Button("No purchase", "nobuy", row=2),
    ],
    "a grid of cards": [
        *(
            Button(f"{n}", f"f.{n}", "primary", row=n // 4, emoji="💣" if n % 5 else None)
            for n in range(12)
        ),
        Button("Draw", "draw", "success", row=3),
        Button("Discard", None, disabled=True, row=3),
    ],
    "row 4 taken": _buttons(5, row=4),
    "too many": _buttons(26),
    "a full row": _buttons(6, row=1),
    "no such row": [Button("a", "a", row=5)],
    "negative row": [Button("a", "a", row=-1)],
    # discord.py never reads a move select's row (its DynamicItem asks the wrapped Select's
    # ``_row``, which Select keeps elsewhere): a select takes the first empty row.
    "a select given a taken row": [
        Button("a", "a", row=1),
        Select("s", (("o", "o", None),), row=1),
        Select("t", (("o", "o", None),), row=7),
    ],
    "a select before the rows given": [
        Select("s", (("o", "o", None),), row=4),
        *_buttons(3, row=0),
    ],
    "six selects": [Select(f"s{n}", ((f"o{n}", f"o.{n}", None),)) for n in range(6)],
    "an action with a space": [Button("odd", "two words!")],
    "an action of one bad character": [Button("bad", "!")],
    "an action too long": [Button("long", "a" * 81)],
}


@pytest.mark.parametrize("autopilot", [False, True])
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_dicts_are_discord_pys_own(name: str, autopilot: bool) -> None:
    made = same_hand(SAMPLES[name], autopilot=autopilot)
    fails = {"too many", "a full row", "no such row", "negative row", "six selects"}
    fails |= {"a select before the rows given", "an action of one bad character"}
    fails |= {"an action with a space", "an action too long"}
    if autopilot:
        fails |= {"twenty-five"}  # no room left for "I'm back" (a 26th item)
    assert (made == "ValueError") == (name in fails)


def test_the_pinned_cases_are_what_they_say() -> None:
    """A few outcomes spelled out, so that the comparison cannot pass by both being wrong."""
    rows = json.loads(same_hand(SAMPLES["rows given"], autopilot=True))
    assert [[c["custom_id"] for c in row["components"]] for row in rows] == [
        ["g:4242:17:b", "g:4242:17:c", "g:4242:17:f"],
        ["g:4242:17:a", "g:4242:17:e"],
        ["g:4242:17:d", "back:4242"],
    ]
    (row,) = json.loads(same_hand(SAMPLES["disabled and shown only"][:2]))
    assert [(c["custom_id"], c["disabled"], c["style"]) for c in row["components"]] == [
        ("x:4242:1", True, 2),
        ("x:4242:2", True, 4),
    ]
    (row,) = json.loads(same_hand(SAMPLES["emoji"][:2]))
    assert [c["emoji"] for c in row["components"]] == [
        {"id": None, "name": "🃏"},
        {"id": 123456789012345678, "name": "gnome"},
    ]
    select = json.loads(same_hand(SAMPLES["selects"][2:3]))[0]["components"][0]
    assert select["custom_id"] == "gs:4242:17:0" and len(select["options"]) == 25
    assert len(select["placeholder"]) == 150 and select["placeholder"].endswith("…")
    assert {len(o["description"]) for o in select["options"]} == {100}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_table_spectator_and_back_buttons_in_every_language(language: str) -> None:
    with i18n.using(language):
        for game_id in (1, 42, 10**14):
            assert json.dumps(table_view(game_id).to_components()) == json.dumps(
                old_table_view(game_id).to_components()
            )
            for live in (True, False):
                assert watch_view(game_id, live=live).to_components() == (
                    old_watch_view(game_id, live=live).to_components()
                )
            same_hand(SAMPLES["a hand of ten"], autopilot=True, game=game_id)


def test_the_view_is_only_its_components() -> None:
    """Nothing for discord.py to file for dispatch or to time out (clicks are routed by their
    custom ids), and no ``View.__init__``: it asks the operating system for a random id."""
    with mock.patch("os.urandom", side_effect=AssertionError("View.__init__ ran")):
        view = hand_message(GAME, STEP, HandScreen((), tuple(_buttons(3))))["view"]
    assert isinstance(view, discord.ui.View) and view.children == [] and repr(view)
    assert not view.is_dispatchable() and not view.has_components_v2()
    assert view.is_finished()  # discord.py stores no finished view and starts no timeout
    ephemeral: Any = view
    ephemeral.timeout = 15 * 60.0  # what discord.py does to the view of an ephemeral message
    assert ephemeral.timeout is None
    payload = handle_message_parameters(view=view).payload
    assert payload is not None and payload["components"] == view.to_components()
    assert "flags" not in payload
    ids = [c["custom_id"] for row in view.to_components() for c in row["components"]]
    assert [move_of(i, {}) for i in ids] == [(GAME, STEP, i.split(":")[-1]) for i in ids]
    assert watch_view(GAME, live=False).to_components() == []  # sent: no buttons


def test_each_message_has_its_own_dicts() -> None:
    first = hand_message(GAME, STEP, HandScreen((), tuple(SAMPLES["emoji"])))
    first["view"].to_components()[0]["components"][0]["emoji"]["name"] = "changed"
    again = hand_message(GAME, STEP, HandScreen((), tuple(SAMPLES["emoji"])))
    assert again["view"].to_components()[0]["components"][0]["emoji"]["name"] == "🃏"


# -- any controls ------------------------------------------------------------------------

_LABELS = st.text(max_size=90) | st.sampled_from(["", "x" * 80, "y" * 81, "10♥"])
_ACTIONS = st.none() | st.sampled_from(["p.1", "t.deck", "bid.12", "take.n", "-", "a b", ""])
_ROWS = st.none() | st.integers(min_value=-1, max_value=5)
_EMOJI = st.none() | st.sampled_from(["🃏", "💣", CUSTOM, ANIMATED, "<:x:1>", ""])
_STYLES = st.sampled_from(["primary", "secondary", "success", "danger"])
_BUTTONS = st.builds(Button, _LABELS, _ACTIONS, _STYLES, _ROWS, st.booleans(), _EMOJI)
_OPTION = st.tuples(_LABELS, st.sampled_from(["p.1", "p.2", "x"]), st.none() | _LABELS)
_SELECTS = st.builds(Select, _LABELS, st.lists(_OPTION, max_size=27).map(tuple), _ROWS)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(_BUTTONS, _BUTTONS, _BUTTONS, _SELECTS), max_size=27),
    st.booleans(),
)
def test_any_controls(controls: list[Control], autopilot: bool) -> None:
    same_hand(controls, autopilot=autopilot)


# -- the games' own screens --------------------------------------------------------------


def _screens(name: str, seeds: int = 4) -> Iterable[tuple[HandScreen, int]]:
    """Every seat's screen along random games, the last ones included (no controls)."""
    game, ui = GAMES[name], UIS[name]
    for players in sorted({game.min_players, min(4, game.max_players)}):
        names = Names(tuple(f"Player {s}" for s in range(players)), frozenset({players - 1}))
        for seed in range(seeds):
            rng = random.Random(seed)
            state = game.new_game(players, seed)
            for turn in range(2000):
                to_act = game.to_act(state)
                for seat in range(players):
                    legal = [str(a) for a in game.legal_actions(state, seat)] if to_act else []
                    if to_act and turn % 3 and not legal:
                        continue  # every third turn shows the waiting seats too
                    yield ui.hand(game.view(state, seat), legal, names), turn
                if not to_act:
                    break
                seat = rng.choice(sorted(to_act))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize("name", sorted(UIS))
def test_every_games_screens(name: str) -> None:
    shown = refused = 0
    for screen, turn in _screens(name):
        autopilot = turn % 2 == 1
        made = same_hand(screen.controls, autopilot=autopilot)
        refused += made == "ValueError"
        if made == "ValueError":
            continue
        new = hand_message(GAME, turn, screen, autopilot=autopilot, header="Hi")
        assert new["content"] == "\n".join(x for x in ("Hi", screen.content) if x)
        assert [e.to_dict() for e in new["embeds"]] == [
            e.to_dict() for e in to_discord.embeds(screen.panels)
        ]
        shown += bool(screen.controls)
    assert shown > 100
    # Every hand has room for "I'm back" (Gnoming's opening menus take rows 3 and 4: it
    # goes where there is room).
    assert refused == 0


def test_the_message_around_the_components() -> None:
    screen = HandScreen((Panel("Your hand", "cards"),), tuple(_buttons(2)), "Your move")
    made = hand_message(GAME, STEP, screen, header="**Server** › #games")
    assert made["content"] == "**Server** › #games\nYour move"
    assert [e.to_dict() for e in made["embeds"]] == [to_discord.embed(screen.panels[0]).to_dict()]
    assert hand_message(GAME, STEP, HandScreen(()))["content"] is None
