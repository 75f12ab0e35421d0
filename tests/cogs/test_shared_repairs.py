"""Periodic repairs (cogs/upkeep.py): alone on its database a process redraws every game that
fell behind; beside other processes it redraws only a game still behind at the same version
as at its last look (a move newer than that may be in a live process's hands)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from cogs import Playing
from cogs.upkeep import UpkeepCog


class _Service:
    def __init__(self) -> None:
        self.versions: dict[int, int] = {}  # the games behind, and their versions

    async def stale_games(self) -> list[int]:
        return sorted(self.versions)

    async def load(self, game_id: int) -> Any:
        return SimpleNamespace(row=SimpleNamespace(id=game_id, version=self.versions[game_id]))


class _Publisher:
    def __init__(self) -> None:
        self.drawing: set[int] = set()
        self.repaired: list[int] = []

    def busy(self, game_id: int) -> bool:
        return game_id in self.drawing

    def repair(self, loaded: Any, *, urgent: bool) -> None:
        self.repaired.append(loaded.row.id)


def _cog() -> tuple[UpkeepCog, _Service, _Publisher]:
    service, publisher = _Service(), _Publisher()
    return (
        UpkeepCog(
            Playing(cast(Any, None), cast(Any, service), cast(Any, publisher), cast(Any, None))
        ),
        service,
        publisher,
    )


async def test_alone_every_game_behind_is_redrawn_at_once_unless_being_drawn() -> None:
    cog, service, publisher = _cog()
    service.versions = {1: 4, 2: 7}
    publisher.drawing = {2}
    assert await cog.repair(urgent=False) == 1
    assert publisher.repaired == [1]


async def test_beside_others_a_game_is_redrawn_when_still_behind_at_the_same_version() -> None:
    cog, service, publisher = _cog()
    behind: dict[int, int] = {}
    service.versions = {1: 4, 2: 7}
    assert await cog.repair(urgent=False, behind=behind) == 0  # first seen: maybe in hand
    assert behind == {1: 4, 2: 7}
    service.versions = {1: 4, 2: 8, 3: 1}  # game 2 moved on meanwhile, game 3 is new
    assert await cog.repair(urgent=False, behind=behind) == 1
    assert publisher.repaired == [1]
    assert behind == {1: 4, 2: 8, 3: 1}
    service.versions = {2: 8, 3: 1}  # game 1 was shown; 2 and 3 nobody showed
    publisher.drawing = {3}  # ... but this process is drawing 3 now
    assert await cog.repair(urgent=False, behind=behind) == 1
    assert publisher.repaired == [1, 2]
    assert behind == {2: 8}  # a game being drawn here is looked at again next time
