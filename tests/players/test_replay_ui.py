"""Replay steps rendered by the games' own table renderers; the guard knows the new buttons."""

from __future__ import annotations

import random

from cogs.guard import ours
from discordkit import to_discord
from discordkit.views import history_view, replay_view
from engine import GAMES
from engine.base import Level
from presentation import UIS
from presentation.replay import history_panel, replay_panels
from presentation.viewing import seat_names
from service.replays import Frame, Player, Summary

PLAYERS = (Player(0, "Ann", 1, False), Player(1, "Robo Max", None, True))


def _frames() -> tuple[Frame, Frame]:
    game = GAMES["hearts"]
    state = game.new_game(2, 4)
    rng = random.Random(1)
    steps = 0
    first = Frame(1, "hearts", 0, 0, game.view(state, None), PLAYERS, None)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        steps += 1
    last = Frame(1, "hearts", steps, steps, game.view(state, None), PLAYERS, (1, "x", "computer"))
    return replace_steps(first, steps), last


def replace_steps(frame: Frame, steps: int) -> Frame:
    return Frame(frame.game_id, frame.game, frame.step, steps, frame.view, frame.players, None)


def test_a_step_is_the_public_table_and_the_last_adds_the_result() -> None:
    first, last = _frames()
    start = replay_panels(first)
    table = UIS["hearts"].table(first.view, seat_names(PLAYERS))
    assert len(start) == 1 and (start[0].title, start[0].description) == (
        table.title,
        table.description,
    )
    assert f"step 0 of {first.steps}" in (start[0].footer or "")
    end = replay_panels(last)
    assert len(end) == 2
    assert end[1] == UIS["hearts"].result(last.view, seat_names(PLAYERS))
    said = UIS["hearts"].move_line("x", 1, last.view, seat_names(PLAYERS))  # not an action: generic
    assert said and "x" not in said.split()
    assert f"Robo Max 🤖: {said}" in (end[0].footer or "")


def test_a_step_says_the_move_in_the_games_words() -> None:
    game = GAMES["hearts"]
    state = game.new_game(2, 3)
    seat = min(game.to_act(state))
    action = game.legal_actions(state, seat)[0]
    after = game.apply(state, seat, action)
    frame = Frame(1, "hearts", 1, 9, game.view(after, None), PLAYERS, (seat, str(action), "player"))
    footer = replay_panels(frame)[0].footer or ""
    said = UIS["hearts"].move_line(str(action), seat, frame.view, seat_names(PLAYERS))
    assert f"{seat_names(PLAYERS).label(seat)}: {said}" in footer
    assert str(action) not in footer  # the engine's code is not shown


def test_replay_buttons_are_bounded_and_the_guard_knows_them() -> None:
    view = replay_view(12, 0, 40)
    ids = [str(getattr(item, "custom_id", "")) for item in view.children]
    assert ids == ["rp:12:0:f", "rp:12:0:b", "rp:12:1:n", "rp:12:40:l", "rx:12"]
    listing = history_view([5, 6])
    assert listing is not None
    assert [getattr(i, "custom_id", "") for i in listing.children] == ["rp:5:0:o", "rp:6:0:o"]
    assert all(ours(i) for i in ids)
    assert not ours("rp:12:9999999:n")


def test_a_replay_step_waits_for_nobody_and_sends_no_hand() -> None:
    for name, game in GAMES.items():
        count = max(2, game.min_players)
        state = game.new_game(count, 5)
        seated = tuple(
            Player(s, "Robo Max" if s == 1 else f"P{s + 1}", None if s == 1 else s + 1, s == 1)
            for s in range(count)
        )
        frame = Frame(1, name, 0, 9, game.view(state, None), seated, None)
        live = to_discord.embed(UIS[name].table(frame.view, seat_names(seated)))
        assert "DM" in (live.footer.text or ""), name  # the channel's table tells the players
        (step,) = (to_discord.embed(p) for p in replay_panels(frame))
        shown = f"{step.description}\n{step.footer.text}"
        assert "DM" not in shown and "Waiting for" not in shown, (name, shown)
        if name == "grinch":  # the Whos discard at once: the live table waits for them
            assert "Waiting for: ⏳ Robo Max" in (live.description or "")


def test_history_and_replays_show_a_computers_level() -> None:
    players = (Player(0, "Ann", 1, False), Player(1, "Robo Max", None, True, Level.HARD))
    _first, last = _frames()
    hard = Frame(1, "hearts", last.step, last.steps, last.view, players, last.move)
    end = replay_panels(hard)
    assert "Robo Max 🤖 hard: " in (end[0].footer or "")
    assert "Robo Max 🤖 hard" in str(end[0].fields) + str(end[1])  # the table and the result
    summary = Summary(1, "hearts", 0.0, players, (26, 0), frozenset({1}))
    listing = history_panel([summary], {"hearts": "2-Player Hearts"}).description
    assert "🏆 Robo Max 🤖 hard 0" in listing and "Ann 26" in listing


def test_a_seat_left_to_a_computer_names_its_person_for_their_moves_and_the_step_they_left() -> (
    None
):
    game = GAMES["hearts"]
    state = game.new_game(2, 3)
    seat = min(game.to_act(state))
    action = game.legal_actions(state, seat)[0]
    after = game.apply(state, seat, action)
    players = tuple(
        Player(s, "Robo Max", None, True, Level.NORMAL, "Bo")
        if s == seat
        else Player(s, "Ann", 1, False)
        for s in range(2)
    )
    view = game.view(after, None)
    moved = Frame(1, "hearts", 1, 9, view, players, (seat, str(action), "player"), (seat,))
    footer = replay_panels(moved)[0].footer or ""
    assert "Bo: " in footer and "Robo Max 🤖 normal:" not in footer, footer
    assert "Bo left the game; Robo Max 🤖 normal plays their seat from here." in footer
    by_computer = Frame(1, "hearts", 1, 9, view, players, (seat, str(action), "computer"))
    footer = replay_panels(by_computer)[0].footer or ""
    assert "Robo Max 🤖 normal:" in footer and "left the game" not in footer, footer
