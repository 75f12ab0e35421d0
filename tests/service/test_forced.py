"""A move the rules leave no choice about is played for the player, logged as 'forced'."""

from __future__ import annotations

from db.store import Store
from delivery.shown import forced_notes
from service.games import GameService
from service.reports import Move
from tests.service.test_games import HOST


async def test_a_turns_first_draw_in_ten_is_played_and_said(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=5, host_id=HOST, host_name="Host"
    )
    report = await service.start(lobby.row.id, HOST)
    assert [(m.seat, m.action, m.actor) for m in report.moves] == [(0, "draw", "forced")]
    assert [a.actor for a in await store.games.actions(lobby.row.id)] == ["forced"]
    after = report.after
    assert after.game.forced(after.state, 0) is None  # now draw or stop: the player decides
    assert len(after.game.legal_actions(after.state, 0)) > 1
    notes = forced_notes(report)
    assert set(notes) == {0} and "played for you" in str(notes[0]) and "Draw" in str(notes[0])


async def test_hearts_plays_the_last_card_of_a_hand_for_the_player(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=6, host_id=HOST, host_name="Host"
    )
    await service.add_computer(lobby.row.id, HOST)
    loaded = (await service.start(lobby.row.id, HOST)).after
    forced: list[Move] = []
    while loaded.row.status == "active" and not forced:
        seat = loaded.seats[0]
        legal = loaded.game.legal_actions(loaded.state, 0)
        report = await service.act(loaded.row.id, HOST, seat.step, str(legal[0]))
        forced = [m for m in report.moves if m.actor == "forced"]
        loaded = report.after
    assert forced and all(m.seat == 0 for m in forced)
    assert loaded.game.view(loaded.state, 0)["hand_no"] == 2  # the hand ended on it
