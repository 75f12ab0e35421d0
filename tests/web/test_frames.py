"""Frames of the live table (web/frames.py) on real positions of every game, checked by
tests/web/frames_check.py; and the check catches a frame made wrongly on purpose."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from db.models import ActionRow, Actor, GameRow, GameStatus, SeatRow
from engine import GAMES
from engine.sheet import final_sheet
from presentation.viewing import Views
from service.reports import Loaded
from tests.web.frames_check import Leak, check_frame
from web.ending import ending_json
from web.frames import result_json, table_frame


def position(name: str, moves: int) -> Loaded:
    game = GAMES[name]
    players = max(game.min_players, 2)
    state = game.new_game(players, 7)
    rng = random.Random(name)
    for _ in range(moves):
        due = sorted(game.to_act(state))
        if not due or game.outcome(state) is not None:
            break
        seat = rng.choice(due)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    row = GameRow(1, 1, 2, name, GameStatus.ACTIVE, 10, 7, "{}", game.to_json(state), moves,
                  None, None, None, 0.0, 0.0, None)  # fmt: skip
    seats = [
        SeatRow(1, n, 10 + n, f"p{n}", False, True, 0, None, 0, False, None, None, False)
        for n in range(players)
    ]
    return Loaded(row, seats, state)


def frame_for(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    chosen = None if seat is None else loaded.seats[seat]
    frame: dict[str, Any] = json.loads(json.dumps(table_frame(loaded, chosen, Views(), [])))
    return frame


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("moves", [0, 9])
def test_each_viewer_gets_exactly_their_view(name: str, moves: int) -> None:
    loaded = position(name, moves)
    for seat in [None, *range(len(loaded.seats))]:
        frame = frame_for(loaded, seat)
        check_frame(frame, loaded.state, seat)
        assert frame["version"] == moves and frame["game"] == name


def test_the_check_catches_raw_state_and_another_seats_view() -> None:
    loaded = position("hearts", 3)
    game, state = loaded.game, loaded.state
    frame = frame_for(loaded, 0)
    raw = {**frame, "view": json.loads(game.to_json(state))}  # raw state instead of a view
    with pytest.raises(Leak):
        check_frame(raw, state, 0)
    swapped = {**frame, "view": json.loads(json.dumps(game.view(state, 1)))}
    with pytest.raises(Leak):
        check_frame(swapped, state, 0)
    hand = json.loads(json.dumps(game.view(state, 1)))["hand"]  # bob's hand in a side field
    with pytest.raises(Leak, match="hand"):
        check_frame({**frame, "panels": [{"cards": hand}]}, state, 0)
    check_frame(frame, state, 0)  # the frame as made passes


def test_every_seat_carries_its_running_timer_while_the_game_is_live() -> None:
    loaded = position("grinch", 3)
    seats = [replace(s, deadline=1764760030.0) if s.seat == 1 else s for s in loaded.seats]
    timed = Loaded(loaded.row, seats, loaded.state)
    for viewer in (None, 0, 1):
        shown = frame_for(timed, viewer)["seats"]
        assert [s["deadline"] for s in shown] == [None, 1764760030.0, None][: len(shown)]
    over = Loaded(replace(loaded.row, status=GameStatus.FINISHED), seats, loaded.state)
    assert all(s["deadline"] is None for s in frame_for(over, 0)["seats"])


def finished(name: str) -> tuple[Loaded, list[ActionRow]]:
    """A game of ``name`` played to its end by random moves, and its action log."""
    game = GAMES[name]
    players = max(game.min_players, 2)
    state = game.new_game(players, 7)
    rng = random.Random(name)
    actions: list[ActionRow] = []
    while game.outcome(state) is None:
        assert len(actions) < 20_000, f"{name} did not end"
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        actions.append(ActionRow(1, len(actions) + 1, seat, str(action), Actor.PLAYER, 0.0))
    row = GameRow(1, 1, 2, name, GameStatus.FINISHED, 10, 7, "{}", game.to_json(state),
                  len(actions), None, None, None, 0.0, 0.0, None)  # fmt: skip
    seats = [
        SeatRow(1, n, 10 + n, f"p{n}", False, True, 0, None, 0, False, None, None, False)
        for n in range(players)
    ]
    return Loaded(row, seats, state), actions


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_ending_is_the_score_sheets(name: str) -> None:
    loaded, actions = finished(name)
    game = loaded.game
    outcome = game.outcome(loaded.state)
    assert outcome is not None
    sheet = final_sheet(outcome, lowest_wins=game.lowest_wins)  # what the results store
    ending = json.loads(json.dumps(ending_json(loaded, actions)))
    rows = ending["standings"]
    assert sorted(r["seat"] for r in rows) == list(range(len(loaded.seats)))
    assert [r["place"] for r in rows] == sorted(sheet.places)  # best place first
    for r in rows:
        seat = r["seat"]
        assert (r["name"], r["total"], r["place"]) == (f"p{seat}", sheet.totals[seat],
                                                       sheet.places[seat])  # fmt: skip
        assert r["winner"] == (seat in sheet.winners)
    assert ending["names"] == [s.name for s in loaded.seats]
    assert ending["rounds"], "no round charted"
    assert ending["rounds"][-1] == list(sheet.totals)  # the chart ends at the result
    assert all(len(row) == len(loaded.seats) for row in ending["rounds"])
    assert ending["lowest_wins"] is game.lowest_wins


def test_a_last_result_carries_the_standings_and_the_final_table() -> None:
    loaded, actions = finished("hearts")
    ending = ending_json(loaded, actions)
    seat = loaded.seats[1]
    found = result_json(loaded, ending, seat=seat, views=Views())
    assert found is not None
    assert found["standings"] == ending["standings"] and found["rounds"] == ending["rounds"]
    final = json.loads(json.dumps(found["table"]))
    check_frame(final, loaded.state, 1)  # the last trick as seat 1 saw it, and no more
    assert final["status"] == "finished" and final["moves"] == [] and final["step"] is None
    assert final["version"] == len(actions)
    plain = result_json(loaded)
    assert plain is not None and "standings" not in plain and "table" not in plain
    running = Loaded(replace(loaded.row, status=GameStatus.ACTIVE), loaded.seats, loaded.state)
    assert result_json(running, ending, views=Views()) is None


def test_a_move_the_bot_plays_for_the_seat_is_not_offered() -> None:
    loaded = position("ten", 0)  # a turn's first draw is the only move: played for the seat
    game, state = loaded.game, loaded.state
    (seat,) = game.to_act(state)
    assert game.forced(state, seat) is not None
    frame = frame_for(loaded, seat)
    assert frame["to_act"] == [seat] and frame["moves"] == []
    drawn = game.apply(state, seat, game.forced(state, seat))
    after = Loaded(loaded.row, loaded.seats, drawn)  # now draw again or stop: the player's
    assert game.forced(drawn, seat) is None
    offered = {m["action"] for m in frame_for(after, seat)["moves"]}
    assert offered == {str(a) for a in game.legal_actions(drawn, seat)} and len(offered) > 1
