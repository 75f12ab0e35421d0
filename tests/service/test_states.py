"""A move's load reuses the state the game's last move made in this process, and only while
it is the database's: another process's move, or a new version, is parsed from its snapshot."""

from __future__ import annotations

import random
from dataclasses import replace

from db.models import GameRow, GameStatus
from db.store import Store
from engine import GAMES
from service.games import GameService
from service.reports import Loaded
from service.states import KnownStates

HOST, GUEST = 100, 101


async def _started(service: GameService) -> Loaded:
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    await service.join(lobby.row.id, GUEST, "Guest")
    return (await service.start(lobby.row.id, HOST)).after


async def _move(service: GameService, loaded: Loaded, rng: random.Random) -> Loaded:
    seat = loaded.seats[min(loaded.game.to_act(loaded.state))]
    assert seat.user_id is not None
    action = str(rng.choice(loaded.game.legal_actions(loaded.state, seat.seat)))
    return (await service.act(loaded.row.id, seat.user_id, seat.step, action)).after


def _parsed(loaded: Loaded) -> str:
    """The state as the database holds it, written out again."""
    assert loaded.row.snapshot is not None
    return loaded.game.to_json(loaded.game.from_json(loaded.row.snapshot))


async def test_the_next_load_is_the_last_moves_own_state(store: Store) -> None:
    service, rng = GameService(store, turn_timeout=0), random.Random(2)
    after = await _move(service, await _started(service), rng)
    again = await service.load(after.row.id)
    assert again.state is after.state
    assert again.game.to_json(again.state) == _parsed(again)


async def test_another_process_move_is_read_from_the_database(store: Store) -> None:
    here, there = GameService(store, turn_timeout=0), GameService(store, turn_timeout=0)
    rng = random.Random(3)
    mine = await _move(here, await _started(here), rng)
    theirs = await _move(there, await there.load(mine.row.id), rng)
    seen = await here.load(mine.row.id)
    assert seen.row.version == theirs.row.version > mine.row.version  # (forced moves may follow)
    assert seen.state is not mine.state
    assert seen.game.to_json(seen.state) == seen.game.to_json(theirs.state) == _parsed(seen)


def test_a_known_state_serves_only_its_own_version() -> None:
    ten = GAMES["ten"]
    first, second = ten.new_game(2, 1), ten.new_game(2, 2)
    known = KnownStates()
    row = _row(first, version=4)
    assert known.of(row) is known.of(row)  # parsed once, then the same object
    known.saw(replace(row, version=5, snapshot=ten.to_json(second)), second)
    assert known.of(replace(row, version=5, snapshot=ten.to_json(second))) is second
    older = known.of(row)  # the database went back to version 4's snapshot: parsed anew
    assert ten.to_json(older) == ten.to_json(first) and older is not second


def test_ended_games_are_forgotten_and_the_oldest_go_first() -> None:
    ten = GAMES["ten"]
    known = KnownStates(kept=2)
    rows = [replace(_row(ten.new_game(2, n), version=1), id=n) for n in range(3)]
    for row in rows:
        known.of(row)
    assert len(known) == 2
    known.of(replace(rows[2], status=GameStatus.FINISHED))
    assert len(known) == 1


def _row(state: object, *, version: int) -> GameRow:
    """A running Ten game's row holding ``state``'s snapshot at ``version``."""
    return GameRow(
        id=7,
        guild_id=1,
        channel_id=10,
        game="ten",
        status=GameStatus.ACTIVE,
        host_id=HOST,
        seed=1,
        options="{}",
        snapshot=GAMES["ten"].to_json(state),
        version=version,
        lobby_message_id=None,
        table_message_id=None,
        table_key=None,
        created_at=0.0,
        updated_at=0.0,
        ended_at=None,
    )
