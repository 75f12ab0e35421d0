"""Server settings on both engines: a lobby keeps its server's turn timer, computers can be
refused, and long timers remind the player once per deadline."""

from __future__ import annotations

import pytest

from db.store import Store
from service.errors import LobbyProblem
from service.games import GameService
from service.servers import HOUR, BadSetting, ServerSettings, describe_timeout, parse_timeout
from tests.clock import Clock


def test_timer_texts() -> None:
    assert parse_timeout("off") == 0 and parse_timeout("15m") == 900
    assert parse_timeout("2 hours") == 7200 and parse_timeout("3d") == 3 * 86400
    for bad in ("soon", "0m", "31d", "-5m"):
        with pytest.raises(BadSetting):
            parse_timeout(bad)
    assert [describe_timeout(s) for s in (0, 60, 7200, 86400, 90)] == [
        "off",
        "1 minute",
        "2 hours",
        "1 day",
        "90 seconds",
    ]


async def test_settings_reach_new_games_and_remind_before_long_deadlines(store: Store) -> None:
    clock = Clock(1_000_000.0)
    service = GameService(store, turn_timeout=300, clock=clock)
    servers = ServerSettings(store, default_timeout=300)
    assert (await servers.get(1)).turn_timeout is None
    saved = await servers.update(1, turn_timer="2h", computers=False)
    assert (saved.turn_timeout, saved.computers) == (2 * HOUR, False)
    assert (await servers.update(1)) == saved  # nothing given, nothing changed
    assert (await servers.get(2)).computers is True  # another server keeps the defaults

    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=5, host_id=10, host_name="A"
    )
    assert lobby.row.turn_timeout == 2 * HOUR
    with pytest.raises(LobbyProblem, match="do not allow computer"):
        await service.add_computer(lobby.row.id, 10)
    await service.join(lobby.row.id, 11, "B")
    started = (await service.start(lobby.row.id, 10)).after
    due = [s for s in started.seats if s.deadline is not None]
    assert len(due) == 1 and due[0].deadline == clock.now + 2 * HOUR

    assert await servers.due_reminders(clock.now + HOUR) == []
    reminders = await servers.due_reminders(clock.now + 1.5 * HOUR + 1)
    assert [(r.user_id, r.deadline, r.game) for r in reminders] == [
        (due[0].user_id, due[0].deadline, "hearts")
    ]
    await servers.reminded(reminders[0])
    assert await servers.due_reminders(clock.now + 1.5 * HOUR + 1) == []
    assert await servers.due_reminders(clock.now + 3 * HOUR) == []  # past the deadline

    other = await service.open_lobby(
        game="hearts", guild_id=2, channel_id=6, host_id=10, host_name="A"
    )
    assert other.row.turn_timeout is None  # the bot's default timer (300 s: no reminder)
    await service.add_computer(other.row.id, 10)


async def test_a_server_can_turn_pictures_off_and_the_bot_switch_wins(store: Store) -> None:
    clock = Clock(1_000_000.0)
    servers = ServerSettings(store, default_timeout=300, clock=clock)
    assert await servers.pictures_on(7) is True  # the default
    saved = await servers.update(7, pictures=False)
    assert saved.pictures is False and (await store.servers.guild_settings(7)).pictures is False
    assert await servers.pictures_on(7) is False  # the change is seen at once here
    assert await servers.pictures_on(8) is True  # other servers keep theirs
    other = ServerSettings(store, default_timeout=300, clock=clock)  # another process
    assert await other.pictures_on(7) is False
    await servers.update(7, pictures=True)
    assert await other.pictures_on(7) is False  # read less than a minute ago ...
    clock.now += 61
    assert await other.pictures_on(7) is True  # ... then read again
    off = ServerSettings(store, default_timeout=300, pictures=False)  # PICTURES=off
    assert await off.pictures_on(7) is False
