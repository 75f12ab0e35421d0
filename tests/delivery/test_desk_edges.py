"""The two edges a move comes in by (the table cog, the live table's socket) use the move desk
and the publisher's face, never the parts behind them; the page's side needs nothing of the
Discord write path to draw its frames."""

from __future__ import annotations

from tests.test_architecture import import_graph

FACES = {"delivery.moves", "delivery.publisher"}  # what an edge may use of delivery


def _delivery_used(module: str, graph: dict[str, set[str]]) -> set[str]:
    return {m for m in graph[module] if m.startswith("delivery.")}


def test_the_table_cog_uses_the_desk_alone() -> None:
    graph = import_graph()
    assert _delivery_used("cogs.table", graph) <= FACES
    assert "delivery.moves" in graph["cogs.table"]


def test_the_live_socket_moves_through_the_desk() -> None:
    graph = import_graph()
    assert "delivery.moves" in graph["web.live"]
    # lobby messages are the live table's other write, as the lobby cog's
    assert _delivery_used("web.live", graph) <= {*FACES, "delivery.lobbies"}


def test_the_frames_need_no_delivery() -> None:
    graph = import_graph()
    for module in ("web.frames", "web.hub"):
        assert _delivery_used(module, graph) == set(), module
