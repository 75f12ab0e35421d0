"""A game's status and a move's actor go into the store as the strings its schema knows and
come back as the ``StrEnum`` members: the database holds what it always held."""

from __future__ import annotations

import json

import pytest

from db.models import Actor, GameStatus
from db.play import SeatUpdate
from db.store import Store


async def _active_game(store: Store, channel: int = 10) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=channel, game="grinch", host_id=100, host_name="Host", seed=7
    )
    assert type(row.status) is GameStatus and row.status is GameStatus.LOBBY
    started = await store.play.start(row.id, "{}", {0: None})
    assert started.status is GameStatus.ACTIVE
    return row.id


@pytest.mark.parametrize("actor", list(Actor))
async def test_every_actor_round_trips_as_the_stored_string(store: Store, actor: Actor) -> None:
    game = await _active_game(store)
    await store.play.record_move(
        game,
        expected_version=0,
        seat=0,
        action="x",
        actor=actor,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, None, 0, False)],
    )
    [read] = await store.games.actions(game)
    assert type(read.actor) is Actor and read.actor is actor
    [raw] = await store.games.export_rows("actions")
    assert type(raw["actor"]) is str and raw["actor"] == actor.value  # the schema's word
    assert json.dumps(read.actor) == f'"{actor.value}"'  # as a game's export writes it


@pytest.mark.parametrize("status", [GameStatus.CANCELLED, GameStatus.FINISHED])
async def test_an_ended_game_reads_back_its_status(store: Store, status: GameStatus) -> None:
    game = await _active_game(store)
    assert await store.play.end(game, status)
    row = await store.games.game(game)
    assert type(row.status) is GameStatus and row.status is status
    assert not row.is_open
    assert [r.id for r in await store.games.games_with_status(status)] == [game]
    [raw] = await store.games.export_rows("games")
    assert type(raw["status"]) is str and raw["status"] == status.value


async def test_a_finishing_move_stores_finished(store: Store) -> None:
    game = await _active_game(store)
    await store.play.record_move(
        game,
        expected_version=0,
        seat=0,
        action="x",
        actor=Actor.PLAYER,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, None, 0, False)],
        results=[(0, 100, 3, True)],
    )
    assert (await store.games.game(game)).status is GameStatus.FINISHED
    assert await store.games.latest_game_in_channel(10) == await store.games.game(game)
    shown = await store.shown.shown_ids(game)
    assert shown is not None and shown.status is GameStatus.FINISHED


def test_the_values_are_the_schemas_words() -> None:
    assert [s.value for s in GameStatus] == ["lobby", "active", "finished", "cancelled"]
    assert [a.value for a in Actor] == ["player", "computer", "timeout", "autopilot", "forced"]
    assert [s for s in GameStatus if s.is_open] == [GameStatus.LOBBY, GameStatus.ACTIVE]
