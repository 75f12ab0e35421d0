"""What the publisher keeps in the store: which games Discord shows up to date, DM channels."""

from __future__ import annotations

from db.models import Actor, GameStatus
from db.play import SeatUpdate
from db.store import Store

SNOWFLAKE = 1_234_567_890_123_456_789


async def _active_game(store: Store, channel: int) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=channel, game="grinch", host_id=100, host_name="Host", seed=7
    )
    await store.play.start(row.id, "{}", {0: None})
    return row.id


async def _move(store: Store, game_id: int, version: int) -> None:
    await store.play.record_move(
        game_id,
        expected_version=version,
        seat=0,
        action="x",
        actor=Actor.PLAYER,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, None, 0, False)],
    )


async def test_a_game_is_stale_until_its_latest_version_is_shown(store: Store) -> None:
    shown, behind = await _active_game(store, 10), await _active_game(store, 11)
    assert await store.shown.stale_games() == [shown, behind]  # started, nothing drawn yet
    await store.shown.set_rendered_version(shown, 0)
    await store.shown.set_rendered_version(behind, 0)
    assert await store.shown.stale_games() == []
    await _move(store, behind, 0)
    assert await store.shown.stale_games() == [behind]
    await store.shown.set_rendered_version(behind, 1)
    await store.shown.set_rendered_version(behind, 0)  # a late, older render never moves it back
    assert (await store.games.game(behind)).rendered_version == 1
    assert await store.shown.stale_games() == []


async def test_finished_games_without_dms_and_lobbies_are_never_stale(store: Store) -> None:
    game_id = await _active_game(store, 12)
    await store.lobbies.create_lobby(
        guild_id=1, channel_id=13, game="grinch", host_id=100, host_name="Host", seed=7
    )
    await store.play.end(game_id, GameStatus.FINISHED)
    assert await store.shown.stale_games() == []


async def test_a_finished_game_is_stale_while_a_dm_shows_an_older_version(store: Store) -> None:
    game_id = await _active_game(store, 14)
    await store.seats.set_dm(game_id, 0, channel_id=SNOWFLAKE, message_id=SNOWFLAKE + 1)
    await store.shown.set_shown_versions({game_id: 0}, {(game_id, 0): 0})
    assert await store.shown.stale_games() == []
    await _move(store, game_id, 0)
    await store.shown.set_shown_versions({game_id: 1}, {})  # the table shows the move, the DM not
    assert await store.shown.stale_games() == [game_id]
    await store.play.end(game_id, GameStatus.FINISHED)  # its last DM edit was lost to a crash
    assert await store.shown.stale_games() == [game_id]
    await store.shown.set_shown_versions({}, {(game_id, 0): 1})
    await store.shown.set_shown_versions({}, {(game_id, 0): 0})  # never moves back
    assert (await store.games.seats(game_id))[0].shown_version == 1
    assert await store.shown.stale_games() == []


async def test_a_restored_copy_forgets_what_its_open_games_show(store: Store) -> None:
    active, finished = await _active_game(store, 15), await _active_game(store, 16)
    for game_id in (active, finished):
        await store.seats.set_dm(game_id, 0, channel_id=SNOWFLAKE, message_id=SNOWFLAKE + 1)
        await store.shown.set_shown_versions({game_id: 0}, {(game_id, 0): 0})
    await store.play.end(finished, GameStatus.FINISHED)
    assert await store.shown.generation() == ""
    await store.shown.set_generation("abc")
    assert await store.shown.generation() == "abc"
    await store.shown.forget_shown()
    assert await store.shown.stale_games() == [active]
    assert (await store.games.seats(active))[0].shown_version == -1


async def test_a_users_dm_channel_is_remembered_across_games(store: Store) -> None:
    assert await store.games.dm_channel_of(100) is None
    first = await _active_game(store, 20)
    await store.seats.set_dm(first, 0, channel_id=SNOWFLAKE, message_id=SNOWFLAKE + 1)
    await store.play.end(first, GameStatus.FINISHED)
    await _active_game(store, 21)  # a newer game without a DM yet
    assert await store.games.dm_channel_of(100) == SNOWFLAKE
    assert await store.games.dm_channel_of(101) is None


async def test_a_working_database_is_writable(store: Store) -> None:
    await store.check_writable()  # raises DatabaseUnusable otherwise


async def test_a_forced_move_is_logged_as_such(store: Store) -> None:
    game_id = await _active_game(store, 30)
    await store.play.record_move(
        game_id,
        expected_version=0,
        seat=0,
        action="t.deck",
        actor=Actor.FORCED,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, None, 0, False)],
    )
    assert [a.actor for a in await store.games.actions(game_id)] == ["forced"]
