"""Move clicks are routed by their custom id (discordkit/controls.move_of), not by dynamic items."""

from __future__ import annotations

import pytest

from cogs.guard import ours
from discordkit.clicks import ControlButton, move_of, step_guarded
from discordkit.views import move_rows
from presentation.base import Button, Select


def test_buttons_and_menus() -> None:
    assert move_of("g:12:7:buy.R3a.t2", {}) == (12, 7, "buy.R3a.t2")
    assert move_of("gs:12:7:1", {"values": ["p.3"]}) == (12, 7, "p.3")
    assert move_of("gs:12:7:1", {"values": ["p.3", "p.4"]}) == (12, 7, "p.3")
    # A menu sent back with nothing chosen is a move no game accepts, not a crash.
    assert move_of("gs:12:7:1", {}) == (12, 7, "")
    assert move_of("gs:12:7:1", {"values": []}) == (12, 7, "")


@pytest.mark.parametrize(
    "custom_id",
    [
        "lobby:12:join",
        "hand:12",
        "back:12",
        "x:12:1",  # a button shown but not clickable
        "g:12:7:",  # no action
        "g:12:7:a b",  # outside the action characters
        "g:1234567890123456:7:p",  # a game id too long for the database
        "gs:12:7:p.3",  # a menu's number is its position
        "g:12:7:p.3:extra:" + "x" * 80,
        " g:12:7:p",
    ],
)
def test_anything_else_is_not_a_move(custom_id: str) -> None:
    assert move_of(custom_id, {"values": ["p.3"]}) is None


def click(custom_id: object, kind: object = 3) -> dict[str, object]:
    return {"id": "1", "type": kind, "token": "t", "data": {"custom_id": custom_id}}


def test_a_click_on_a_move_control_is_guarded_by_its_step() -> None:
    """What web/interactions.py leaves to the game: moves, whose custom id holds the step."""
    assert step_guarded(click("g:12:7:buy.R3a.t2"))
    assert step_guarded(click("gs:12:7:1"))
    for payload in (
        click("lobby:12:join"),
        click("back:12"),
        click("x:12:1"),
        click("g:12:7:a b"),
        click(12),
        click("g:12:7:p", kind=2),  # a command cannot carry a move's id: asked anyway
        {"id": "1", "type": 3, "data": "g:12:7:p"},
        {"id": "1", "type": 3},
    ):
        assert not step_guarded(payload), payload


def test_the_guard_knows_moves_and_no_dynamic_item_takes_them() -> None:
    rows = move_rows(12, 7, [Button("3", "p.3"), Select("Pay", (("two", "pay.2", None),))])
    ids = [c["custom_id"] for row in rows.components() for c in row["components"]]
    assert ids == ["g:12:7:p.3", "gs:12:7:1"]
    for custom_id in ids:
        assert ours(custom_id) and move_of(custom_id, {"values": ["pay.2"]}) is not None
        assert not ControlButton.__discord_ui_compiled_template__.fullmatch(custom_id)


@pytest.mark.parametrize("action", ["a b", "p.3:extra", "x" * 81])
def test_a_button_the_guard_would_not_route_is_never_drawn(action: str) -> None:
    with pytest.raises(ValueError, match="is not a move button's id"):
        move_rows(12, 7, [Button("odd", action)])
