"""A fifth game is two folders and one registry line, as "Adding a game" says.

The project's source is copied into a scratch folder; High card (``tests/fifth/``: a small
but complete game) goes in as ``engine/fifth/`` and ``presentation/fifth/``, and ``"fifth"`` is
added to ``PACKAGES`` in ``engine/__init__.py``: nothing else changes. In a subprocess inside
the copy, ``tests/fifth/served.py`` then tries everything the bot serves of a game on it:
the registry, the conformance suite, hidden cards, every renderer method, the pictures, the
command tree and /help, the computer player, a game through the service, and what the page
gets: its generated view type and the live table's frames. Those frames are then sent to
the page as built here, which knows the four games only, in Debian's Chromium: it draws the
fifth game with its generic view and sends its moves back.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e.browser import DIST, launched, need_browser
from tests.test_architecture import PROJECT
from tests.test_startup import SITE, assert_one_line_failure, closed_port_url

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fifth"
NAME = PACKAGE = "fifth"
TIMEOUT = 60
PAGE = "http://table.test/"  # the built page, served to the browser by a route (no server)
WAIT_MS = 10_000
# What the checks in the copy import besides the project itself (tests/ is not copied whole).
TEST_FILES = (
    "tests/__init__.py",
    "tests/engine/__init__.py",
    "tests/engine/conformance.py",
    "tests/engine/test_conformance.py",
    "tests/test_architecture.py",
    "tests/web/__init__.py",
    "tests/web/frames_check.py",
    "tests/web/test_frames.py",
)
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")


def copy_project(target: Path) -> Path:
    """The project's source (the layers tests/test_architecture.py walks, and the catalogs)
    and the fixture folder, in ``target``."""
    for top in (*PROJECT, "locales"):
        if (ROOT / f"{top}.py").exists():
            shutil.copy2(ROOT / f"{top}.py", target / f"{top}.py")
        else:
            shutil.copytree(ROOT / top, target / top, ignore=IGNORE)
    for name in TEST_FILES:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(FIXTURE, target / "tests" / "fifth", ignore=IGNORE)
    return target


def packages(source: str) -> tuple[str, ...]:
    """The value of ``PACKAGES`` in the source of engine/__init__.py."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "PACKAGES" for t in targets):
                assert node.value is not None
                value: tuple[str, ...] = ast.literal_eval(node.value)
                return value
    raise AssertionError("engine/__init__.py has no PACKAGES")


def register(copy: Path, package: str) -> list[str]:
    """Add ``package`` to the registry of the copy as a developer would: one line changed (a
    tuple on one line) or added (a tuple over several); returns the diff's changed lines."""
    path = copy / "engine" / "__init__.py"
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    node = next(
        n
        for n in tree.body
        if isinstance(n, ast.AnnAssign)
        and isinstance(n.target, ast.Name)
        and n.target.id == "PACKAGES"
    )
    assert isinstance(node.value, ast.Tuple) and node.value.end_lineno is not None
    lines = source.splitlines(keepends=True)
    last = node.value.end_lineno - 1
    close = node.value.end_col_offset or 0
    if node.value.lineno == node.value.end_lineno:
        lines[last] = f'{lines[last][: close - 1]}, "{package}"{lines[last][close - 1 :]}'
    else:  # ruff's layout: one element a line, the closing parenthesis alone
        lines.insert(last, f'    "{package}",\n')
    changed = "".join(lines)
    path.write_text(changed, encoding="utf-8")
    assert packages(changed) == (*packages(source), package)
    diff = difflib.unified_diff(source.splitlines(), changed.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def add_parts(copy: Path, *, presentation: bool) -> None:
    shutil.copytree(FIXTURE / "engine_fifth", copy / "engine" / PACKAGE, ignore=IGNORE)
    if presentation:
        shutil.copytree(
            FIXTURE / "presentation_fifth", copy / "presentation" / PACKAGE, ignore=IGNORE
        )
    changed = register(copy, PACKAGE)
    assert len([line for line in changed if line.startswith("+")]) == 1, changed


def environment(copy: Path, **extra: str) -> dict[str, str]:
    """The sealed test environment with only the copy on the path (never this checkout)."""
    return {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1", **extra}


def run_report(copy: Path, module: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", module],
        cwd=copy,
        env=environment(copy),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return report


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The report of ``tests/fifth/served.py`` in a copy with the fifth game added."""
    copy = copy_project(tmp_path_factory.mktemp("served"))
    add_parts(copy, presentation=True)
    return run_report(copy, "tests.fifth.served")


@pytest.mark.process
def test_a_fifth_game_with_its_two_packages_and_one_line_is_served(served: dict[str, Any]) -> None:
    report = served
    assert report["errors"] == {}, json.dumps(report["errors"], indent=1)

    assert report["registry"] == {"last": PACKAGE, "package": PACKAGE}
    assert report["players"] == [2, 3]
    # The conformance suite's every check, on every size of the game.
    assert report["conformance_cases"] == [2, 3]
    assert report["conformance"] and set(report["conformance"].values()) == {2}
    assert report["views_checked"] > 1000
    # The renderer: rules for /rules, a button for every legal move, round summaries.
    assert report["ui_name"] == NAME
    assert report["rules_text"] > 100
    assert report["rendered"]["buttons"] > 0
    assert report["rendered"]["summaries"] == 4  # three rounds, then the result
    # The pictures, from views only: no face drawn for a card lying face down.
    assert report["pictures"] == {
        "hand": True,
        "tables": True,
        # None until the first round is complete (three moves of three players), then PNG.
        "summaries": [False] * 3 + [True] * 7,
        "chart": True,
        "series": 3,
        "series_from_view": True,
        "faces_while_face_down": [],
    }
    # The commands: /fifth with every other game's subcommands, /rules and /help know it.
    groups = report["commands"]["groups"]
    assert NAME in groups
    assert all(subcommands == groups[NAME] for subcommands in groups.values()), groups
    assert {"start", "hand", "cancel", "leave"} <= set(groups[NAME])
    assert report["commands"]["guild_only"] is True
    assert NAME in report["commands"]["rules_choices"]
    assert report["commands"]["catalog"] is True
    assert report["help"].startswith("2–3 players") and "`/fifth start`" in report["help"]
    # The computer player, alone and through the service.
    assert report["policy"] == "HighCardPolicy"
    assert report["policy_games"] == 20
    assert report["service"] == {
        "status": "finished",
        "actors": ["computer", "forced", "player"],  # the last card is played for the host
        "replays": True,
    }
    # The page: its generated types give the game the contract's View (the generic view
    # draws it), and the live table sends its lobby and its tables like any game's.
    assert report["page_view"] == [f"{NAME}: View;"]
    assert report["page_names"].endswith(f'"ten", "{NAME}"] as const;')
    frames = report["page_frames"]
    assert [(f["type"], (f.get("lobby") or f)["game"]) for f in frames] == [
        ("lobby", NAME),
        ("table", NAME),
        ("table", NAME),
    ]
    assert frames[1]["moves"] and frames[1]["view"]["hand"]


class FakeBackend:
    """The bot's side of the page for the browser: the built page's files, a session for the
    mock sign-in, and a live socket that welcomes the page and sends it the fifth game's
    frames as the copy's web layer made them; it keeps what the page sends."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = frames
        self.received: list[dict[str, Any]] = []
        self.socket: Any = None

    async def http(self, route: Any) -> None:
        path = urlsplit(route.request.url).path
        if path == "/api/token":
            user = {"id": "10", "name": "p0", "locale": "en-US"}  # as web/tokens.py answers
            await route.fulfill(json={"session": "s", "expires_in": 900, "user": user})
            return
        file = DIST.parent / (path.lstrip("/") or "index.html")
        if file.is_file():
            await route.fulfill(path=str(file))
        else:
            await route.fulfill(status=404)

    def live(self, socket: Any) -> None:
        self.socket = socket
        socket.on_message(self.answer)

    def answer(self, text: str | bytes) -> None:
        message = json.loads(text)
        self.received.append(message)
        if message["type"] == "hello":
            user = {"id": "10", "name": "p0"}
            welcome = {"type": "welcome", "user": user, "channel_id": "2", "language": "en"}
            self.send({**welcome, "expires_in": 900})
            self.send(self.frames[0])

    def send(self, frame: dict[str, Any]) -> None:
        self.socket.send(json.dumps(frame))


@pytest.mark.process
async def test_the_page_built_without_the_fifth_game_draws_it(served: dict[str, Any]) -> None:
    """The page as built here (it knows the four games only) shows the fifth game's lobby
    and tables, its tables with the generic view, and a move pressed there goes back over the
    socket as that frame's move."""
    browser_path = need_browser()

    lobby, first, later = served["page_frames"]
    backend = FakeBackend([lobby])
    async with launched(browser_path) as browser:
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.route(f"{PAGE}**", backend.http)
        await page.route_web_socket("**/api/live**", backend.live)
        await page.goto(f"{PAGE}?instance_id=local&channel_id=2&user_id=10")
        await page.wait_for_selector(".lobby .players", timeout=WAIT_MS)
        assert await page.text_content(".lobby h1") == NAME  # no title in its catalogs

        backend.send(first)
        table = f".table[data-game={NAME}][data-version='{first['version']}']"
        await page.wait_for_selector(f"{table} .game.generic", timeout=WAIT_MS)
        hand = await page.text_content(f"{table} dd[data-key=hand]")
        assert hand == "[" + ", ".join(first["view"]["hand"]) + "]"
        cards = await page.eval_on_selector_all(
            f"{table} .hand [data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert cards == first["view"]["hand"]
        offered = await page.eval_on_selector_all(
            f"{table} button.move", "els => els.map(e => e.dataset.action)"
        )
        assert offered == [move["action"] for move in first["moves"]]
        await page.click(f"{table} button.move >> nth=0")
        move = {"type": "move", "game_id": first["game_id"], "step": first["step"]}
        for _ in range(WAIT_MS // 20):  # the socket's message arrives soon after the click
            if backend.received[-1]["type"] == "move":
                break
            await page.wait_for_timeout(20)
        assert backend.received[-1] == {**move, "action": offered[0]}

        backend.send(later)
        later_table = f".table[data-game={NAME}][data-version='{later['version']}']"
        await page.wait_for_selector(f"{later_table} .game.generic", timeout=WAIT_MS)
        assert errors == []


@pytest.mark.process
def test_a_fifth_game_without_its_presentation_is_reported_by_name(tmp_path: Path) -> None:
    copy = copy_project(tmp_path)
    add_parts(copy, presentation=False)
    report = run_report(copy, "tests.fifth.missing")
    assert report["errors"] == {}, json.dumps(report["errors"], indent=1)
    assert report["uis"] == ["gnome", "grinch", "hearts", "ten"]
    assert report["missing_parts"] == [
        f"presentation/{PACKAGE}/: UI",
        f"presentation/{PACKAGE}/look.py: LOOK",
        f"presentation/{PACKAGE}/picture.py: UNIT, hand, table, summary, progress, totals, rounds",
    ]
    started = subprocess.run(
        [sys.executable, "bot.py"],
        cwd=copy,
        env=environment(
            copy,
            PYTHONPATH=os.pathsep.join([str(SITE), str(copy)]),
            FAKE_DISCORD_URL=closed_port_url(),  # were it to start, it would find no Discord
            DISCORD_TOKEN="not-a-token",
        ),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert_one_line_failure(started.stderr, started.returncode, f"presentation/{PACKAGE}/")
