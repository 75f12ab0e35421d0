"""Play whole games through the service with random human moves (for the players' layer)."""

from __future__ import annotations

import random

from service.games import GameService
from service.reports import Loaded


async def play_game(
    service: GameService,
    *,
    game: str,
    guild: int,
    channel: int,
    humans: list[int],
    computers: int = 0,
    seed: int = 0,
) -> Loaded:
    """Open, fill, start and finish one game; humans choose at random."""
    loaded = await service.open_lobby(
        game=game, guild_id=guild, channel_id=channel, host_id=humans[0], host_name="P0"
    )
    gid = loaded.row.id
    for n, user in enumerate(humans[1:], start=1):
        await service.join(gid, user, f"P{n}")
    for _ in range(computers):
        await service.add_computer(gid, humans[0])
    loaded = (await service.start(gid, humans[0])).after
    rng = random.Random(seed)
    while loaded.row.status == "active":
        engine = loaded.game
        to_act = engine.to_act(loaded.state)
        seat = next(s for s in loaded.seats if s.seat in to_act and s.user_id is not None)
        assert seat.user_id is not None
        action = str(rng.choice(engine.legal_actions(loaded.state, seat.seat)))
        loaded = (await service.act(gid, seat.user_id, seat.step, action)).after
    return loaded
