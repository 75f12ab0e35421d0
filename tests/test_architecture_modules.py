"""Module-level rules beside the layers' arrows (tests/test_architecture.py): what cogs and web
use of delivery, where the process's own modules live, how long an import chain may grow, and
what the page imports.

Each rule is a function over the import graph (or the page's sources) that lists what breaks
it, so a test can add a deliberate bad import and see it reported.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.test_architecture import ROOT, import_graph

# What cogs and web may use of delivery: its public faces. Everything else in delivery (tables,
# hands, the outbox, pacing, what is shown) is the publisher's own business.
DELIVERY_FACES: dict[str, frozenset[str]] = {
    "cogs": frozenset({"delivery.moves", "delivery.publisher", "delivery.lobbies"}),
    "web": frozenset({"delivery.moves", "delivery.publisher", "delivery.lobbies"}),
}
# The only modules at the top: the composition root and the settings; the process's own
# modules live in runtime/, which only the composition root uses.
TOP_LEVEL = frozenset({"bot", "settings"})
RUNTIME_MAY_USE = ("runtime", "settings", "db", "aio")
# The longest chain of imports through the project's modules (tools/ left out: its message
# extractor reads the whole bot). A longer chain means a layer started to reach through another.
LONGEST_CHAIN = 18


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def face_violations(graph: dict[str, set[str]]) -> list[str]:
    """``module -> import`` for every use of a delivery module that is not one of its faces."""
    found = []
    for layer, faces in DELIVERY_FACES.items():
        for module, deps in sorted(graph.items()):
            if not _within(module, layer):
                continue
            for dep in sorted(deps):
                if _within(dep, "delivery") and dep != "delivery" and dep not in faces:
                    found.append(f"{module} -> {dep}")
    return found


def runtime_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports of runtime/ from anywhere but bot.py, and imports by runtime/ of anything but
    itself, the settings, the store and the asyncio helpers."""
    found = []
    for module, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if _within(dep, "runtime") and not _within(module, "runtime") and module != "bot":
                found.append(f"{module} -> {dep}")
            if _within(module, "runtime") and not any(_within(dep, p) for p in RUNTIME_MAY_USE):
                found.append(f"{module} -> {dep}")
    return found


def top_level_modules(root: Path) -> set[str]:
    return {path.stem for path in root.glob("*.py")}


def longest_chain(graph: dict[str, set[str]], *, leave_out: tuple[str, ...] = ()) -> list[str]:
    """The longest chain of imports (the graph has no cycle), modules under ``leave_out``
    left out."""
    kept = {m for m in graph if not any(_within(m, p) for p in leave_out)}
    memo: dict[str, list[str]] = {}

    def chain(module: str) -> list[str]:
        if module not in memo:
            tails = [chain(d) for d in sorted(graph[module] & kept)]
            memo[module] = [module, *max(tails, key=len, default=[])]
        return memo[module]

    return max((chain(m) for m in sorted(kept)), key=len, default=[])


def test_cogs_and_web_use_only_delivery_faces() -> None:
    assert face_violations(import_graph()) == []


def test_runtime_is_the_composition_roots_alone() -> None:
    assert runtime_violations(import_graph()) == []


def test_only_the_root_and_the_settings_lie_at_the_top() -> None:
    assert top_level_modules(ROOT) == TOP_LEVEL


def test_no_import_chain_grows_past_the_ceiling() -> None:
    chain = longest_chain(import_graph(), leave_out=("tools",))
    assert len(chain) - 1 <= LONGEST_CHAIN, " -> ".join(chain)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("cogs.table", "delivery.hands"),  # a cog reaching behind the publisher
        ("cogs.lobby", "delivery.outbox"),
        ("web.live", "delivery.tables"),  # the page's side drawing chat messages
        ("web.hub", "delivery.shown"),
    ],
)
def test_a_use_of_delivery_internals_is_reported(importer: str, imported: str) -> None:
    graph = import_graph()
    assert importer in graph and imported in graph
    graph[importer] = {*graph[importer], imported}
    assert f"{importer} -> {imported}" in face_violations(graph)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("service.games", "runtime.heartbeat"),  # the service knows nothing of the process
        ("cogs.upkeep", "runtime.lifecycle"),
        ("runtime.lifecycle", "cogs.table"),  # the process's life knows no feature
        ("runtime.heartbeat", "delivery.publisher"),
    ],
)
def test_a_wrong_runtime_import_is_reported(importer: str, imported: str) -> None:
    graph = import_graph()
    assert importer in graph and imported in graph
    graph[importer] = {*graph[importer], imported}
    assert f"{importer} -> {imported}" in runtime_violations(graph)


def test_a_loose_module_at_the_top_is_seen(tmp_path: Path) -> None:
    for name in ("bot.py", "settings.py", "heartbeat.py"):
        (tmp_path / name).write_text("")
    assert top_level_modules(tmp_path) == {*TOP_LEVEL, "heartbeat"}


def test_a_longer_chain_is_measured() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": set(), "t": {"a"}}
    assert longest_chain(graph) == ["t", "a", "b", "c"]
    assert longest_chain(graph, leave_out=("t",)) == ["a", "b", "c"]


# -- the page ------------------------------------------------------------------------------

PAGE = ROOT / "page"
# Every specifier of an import, an export ... from, a bare import and a dynamic import.
SPECIFIER = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']""")


def page_sources(page: Path) -> dict[Path, str]:
    found = {}
    for folder in ("src", "test"):
        for path in sorted((page / folder).rglob("*.ts")):
            if "generated" not in path.relative_to(page).parts:
                found[path] = path.read_text(encoding="utf-8")
    for path in sorted(page.glob("*.ts")):  # vite.config.ts
        found[path] = path.read_text(encoding="utf-8")
    return found


def page_violations(page: Path, sources: dict[Path, str]) -> list[str]:
    """``file: specifier`` for each import that is neither one of the page's own files nor a
    package its package.json declares (a Node built-in counts as declared: ``node:`` only)."""
    manifest = json.loads((page / "package.json").read_text(encoding="utf-8"))
    declared = {*manifest.get("dependencies", {}), *manifest.get("devDependencies", {})}
    found = []
    for path, text in sources.items():
        for specifier in SPECIFIER.findall(text):
            where = f"{path.relative_to(page)}: {specifier}"
            if specifier.startswith("."):
                target = (path.parent / specifier).resolve()
                if not target.is_relative_to(page.resolve()) or "node_modules" in target.parts:
                    found.append(where)
            elif specifier.startswith("node:"):
                continue
            else:
                parts = specifier.split("/")
                package = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
                if package not in declared:
                    found.append(where)
    return found


def test_the_page_imports_only_its_own_files_and_declared_packages() -> None:
    sources = page_sources(PAGE)
    assert len(sources) > 10  # the walk found the page
    assert page_violations(PAGE, sources) == []


@pytest.mark.parametrize(
    "bad",
    [
        'import { x } from "../../web/static/x";',  # outside the page
        'import leftpad from "left-pad";',  # a package package.json does not declare
        'export { y } from "lodash/fp";',
        'const z = await import("@scope/thing");',
    ],
)
def test_a_stray_page_import_is_reported(bad: str) -> None:
    sources = page_sources(PAGE)
    main = PAGE / "src" / "main.ts"
    sources[main] = sources[main] + "\n" + bad + "\n"
    assert len(page_violations(PAGE, sources)) == 1
