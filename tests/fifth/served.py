"""Run in a copy of the project where High card is registered as "fifth" (tests/test_fifth_game.py
puts it there): everything the bot serves of a game, tried on it. Prints one JSON report on
stdout: what each check found, and under "errors" the end of the traceback of every check that
raised (the test compares the report with what a served game gives).

Nothing here names High card's own modules: the game is reached only through the registries, as
the bot reaches it.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.base import View

NAME = "fifth"
PNG = b"\x89PNG\r\n\x1a\n"
Report = dict[str, Any]


def engine_part(report: Report) -> None:
    from engine import GAMES, PACKAGE_OF, PACKAGES

    report["registry"] = {"last": PACKAGES[-1], "package": PACKAGE_OF.get(NAME)}
    game = GAMES[NAME]
    report["players"] = [game.min_players, game.max_players]


def conformance_part(report: Report) -> None:
    """The conformance suite's own checks (tests/engine/test_conformance.py), on this game."""
    from tests.engine import test_conformance as suite

    cases = [case for case in suite.CASES if case[0] == NAME]
    report["conformance_cases"] = [players for _, players in cases]
    checks = [getattr(suite, name) for name in sorted(dir(suite)) if name.startswith("test_")]
    passed = {}
    for check in checks:
        for case in cases:
            check(case)
        passed[check.__name__] = len(cases)
    report["conformance"] = passed


def hidden_part(report: Report) -> None:
    """Along random games: no view shows a card of another seat's hand or a card played face
    down this round by another seat (a spectator sees neither)."""
    from engine import GAMES

    game = GAMES[NAME]
    looked = 0
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(20):
            rng = random.Random(seed)
            state = game.new_game(players, seed)
            while True:
                for seat in [*range(players), None]:
                    others = [s for s in range(players) if s != seat]
                    hidden = {c for s in others for c in state.hands[s]}
                    hidden |= {state.played[s] for s in others} - {None}
                    text = json.dumps(game.view(state, seat))
                    leaked = sorted(card for card in hidden if f'"{card}"' in text)
                    assert not leaked, f"seat {seat} sees {leaked}"
                    looked += 1
                if not game.to_act(state):
                    break
                seat = rng.choice(sorted(game.to_act(state)))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    report["views_checked"] = looked


def _views(players: int, seed: int) -> tuple[list[View], list[View], Any]:
    """A random game's spectator views after every move, seat 0's views, and the final state."""
    from engine import GAMES

    game = GAMES[NAME]
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    public, own = [game.view(state, None)], [game.view(state, 0)]
    while game.to_act(state):
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        public.append(game.view(state, None))
        own.append(game.view(state, 0))
    return public, own, state


def renderer_part(report: Report) -> None:
    """presentation.UIS serves the game: every GameUI method on the views of a whole game, and
    the hand screens become Discord messages (discordkit/views.py)."""
    from discordkit import to_discord, views
    from engine import GAMES
    from presentation import UIS
    from presentation.base import Button, HandScreen, Names, Panel

    game, ui = GAMES[NAME], UIS[NAME]
    rules = ui.rules()
    report["ui_name"] = ui.name
    report["rules_text"] = len(rules.description) + sum(len(v) for _, v, _ in rules.fields)
    to_discord.embed(rules)
    names = Names(("Ann", "Bo", "Cy"), computers=frozenset({2}))
    rng = random.Random(3)
    state = game.new_game(3, 3)
    before = game.view(state, None)
    summaries = clickable = 0
    while game.to_act(state):
        seat = rng.choice(sorted(game.to_act(state)))
        legal = [str(a) for a in game.legal_actions(state, seat)]
        screen = ui.hand(game.view(state, seat), legal, names)
        assert isinstance(screen, HandScreen) and screen.panels
        actions = {c.action for c in screen.controls if isinstance(c, Button) and c.action}
        assert actions == set(legal), (actions, legal)  # every legal move has its button
        views.hand_message(1, 1, screen)
        clickable += len(actions)
        action = rng.choice(legal)
        state = game.apply(state, seat, game.parse_action(action))
        after = game.view(state, None)
        assert isinstance(ui.table(after, names), Panel) and ui.table_key(after)
        assert isinstance(ui.scores(after, names), Panel)
        assert ui.move_line(action, seat, after, names)
        panels = ui.summaries(before, after, names)
        to_discord.embeds(panels)
        summaries += len(panels)
        before = after
    finals = [ui.hand(game.view(state, seat), [], names) for seat in range(3)]
    assert all(not screen.controls for screen in finals)
    assert isinstance(ui.result(before, names), Panel)
    report["rendered"] = {"buttons": clickable, "summaries": summaries}


def pictures_part(report: Report) -> None:
    """Pictures().hand / table / summary / chart give PNG bytes from the game's views, and a
    table picture drawn while cards lie face down asks for no face."""
    from presentation.drawing.api import Pictures, series_from_view, series_from_views

    pictures = Pictures()
    public, own, _state = _views(3, 7)
    names = ["Ann", "Bo", "Cy"]
    hand = pictures.hand(own[0], names)
    tables = [pictures.table(view, names) for view in public]
    summaries = [pictures.summary(view, names) for view in public]
    series = series_from_views(public)
    chart = pictures.chart(NAME, series, names, winners=public[-1]["outcome"]["winners"])
    pictures.faces.clear_requests()
    face_down = next(v for v in public if any(v["played"]) and not all(v["played"]))
    pictures.table(face_down, names)
    report["pictures"] = {
        "hand": hand.startswith(PNG),
        "tables": all(t.startswith(PNG) for t in tables),
        "summaries": [s is not None and s.startswith(PNG) for s in summaries],
        "chart": chart.startswith(PNG),
        "series": len(series),
        "series_from_view": series_from_view(public[-1]) == series,
        "faces_while_face_down": sorted(pictures.faces.requested(NAME)),
    }


def commands_part(report: Report) -> None:
    """The bot's command tree, built as tools/messages.py builds it (every cog, no Discord)."""
    from discord import app_commands

    from bot import offline_bot
    from cogs.help import help_panel
    from discordkit.translator import tree_messages
    from engine import GAMES

    async def read() -> None:
        async with offline_bot() as bot:
            groups = {}
            for name in GAMES:
                group = bot.tree.get_command(name)
                assert isinstance(group, app_commands.Group), f"/{name} is not a group"
                groups[name] = sorted(command.name for command in group.commands)
            payload = bot.tree.get_command(NAME)
            assert payload is not None
            rules = bot.tree.get_command("rules")
            assert isinstance(rules, app_commands.Command)
            choices = [c.value for p in rules.parameters for c in p.choices]
            report["commands"] = {
                "groups": groups,
                "guild_only": payload.to_dict(bot.tree)["dm_permission"] is False,
                "rules_choices": choices,
                "catalog": (NAME, "command name") in tree_messages(bot.tree),
            }

    asyncio.run(read())
    title = GAMES[NAME].title
    fields = {name: value for name, value, _ in help_panel().fields}
    report["help"] = fields.get(title, "")


def policy_part(report: Report) -> None:
    """policy_for plays it: whole games with the computer in every seat (the worker's own
    function), then one through the service over a real SQLite store (a host and two
    computers), its stored log replaying to its snapshot."""
    from engine import GAMES, policy_for
    from workers.thinking import choose

    game = GAMES[NAME]
    report["policy"] = type(policy_for(NAME)).__name__
    finished = 0
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(10):
            rng = random.Random(seed)
            state = game.new_game(players, seed)
            while game.to_act(state):
                seat = min(game.to_act(state))
                legal = game.legal_actions(state, seat)
                action = choose(NAME, game.view(state, seat), legal, rng)
                state = game.apply(state, seat, action)
            finished += game.outcome(state) is not None
    report["policy_games"] = finished
    report["service"] = asyncio.run(_service_game())


async def _service_game() -> dict[str, Any]:
    from db.opening import open_store
    from engine import GAMES
    from service.games import GameService, think_in_thread

    game = GAMES[NAME]
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "fifth.db")
        try:
            service = GameService(store, turn_timeout=0, think=think_in_thread)
            lobby = await service.open_lobby(
                game=NAME, guild_id=1, channel_id=2, host_id=100, host_name="Host"
            )
            for _ in range(2):
                await service.add_computer(lobby.row.id, 100)
            loaded = (await service.start(lobby.row.id, 100)).after
            while loaded.row.status == "active":  # the computers answer within each act
                assert game.to_act(loaded.state) == {0}, "the computers did not move"
                action = str(game.legal_actions(loaded.state, 0)[0])
                step = loaded.seats[0].step
                loaded = (await service.act(loaded.row.id, 100, step, action)).after
            state = game.new_game(len(loaded.seats), loaded.row.seed)
            actions = await store.games.actions(loaded.row.id)
            for row in actions:
                state = game.apply(state, row.seat, game.parse_action(row.action))
            return {
                "status": loaded.row.status,
                "actors": sorted({row.actor for row in actions}),
                "replays": game.to_json(state) == loaded.row.snapshot,
            }
        finally:
            await store.close()


def page_part(report: Report) -> None:
    """What the table page gets of the game: its view in the page's generated types (the
    contract's View, which the page's generic view draws) and the live table's frames
    (web/frames.py) of a lobby and of seat 0 in a running game, checked as every game's are."""
    from presentation.viewing import Views
    from tests.web.frames_check import check_frame
    from tests.web.test_frames import position
    from tools import view_types
    from web.frames import lobby_frame, table_frame

    text = view_types.source()
    views = text.split("export interface Views {", 1)[1].split("}", 1)[0]
    report["page_view"] = [line.strip() for line in views.splitlines() if NAME in line]
    report["page_names"] = next(line for line in text.splitlines() if "GAME_NAMES =" in line)
    frames: list[dict[str, Any]] = []
    for moves in (0, 4):
        loaded = position(NAME, moves)
        if not frames:
            frames.append(lobby_frame(loaded, 10, computers=True, last_result=None))
        frame = table_frame(loaded, loaded.seats[0], Views(), [f"{moves} moves played"])
        check_frame(json.loads(json.dumps(frame)), loaded.state, 0)
        frames.append(frame)
    report["page_frames"] = json.loads(json.dumps(frames))


PARTS: tuple[Callable[[Report], None], ...] = (
    engine_part,
    conformance_part,
    hidden_part,
    renderer_part,
    pictures_part,
    commands_part,
    policy_part,
    page_part,
)


def main() -> int:
    report: Report = {"errors": {}}
    for part in PARTS:
        try:
            part(report)
        except Exception:  # noqa: BLE001 - every failure goes into the report, by part
            report["errors"][part.__name__] = traceback.format_exc().splitlines()[-12:]
    print(json.dumps(report, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
