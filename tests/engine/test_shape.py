"""Every game package has one shape (docs/adding-a-game.md): the same modules with the same
jobs, ``GAME`` its one public face, and the computer player's levels in ``ai/``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import GAMES, PACKAGE_OF, PACKAGES

ROOT = Path(__file__).resolve().parents[2]
# The modules of every game package; a game may add its own helpers beside them (Ten's
# ``payments``, the Hearts player's ``infer``, ``sim``, ``solve``, ``equity``).
MODULES = frozenset({"cards", "actions", "state", "rules", "scoring", "view", "game"})
LEVELS = frozenset({"easy", "normal", "hard"})


def modules(folder: Path) -> set[str]:
    return {path.stem for path in folder.glob("*.py")} - {"__init__"}


def face(path: Path) -> list[str]:
    """The statements of a package's ``__init__`` besides its docstring, as source."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return [ast.unparse(node) for node in body]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_game_package_has_the_same_modules(package: str) -> None:
    folder = ROOT / "engine" / package
    assert modules(folder) >= MODULES, sorted(MODULES - modules(folder))
    assert modules(folder / "ai") >= LEVELS, sorted(LEVELS - modules(folder / "ai"))


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_exports_its_game_once(package: str) -> None:
    """The package's face is ``GAME`` alone (every other name is imported from the module
    that defines it), and its ``ai`` exports ``POLICY`` and ``POLICIES``."""
    folder = ROOT / "engine" / package
    assert face(folder / "__init__.py") == [f"from engine.{package}.game import GAME as GAME"]
    policy = face(folder / "ai" / "__init__.py")
    assert [s for s in policy if s.startswith("from engine.")][-1].endswith("POLICY as POLICY")
    assert not any(s.startswith("__all__") for s in policy)


def test_the_registry_finds_each_game_through_its_face() -> None:
    assert {PACKAGE_OF[name] for name in GAMES} == set(PACKAGES)
