"""The layout keeps its promises: no import cycle, arrows one way, every game complete.

The import graph is read from the source (``ast``), so a cycle hidden behind
``if TYPE_CHECKING:`` or inside a function counts too. Importing ``a.b.c`` runs the
``__init__.py`` of ``a`` and ``a.b`` first, so those count as imported as well (from outside
the package: a package's own modules do not import their ``__init__`` again).
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from engine import GAMES, PACKAGE_OF, PACKAGES
from presentation.base import Panel

ROOT = Path(__file__).resolve().parent.parent
PROJECT = (
    "engine",
    "cogs",
    "delivery",
    "presentation",
    "workers",
    "web",
    "service",
    "db",
    "i18n",
    "tools",
    "discordkit",
    "runtime",
    "bot",
    "settings",
    "aio",
)
MAX_LINES = 500


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files(root: Path = ROOT, tops: tuple[str, ...] = PROJECT) -> Iterator[Path]:
    for top in tops:
        single = root / f"{top}.py"
        if single.exists():
            yield single
        elif (root / top).is_dir():
            yield from sorted((root / top).rglob("*.py"))


@functools.cache
def _parsed(text: str) -> ast.Module:
    return ast.parse(text)


def parsed(path: Path) -> ast.Module:
    """The file's syntax tree, parsed once per text (the tests walk the project's files
    several times)."""
    return _parsed(path.read_text(encoding="utf-8"))


def _resolve(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = here.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(
    root: Path = ROOT, tops: tuple[str, ...] = PROJECT, *, own_packages: bool = False
) -> dict[str, set[str]]:
    """Module -> the project modules it imports (anywhere in the file).

    ``own_packages``: a module that names its own package (``from pkg import sub``, ``import
    pkg``) imports that package's ``__init__`` too: such an import, run while the
    ``__init__`` itself is importing the module, finds the package half made."""
    paths = list(project_files(root, tops))
    modules = {_module_name(path, root): path for path in paths}
    packages = {_module_name(path, root) for path in paths if path.name == "__init__.py"}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = parsed(path)
        for node in ast.walk(tree):
            targets: list[str] = []
            named: list[str] = []  # modules the statement names itself
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
                named = targets
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(node, name, path.name == "__init__.py")
                named = [source]
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in modules else source)
            for target in targets:
                graph[name] |= {p for p in _with_packages(target, name) if p in modules}
            if own_packages:
                graph[name] |= {m for m in named if m in packages and m != name}
    return graph


def _with_packages(target: str, importer: str) -> set[str]:
    """``target`` and the packages whose ``__init__`` importing it runs, seen from ``importer``
    (its own packages are already running, so they do not count)."""
    parts = target.split(".")
    found = {".".join(parts[:n]) for n in range(1, len(parts) + 1)}
    own = importer.split(".")
    found -= {".".join(own[:n]) for n in range(1, len(own) + 1)}
    return found


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


def init_cycles(graph: dict[str, set[str]], packages: set[str]) -> list[list[str]]:
    """The cycles that pass through a package's ``__init__``."""
    return [c for c in cycles(graph) if packages & set(c)]


def _packages(root: Path = ROOT, tops: tuple[str, ...] = PROJECT) -> set[str]:
    return {_module_name(p.parent, root) for p in project_files(root, tops) if p.stem == "__init__"}


def test_no_package_init_takes_part_in_a_cycle() -> None:
    assert init_cycles(import_graph(own_packages=True), _packages()) == []


def test_a_package_init_in_a_cycle_is_reported(tmp_path: Path) -> None:
    """A package whose ``__init__`` imports a module that imports the package back fails the
    check; importing the sibling module by its own name passes."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.face import Face\n")
    (package / "helper.py").write_text("HELP = 1\n")
    (package / "face.py").write_text("from pkg import helper\n\nFace = helper.HELP\n")
    graph = import_graph(tmp_path, ("pkg",), own_packages=True)
    assert init_cycles(graph, _packages(tmp_path, ("pkg",))) == [["pkg", "pkg.face"]]
    (package / "face.py").write_text("from pkg.helper import HELP\n\nFace = HELP\n")
    graph = import_graph(tmp_path, ("pkg",), own_packages=True)
    assert init_cycles(graph, _packages(tmp_path, ("pkg",))) == []


# Which layers each layer may import (besides itself). ``db.models`` is the vocabulary of
# stored rows (plain dataclasses) that the service's reports carry up to Discord. ``aio``
# (asyncio helpers) is the bottom: it imports nothing, and every layer but the pure engine may
# use it.
ALLOWED: dict[str, tuple[str, ...]] = {
    "aio": (),
    "engine": (),
    "i18n": (),
    "db": ("engine",),
    "service": ("engine", "db", "i18n"),
    "presentation": ("engine", "i18n"),
    "workers": ("engine", "presentation", "i18n"),
    "discordkit": ("presentation", "service", "db.models", "engine", "i18n"),
    "delivery": ("discordkit", "presentation", "service", "db.models", "engine", "i18n"),
    "web": ("discordkit", "delivery", "presentation", "service", "db.models", "engine", "i18n"),
    "cogs": (
        "discordkit",
        "delivery",
        "presentation",
        "service",
        "db.models",
        "engine",
        "i18n",
    ),
}


def layer_of(module: str) -> str:
    """The layer a module belongs to: its top folder, ``discordkit`` apart from ``cogs``."""
    if module == "discordkit" or module.startswith("discordkit."):
        return "discordkit"
    if module == "db.models":
        return "db.models"
    return module.split(".", maxsplit=1)[0]


def arrow_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points where its layer may not look, as ``module -> import``."""
    found = []
    for module, deps in sorted(graph.items()):
        layer = "db" if layer_of(module) == "db.models" else layer_of(module)
        if layer not in ALLOWED:
            continue  # bot.py, tools/ and the start-up modules may import anything
        allowed = {layer, *ALLOWED[layer]}
        if layer != "engine":
            allowed.add("aio")
        if layer == "db":
            allowed.add("db.models")
        for dep in sorted(deps):
            target = layer_of(dep)
            if any(layer.startswith(dep + ".") for layer in allowed):
                continue  # the package around an allowed part (db for db.models)
            if target == "db.models" and "db" in allowed:
                continue
            if target not in allowed:
                found.append(f"{module} -> {dep}")
    return found


def test_arrows_point_one_way() -> None:
    assert arrow_violations(import_graph()) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("delivery.publisher", "cogs.table"),  # delivery never reaches a cog
        ("i18n.catalogs", "discordkit.translator"),  # the translation layer is a leaf
        ("presentation.common", "delivery.outbox"),  # what a game shows knows nothing of Discord
        ("discordkit.views", "cogs.language"),  # helpers do not import cogs
        ("service.games", "presentation.base"),
        ("engine.grinch.game", "db.store"),
        ("delivery.marks", "db.store"),  # delivery reaches the store through the service
        ("engine.grinch.game", "aio"),  # the engine does no I/O
        ("aio.tasks", "db.store"),  # the bottom imports nothing of the project
    ],
)
def test_a_bad_import_is_reported(importer: str, imported: str) -> None:
    graph = import_graph()
    assert importer in graph and imported in graph
    graph[importer] = {*graph[importer], imported}
    assert f"{importer} -> {imported}" in arrow_violations(graph)


def test_cogs_hold_only_cogs() -> None:
    """Every module directly in cogs/ defines a ``commands.Cog``; helpers live in discordkit
    (what the game cogs share, in the package's ``__init__``)."""
    without = []
    for path in sorted((ROOT / "cogs").glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = parsed(path)
        bases = {
            ast.unparse(base)
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            for base in node.bases
        }
        if "commands.Cog" not in bases:
            without.append(path.name)
    assert without == []


def longest_chain(graph: dict[str, set[str]], prefix: str) -> list[str]:
    """The longest chain of imports among the modules under ``prefix`` (the graph has no cycle)."""
    inside = {m for m in graph if m == prefix or m.startswith(prefix + ".")}
    memo: dict[str, list[str]] = {}

    def chain(module: str) -> list[str]:
        if module not in memo:
            tails = [chain(d) for d in sorted(graph[module] & inside)]
            memo[module] = [module, *max(tails, key=len, default=[])]
        return memo[module]

    return max((chain(m) for m in sorted(inside)), key=len, default=[])


def test_imports_inside_cogs_are_shallow() -> None:
    chain = longest_chain(import_graph(), "cogs")
    assert len(chain) - 1 <= 3, " -> ".join(chain)
    assert longest_chain({"a": {"a.b"}, "a.b": {"a.c"}, "a.c": set()}, "a") == ["a", "a.b", "a.c"]


def _discord_importers() -> set[str]:
    found = set()
    for path in project_files():
        tree = parsed(path)
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
        if m.startswith(("engine", "service", "db", "presentation", "i18n"))
        or m == "settings"
        or m.startswith("aio")
    }
    assert below == set()


def store_readers(sources: dict[str, str]) -> list[str]:
    """``module:line`` of every read of ``<something>.service.store`` (or ``service.store``)
    in the given sources: the Discord side reaches the store only through the service's own
    methods (and delivery through ``service.showing``), never by holding its store."""
    found = []
    for module, text in sorted(sources.items()):
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Attribute) and node.attr == "store"):
                continue
            owner = node.value
            if (isinstance(owner, ast.Attribute) and owner.attr == "service") or (
                isinstance(owner, ast.Name) and owner.id == "service"
            ):
                found.append(f"{module}:{node.lineno}")
    return found


def _discord_side() -> dict[str, str]:
    return {
        _module_name(p): p.read_text(encoding="utf-8")
        for p in project_files()
        if _module_name(p).startswith(("cogs", "delivery"))
    }


def test_cogs_and_delivery_never_hold_the_store() -> None:
    assert store_readers(_discord_side()) == []


@pytest.mark.parametrize(
    "bad",
    [
        "async def f(self): return await self.service.store.servers.guild_settings(1)",
        "def f(service): return service.store",
    ],
)
def test_a_read_of_the_service_store_is_reported(bad: str) -> None:
    sources = _discord_side()
    assert "cogs.lobby" in sources
    sources["cogs.lobby"] += "\n" + bad + "\n"
    lines = len(sources["cogs.lobby"].splitlines())
    assert store_readers(sources) == [f"cogs.lobby:{lines}"]


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
    ui_pkg = load(f"presentation.{package}")
    ui = getattr(ui_pkg, "UI", None)
    if ui is None:
        missing.append(f"presentation/{package}/: UI")
    elif game is not None and getattr(ui, "name", None) != game.name:
        missing.append(f"presentation/{package}/: UI.name must be {game.name!r}")
    else:
        rules = getattr(ui, "rules", None)
        panel = rules() if callable(rules) else None
        if not isinstance(panel, Panel) or len(panel.description) + len(panel.fields) == 0:
            missing.append(f"presentation/{package}/: UI.rules() text for /rules")
    look = load(f"presentation.{package}.look")
    if not callable(getattr(getattr(look, "LOOK", None), "draw", None)):
        missing.append(f"presentation/{package}/look.py: LOOK")
    picture = load(f"presentation.{package}.picture")
    needed = ("UNIT", "hand", "table", "summary", "progress", "totals", "rounds")
    absent = [name for name in needed if not hasattr(picture, name)]
    if absent:
        missing.append(f"presentation/{package}/picture.py: {', '.join(absent)}")
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
        "presentation/fifth/: UI",
        "presentation/fifth/look.py: LOOK",
        "presentation/fifth/picture.py: UNIT, hand, table, summary, progress, totals, rounds",
    ]
    sys.modules.pop("engine.fifth", None)
