"""A fifth game is two folders and one registry line, as "Adding a game" says.

The project's source is copied into a scratch folder; High card (``tests/fifth/``: a small
but complete game) goes in as ``engine/fifth/`` and ``presentation/fifth/``, and ``"fifth"`` is
added to ``PACKAGES`` in ``engine/__init__.py``: nothing else changes. In a subprocess inside
the copy, ``tests/fifth/served.py`` then tries everything the bot serves of a game on it:
the registry, the conformance suite, hidden cards, every renderer method, the pictures, the
command tree and /help, the computer player and a game through the service.
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

import pytest

from tests.test_architecture import PROJECT
from tests.test_startup import SITE, assert_one_line_failure, closed_port_url

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fifth"
NAME = PACKAGE = "fifth"
TIMEOUT = 60
# What the checks in the copy import besides the project itself (tests/ is not copied whole).
TEST_FILES = (
    "tests/__init__.py",
    "tests/engine/__init__.py",
    "tests/engine/conformance.py",
    "tests/engine/test_conformance.py",
    "tests/test_architecture.py",
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


@pytest.mark.process
def test_a_fifth_game_with_its_two_packages_and_one_line_is_served(tmp_path: Path) -> None:
    copy = copy_project(tmp_path)
    add_parts(copy, presentation=True)
    report = run_report(copy, "tests.fifth.served")
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
