"""``python bot.py ratings rebuild`` recomputes the ratings of a stopped bot's database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot
from db.opening import open_store
from service.games import GameService
from service.ratings import Ratings
from tests.players.helpers import play_game


async def _two_rated_games(path: Path) -> list[dict[str, object]]:
    store = await open_store(path)
    try:
        service = GameService(store, turn_timeout=0)
        service.on_finished.append(Ratings(store).rate)
        await play_game(service, game="hearts", guild=1, channel=10, humans=[1, 2], seed=4)
        await play_game(service, game="hearts", guild=1, channel=10, humans=[2, 3], seed=5)
        rows = await store.games.export_rows("ratings")
        await store.players.replace_ratings([], [])  # as if lost: the command must bring them back
        return rows
    finally:
        await store.close()


async def _ratings(path: Path) -> list[dict[str, object]]:
    store = await open_store(path)
    try:
        return await store.games.export_rows("ratings")
    finally:
        await store.close()


def test_the_command_rebuilds_what_the_games_gave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    expected = asyncio.run(_two_rated_games(path))
    assert len(expected) == 3 and asyncio.run(_ratings(path)) == []
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert bot.main(["ratings", "rebuild"]) == 0
    assert asyncio.run(_ratings(path)) == expected
