"""The service's words: errors carry their message and are translated where they are shown
(in the language current there), public notices too."""

from __future__ import annotations

from typing import Any

import pytest

import i18n
from db.store import Store
from engine.base import IllegalAction
from service.boards import Boards
from service.errors import LobbyProblem, NoGame, RejectedMove
from service.games import GameService
from service.leaving import leave_game
from service.reports import Loaded
from service.servers import BadSetting, describe_timeout, parse_timeout

HOST, BOB = 100, 101


async def _lobby(service: GameService) -> Loaded:
    return await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )


async def test_lobby_errors_are_translated_where_they_are_shown(store: Store) -> None:
    service = GameService(store)
    gid = (await _lobby(service)).row.id
    with pytest.raises(LobbyProblem) as joined:
        await service.join(gid, HOST, "Host")
    assert str(joined.value) == "You are already in this game."  # English: logs and tests
    assert joined.value.message == "You are already in this game."
    with i18n.using("lt"):
        assert joined.value.translated() == "Tu jau esi šiame žaidime."
    with pytest.raises(LobbyProblem) as started:
        await service.start(gid, HOST)
    assert str(started.value) == "Grinch Grow Your Heart needs at least 2 players (you have 1)."
    with i18n.using("ro"):
        assert started.value.translated() == (
            "Grinch Grow Your Heart are nevoie de cel puțin 2 jucători (ai 1)."
        )
    with i18n.using("et"), pytest.raises(LobbyProblem) as busy:
        await _lobby(service)  # the language current where it is raised does not matter
    assert busy.value.translated().startswith("This channel already has a game.")
    with i18n.using("et"):
        assert busy.value.translated().startswith("Selles kanalis on juba mäng")


async def test_an_error_names_the_game_by_its_title_in_the_readers_language(store: Store) -> None:
    with pytest.raises(NoGame) as empty:
        await Boards(store).leaderboard(1, "ten")
    assert str(empty.value) == "No rated Ten games in this server yet."
    with i18n.using("ro"):
        shown = empty.value.translated()
    assert "Zece" in shown and "Ten" not in shown


def test_an_errors_later_values_are_translated_with_it() -> None:
    error = LobbyProblem("No rated {game} games in this server yet.", game=i18n.later("Cancelled."))
    assert str(error) == "No rated Cancelled. games in this server yet."
    with i18n.using("ro"):
        assert error.translated() == "Încă nu există jocuri Anulat. cu rating pe acest server."


async def test_an_engine_reason_is_translated_with_its_values(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(store, turn_timeout=0)
    gid = (await _lobby(service)).row.id
    await service.join(gid, BOB, "Bob")
    loaded = (await service.start(gid, HOST)).after
    seat = next(s for s in loaded.seats if s.seat in loaded.game.to_act(loaded.state))
    assert seat.user_id is not None

    def refuse(state: Any, seat: int, action: Any) -> Any:
        raise IllegalAction("No rated {game} games in this server yet.", game="Ten")

    monkeypatch.setattr(loaded.game, "apply", refuse)
    action = str(loaded.game.legal_actions(loaded.state, seat.seat)[0])
    with pytest.raises(RejectedMove) as raised:
        await service.act(gid, seat.user_id, seat.step, action)
    assert str(raised.value) == "No rated Ten games in this server yet."
    with i18n.using("lt"):
        assert raised.value.translated() == "Šiame serveryje dar nėra reitinguotų žaidimų Ten."


def test_the_engines_own_reason_is_in_the_catalogs() -> None:
    with i18n.using("et"):
        assert i18n.translate("That seat is not in this game.") == "Seda kohta selles mängus pole."


async def test_a_public_notice_is_translated_where_it_is_shown(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    gid = (await _lobby(service)).row.id
    await service.join(gid, BOB, "Bob")
    await service.start(gid, HOST)
    with i18n.using("ro"):  # the player who leaves clicks in Romanian ...
        left = await leave_game(service, gid, BOB)
    notice = left.report.notices[0]
    assert isinstance(notice, i18n.Later)
    with i18n.using("lt"):  # ... the channel reads Lithuanian, the level too
        assert str(notice) == f"🚪 Bob paliko žaidimą; vietą perėmė {left.computer} 🤖 vidutinis."
    assert str(notice) == f"🚪 Bob left the game; {left.computer} 🤖 normal plays their seat."


def test_turn_timers_are_described_with_each_languages_plurals() -> None:
    with i18n.using("lt"):
        assert [describe_timeout(s) for s in (0, 60, 7200, 21 * 86400, 15 * 60)] == [
            "išjungtas",
            "1 minutė",
            "2 valandos",
            "21 diena",
            "15 minučių",
        ]
    with i18n.using("ro"):
        assert describe_timeout(20 * 60) == "20 de minute"
        assert describe_timeout(3 * 3600) == "3 ore"
    with i18n.using("et"):
        assert describe_timeout(86400) == "1 päev" and describe_timeout(90) == "90 sekundit"
        with pytest.raises(BadSetting) as refused:
            parse_timeout("45d")
        assert refused.value.translated().startswith("Käigu aeg võib olla 1 minutist 30 päevani")
