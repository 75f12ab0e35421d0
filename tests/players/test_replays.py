"""History, replays and exports: an export replays to the stored final state in every game."""

from __future__ import annotations

import json

import pytest

from db.store import Store
from engine import GAMES
from service.errors import NoGame
from service.games import GameService
from service.replays import Replays, replay_export
from tests.players.helpers import play_game

PLAYERS = {"grinch": 2, "gnome": 3, "hearts": 2, "ten": 2}


def test_every_game_is_covered() -> None:
    assert set(PLAYERS) == set(GAMES)


@pytest.mark.parametrize("name", sorted(PLAYERS))
async def test_an_export_replays_to_the_same_final_state(store: Store, name: str) -> None:
    service = GameService(store, turn_timeout=0)
    humans = [300 + n for n in range(PLAYERS[name])]
    finished = await play_game(service, game=name, guild=1, channel=5, humans=humans, seed=9)
    replays = Replays(store)
    exported = json.loads(json.dumps(await replays.export(finished.row.id, guild_id=1)))
    game = GAMES[name]
    assert exported["seed"] == finished.row.seed and len(exported["players"]) == len(humans)
    assert len(exported["actions"]) == finished.row.version
    final = replay_export(exported)
    assert game.to_json(final) == finished.row.snapshot
    outcome = game.outcome(final)
    assert outcome is not None and exported["outcome"]["totals"] == list(outcome.totals)

    last = await replays.frame(finished.row.id, 10**6, guild_id=1)
    assert last.step == last.steps == finished.row.version
    assert last.view == game.view(final, None)
    middle = await replays.frame(finished.row.id, last.steps // 2, guild_id=1)
    assert middle.move is not None and middle.view == game.view(
        replay_export({**exported, "actions": exported["actions"][: middle.step]}), None
    )
    first = await replays.frame(finished.row.id, -3, guild_id=1)
    assert first.step == 0 and first.move is None
    assert first.view == game.view(game.new_game(len(humans), finished.row.seed), None)


async def test_a_tampered_export_is_refused(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    finished = await play_game(service, game="hearts", guild=1, channel=5, humans=[1, 2])
    data = await Replays(store).export(finished.row.id, guild_id=1)
    data["actions"][0]["action"] = data["actions"][1]["action"]
    with pytest.raises(ValueError, match="does not apply"):
        replay_export(data)
    with pytest.raises(ValueError, match="not a game export"):
        replay_export({"format": 99})


async def test_history_lists_newest_first_by_channel_or_player(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    one = await play_game(service, game="hearts", guild=1, channel=5, humans=[1, 2])
    two = await play_game(service, game="hearts", guild=1, channel=6, humans=[2, 3])
    await play_game(service, game="hearts", guild=2, channel=7, humans=[1, 3])
    replays = Replays(store)
    assert [s.game_id for s in await replays.recent(1)] == [two.row.id, one.row.id]
    assert [s.game_id for s in await replays.recent(1, channel_id=5)] == [one.row.id]
    assert [s.game_id for s in await replays.recent(1, user_id=3)] == [two.row.id]
    summary = (await replays.recent(1, channel_id=5))[0]
    assert [p.user_id for p in summary.players] == [1, 2] and len(summary.winners) == 1
    with pytest.raises(NoGame, match="another server"):
        await replays.frame(one.row.id, 0, guild_id=2)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=5, host_id=1, host_name="P0"
    )
    with pytest.raises(NoGame, match="finished"):
        await replays.export(lobby.row.id, guild_id=1)
