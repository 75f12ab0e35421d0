"""Watch: only the spectator's view is ever rendered, and spectators follow the table in
coalesced, bounded edits."""

from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from cogs import Playing
from cogs.watching import FOLLOW_SECONDS, WatchCog, Watcher, watch_kwargs
from db.models import GameStatus
from db.store import Store
from delivery.tables import TableMessages
from engine import GAMES
from presentation.viewing import Views
from service.errors import NoGame
from service.games import GameService
from service.reports import Loaded


async def _running(store: Store) -> Loaded:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=5, host_id=1, host_name="A"
    )
    await service.join(lobby.row.id, 2, "B")
    return (await service.start(lobby.row.id, 1)).after


class SpyGame:
    """The real game, recording every seat whose view is asked for."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.seats_viewed: list[int | None] = []

    def view(self, state: Any, seat: int | None) -> Any:
        self.seats_viewed.append(seat)
        return self._game.view(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


async def test_only_the_spectators_view_is_drawn(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = await _running(store)
    spy = SpyGame(GAMES["grinch"])
    monkeypatch.setattr(Loaded, "game", property(lambda self: spy))
    kwargs = watch_kwargs(loaded)
    assert spy.seats_viewed == [None]
    assert isinstance(kwargs["embed"], discord.Embed)
    rows = kwargs["view"].to_components()
    assert [c["custom_id"] for row in rows for c in row["components"]] == [
        f"watch:{loaded.row.id}:r"  # Refresh, while the game goes on
    ]
    finished = replace(loaded, row=replace(loaded.row, status=GameStatus.FINISHED))
    assert watch_kwargs(finished)["view"].to_components() == []
    with pytest.raises(NoGame):
        watch_kwargs(replace(loaded, state=None))


async def test_a_spectator_is_told_who_is_awaited_but_not_where_their_hand_comes(
    store: Store,
) -> None:
    loaded = await _running(store)
    embed = watch_kwargs(loaded)["embed"]
    assert "Waiting for: ⏳ B" in (embed.description or "")
    assert embed.footer.text is None or "DM" not in embed.footer.text
    tables = SimpleNamespace(views=Views(), live_button=False)
    table = TableMessages.kwargs(cast(Any, tables), loaded)[1]["embeds"][-1]
    assert "Your hand comes by DM" in (table.footer.text or "")  # the channel's table says it


async def test_the_turn_timers_follow_who_the_table_waits_for(store: Store) -> None:
    service = GameService(store, turn_timeout=60)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=5, host_id=1, host_name="A"
    )
    await service.join(lobby.row.id, 2, "B")
    loaded = (await service.start(lobby.row.id, 1)).after
    lines = (watch_kwargs(loaded)["embed"].description or "").splitlines()
    assert lines[-2:-1] == ["Waiting for: ⏳ B"] and lines[-1].startswith("⏱ B <t:"), lines


async def test_spectators_follow_in_one_edit_per_burst(store: Store) -> None:
    loaded = await _running(store)
    publisher: Any = MagicMock()
    publisher.table_drawn = []
    publisher.pacer.slot = AsyncMock()
    cog = WatchCog(Playing(MagicMock(), MagicMock(), publisher, MagicMock()), coalesce=0.01)
    await cog.cog_load()
    assert publisher.table_drawn == [cog.table_drawn]
    fresh, old, broken = (MagicMock() for _ in range(3))
    for watcher in (fresh, old, broken):
        watcher.edit_original_response = AsyncMock()
    broken.edit_original_response.side_effect = discord.HTTPException(MagicMock(), "gone")
    now = time.monotonic()
    cog.watchers[loaded.row.id] = {
        7: Watcher(fresh, now),
        8: Watcher(old, now - FOLLOW_SECONDS - 1),
        9: Watcher(broken, now),
    }
    cog.table_drawn(loaded)
    cog.table_drawn(loaded)  # a burst: one edit
    await cog._tasks[loaded.row.id]
    assert fresh.edit_original_response.await_count == 1
    assert old.edit_original_response.await_count == 0
    assert set(cog.watchers[loaded.row.id]) == {7}
    finished = replace(loaded, row=replace(loaded.row, status=GameStatus.FINISHED))
    cog.table_drawn(finished)
    await cog._tasks[loaded.row.id]
    assert loaded.row.id not in cog.watchers  # the game is over: nobody follows it now
    await cog.cog_unload()
    assert publisher.table_drawn == []
