"""The layout keeps its promises: no import cycle, arrows one way, every game complete.

The import graph is read from the source (``ast``), so a cycle hidden behind
``if TYPE_CHECKING:`` or inside a function counts too.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from cogs.ui.base import Panel
from engine import GAMES, PACKAGE_OF, PACKAGES

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("engine", "cogs", "service", "db", "i18n", "bot", "settings")
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> Iterator[Path]:
    for top in PROJECT:
        single = ROOT / f"{top}.py"
        if single.exists():
            yield single
        elif (ROOT / top).is_dir():
            yield from sorted((ROOT / top).rglob("*.py"))


def _resolve(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = here.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (anywhere in the file)."""
    modules = {_module_name(path): path for path in project_files()}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(node, name, path.name == "__init__.py")
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in modules else source)
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 40  # the walk found the project
    assert cycles(graph) == []


def _imports_of(prefix: str, graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {m: deps for m, deps in graph.items() if m == prefix or m.startswith(prefix + ".")}


def test_arrows_point_one_way() -> None:
    graph = import_graph()
    for module, deps in _imports_of("engine", graph).items():
        assert all(d.startswith("engine") for d in deps), (module, deps)
    for module, deps in _imports_of("db", graph).items():
        assert not any(d.startswith(("cogs", "service")) for d in deps), (module, deps)
    for module, deps in _imports_of("service", graph).items():
        assert not any(d.startswith("cogs") for d in deps), (module, deps)
    for module, deps in _imports_of("cogs.ui", graph).items():
        assert not any(d.startswith(("service", "db")) for d in deps), (module, deps)
        cog_deps = {d for d in deps if d.startswith("cogs") and not d.startswith("cogs.ui")}
        assert not cog_deps, (module, cog_deps)
    # The translation layer is a leaf (its developer's tool, i18n.tools, reads the bot).
    for module, deps in _imports_of("i18n", graph).items():
        if module != "i18n.tools":
            assert all(d.startswith("i18n") for d in deps), (module, deps)


def _discord_importers() -> set[str]:
    found = set()
    for path in project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(n == "discord" or n.startswith("discord.") for n in names):
                found.add(_module_name(path))
    return found


def test_no_discord_below_cogs() -> None:
    below = {
        m
        for m in _discord_importers()
        if m.startswith(("engine", "service", "db", "cogs.ui", "i18n")) or m == "settings"
    }
    assert below == set()


def test_components_and_publisher_do_not_need_the_table_cog() -> None:
    graph = import_graph()
    assert "cogs.table" not in graph["cogs.components"]
    assert "cogs.table" not in graph["cogs.publisher"]
    assert "cogs.table" not in graph["cogs.render"]


def test_no_file_over_the_limit() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in [*project_files(), *sorted((ROOT / "bench").rglob("*.py"))]
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


# -- a registered game has every part ---------------------------------------------------


def missing_parts(package: str) -> list[str]:
    """What a game registered as ``engine.<package>`` lacks (an empty list: complete)."""
    missing = []

    def load(name: str) -> ModuleType | None:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                return None
            raise

    engine_pkg = load(f"engine.{package}")
    game = getattr(engine_pkg, "GAME", None)
    if game is None:
        missing.append(f"engine/{package}/__init__.py: GAME")
    ai = load(f"engine.{package}.ai")
    if not callable(getattr(getattr(ai, "POLICY", None), "choose", None)):
        missing.append(f"engine/{package}/ai: POLICY")
    ui_pkg = load(f"cogs.ui.{package}")
    ui = getattr(ui_pkg, "UI", None)
    if ui is None:
        missing.append(f"cogs/ui/{package}/: UI")
    elif game is not None and getattr(ui, "name", None) != game.name:
        missing.append(f"cogs/ui/{package}/: UI.name must be {game.name!r}")
    else:
        rules = getattr(ui, "rules", None)
        panel = rules() if callable(rules) else None
        if not isinstance(panel, Panel) or len(panel.description) + len(panel.fields) == 0:
            missing.append(f"cogs/ui/{package}/: UI.rules() text for /rules")
    return missing


@pytest.mark.parametrize("package", sorted(PACKAGE_OF.values()))
def test_every_registered_game_has_every_part(package: str) -> None:
    assert missing_parts(package) == []


def test_registry_is_the_packages() -> None:
    assert list(PACKAGES) == list(PACKAGE_OF.values())
    assert set(GAMES) == set(PACKAGE_OF)


def test_a_game_without_its_parts_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The completeness check fails for a registered game that has only its engine."""
    engine_dir = tmp_path / "engine_extra"
    (engine_dir / "engine" / "fifth").mkdir(parents=True)
    (engine_dir / "engine" / "fifth" / "__init__.py").write_text("GAME = None\n")
    engine_mod = importlib.import_module("engine")
    monkeypatch.setattr(engine_mod, "__path__", [*engine_mod.__path__, str(engine_dir / "engine")])
    assert missing_parts("fifth") == [
        "engine/fifth/__init__.py: GAME",
        "engine/fifth/ai: POLICY",
        "cogs/ui/fifth/: UI",
    ]
    sys.modules.pop("engine.fifth", None)
