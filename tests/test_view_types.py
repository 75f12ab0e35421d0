"""tools/view_types.py: the page's view types follow the engine's TypedDicts, field by field."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import pytest

import engine.grinch.game
from engine import GAMES
from engine.base import View
from engine.grinch.view import GrinchView
from tools import view_types

INTERFACE = re.compile(r"export interface (\w+) \{\n(.*?)\n\}", re.S)


def interfaces(text: str) -> dict[str, dict[str, str]]:
    """Every interface of views.ts: its name -> {key (with "?" when optional): TS type}."""
    found = {}
    for name, body in INTERFACE.findall(text):
        fields = [line.strip().rstrip(";").split(": ", 1) for line in body.splitlines()]
        found[name] = {key: ts for key, ts in fields}
    return found


def test_every_key_of_every_game_view_is_in_its_interface() -> None:
    generated = interfaces(view_types.source())
    writer = view_types.Writer()
    assert set(generated["Views"]) == set(GAMES)
    for name, game in GAMES.items():
        hint = view_types.view_type(game)
        assert view_types.is_typeddict(hint), name
        interface = generated[generated["Views"][name]]
        keys = typing.get_type_hints(hint)
        assert {key.rstrip("?") for key in interface} == set(keys), name
        for key, value in keys.items():
            optional = key in getattr(hint, "__optional_keys__", frozenset())
            assert interface[key + "?" if optional else key] == writer.ts(value), (name, key)


def test_python_types_become_their_typescript_types() -> None:
    writer = view_types.Writer()
    assert writer.ts(int | None) == "number | null"
    assert writer.ts(list[int | None]) == "(number | null)[]"
    assert writer.ts(dict[str, list[str] | None]) == "Record<string, string[] | null>"
    assert writer.ts(typing.Literal["deck", "A"]) == '"deck" | "A"'
    assert writer.ts(tuple[int, str]) == "[number, string]"
    assert writer.ts(View) == "Record<string, unknown>"
    with pytest.raises(TypeError):
        writer.ts(bytes)


def test_a_field_added_to_a_view_appears_and_a_removed_one_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "deck_size" in interfaces(view_types.source())["GrinchView"]
    fields: dict[str, Any] = dict(typing.get_type_hints(GrinchView))
    del fields["deck_size"]
    fields["bonus_rows"] = list[str] | None
    fields["maybe"] = NotRequired[int]
    changed = TypedDict("GrinchView", fields)  # type: ignore[misc]
    monkeypatch.setattr(engine.grinch.game, "GrinchView", changed)
    grinch = interfaces(view_types.source())["GrinchView"]
    assert grinch["bonus_rows"] == "string[] | null"
    assert grinch["maybe?"] == "number"
    assert "deck_size" not in grinch


def test_a_game_without_typed_views_gets_the_contracts_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Bare:
        def view(self, state: object, seat: int | None) -> View:
            return {}

    monkeypatch.setitem(GAMES, "bare", Bare())
    text = view_types.source()
    assert interfaces(text)["Views"]["bare"] == "View"
    assert '"ten", "bare"] as const' in text


def test_write_makes_the_file_the_page_imports(tmp_path: Path) -> None:
    path = view_types.write(tmp_path)
    assert path == tmp_path / "views.ts"
    assert "export interface TenView {" in path.read_text(encoding="utf-8")
