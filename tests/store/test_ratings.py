"""Ratings on both engines: each finished game rates its humans once, and a rebuild from the
stored results gives exactly the values the incremental updates gave."""

from __future__ import annotations

from db.store import Store
from service.games import GameService
from service.ratings import DEFAULT_SKILL, Ratings, ordinal
from tests.players.helpers import play_game

A, B, C = 501, 502, 503


async def _snapshot(store: Store) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    return await store.games.export_rows("ratings"), await store.games.export_rows("rating_history")


async def test_games_are_rated_once_and_a_rebuild_gives_the_same_values(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    ratings = Ratings(store)
    service.on_finished.append(ratings.rate)
    first = await play_game(service, game="hearts", guild=1, channel=10, humans=[A, B], seed=1)
    await play_game(service, game="grinch", guild=1, channel=10, humans=[A, B, C], computers=1)
    await play_game(service, game="hearts", guild=1, channel=11, humans=[B, A], seed=2)
    await play_game(service, game="hearts", guild=2, channel=20, humans=[A, C], seed=3)
    solo = await play_game(service, game="grinch", guild=1, channel=12, humans=[C], computers=1)

    board = await store.players.leaderboard(1, "hearts", limit=10)
    assert {r.user_id for r in board} == {A, B}
    assert all(r.games == 2 for r in board)
    assert sum(r.wins for r in board) == 2
    assert board[0].ordinal >= board[1].ordinal
    assert {r.user_id for r in await store.players.leaderboard(2, "hearts", limit=10)} == {A, C}
    grinch = {r.user_id: r for r in await store.players.leaderboard(1, "grinch", limit=10)}
    assert set(grinch) == {A, B, C} and all(r.games == 1 for r in grinch.values())

    # A game with one human is not rated; rating a game twice changes nothing.
    assert await ratings.rate(solo.row.id) == []
    assert await ratings.rate(first.row.id) == []
    results = await store.games.result_rows(first.row.id)
    places = [r.place for r in results if r.place is not None]
    winners = [r.seat for r in results if r.won]
    assert len(places) == len(results)  # every seat has its place
    assert places[winners[0]] == 1 and sorted(places) == [1, 2]

    trend = await store.players.rating_trend(1, A, "hearts", last=10)
    assert [h.game_id for h in trend] == sorted(h.game_id for h in trend)
    assert trend[0].before == ordinal(DEFAULT_SKILL) and trend[1].before == trend[0].ordinal

    incremental = await _snapshot(store)
    rebuilt = await ratings.rebuild()
    assert (rebuilt.games, rebuilt.players) == (4, 7)
    assert await _snapshot(store) == incremental


async def test_catch_up_rates_a_game_finished_while_no_one_was_listening(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    game = await play_game(service, game="hearts", guild=1, channel=10, humans=[A, B])
    assert await store.players.leaderboard_size(1, "hearts") == 0
    ratings = Ratings(store)
    assert await ratings.catch_up() == 1
    assert await ratings.catch_up() == 0
    assert await store.players.leaderboard_size(1, "hearts") == 2
    history = await store.players.rating_trend(1, A, "hearts", last=5)
    assert [h.game_id for h in history] == [game.row.id]
    lines = {line.game: line for line in await store.players.score_lines(1, A)}
    assert lines["hearts"].games == 1
