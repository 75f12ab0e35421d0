"""A hand picture is found again by the state it shows, not by its game's version alone: the
picture drawn ahead for a move whose commit failed is never shown for the state another
process saved at that version (real store and service, a painter that names what it drew)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from db.store import Store
from delivery.attachments import Attachments, always
from service.games import GameService
from service.reports import Loaded

HUMANS = (100, 101)


class _Painter:
    """Draws a 'picture' that is the view it was given, and counts its drawings."""

    def __init__(self) -> None:
        self.drawn = 0

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        self.drawn += 1
        view = args[0]
        return repr(sorted(view["hand"])).encode()

    async def close(self) -> None:
        return None


async def _hearts(store: Store) -> Loaded:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=30, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    return (await service.start(lobby.row.id, HUMANS[0])).after


def _two_moves(loaded: Loaded) -> tuple[Loaded, Loaded]:
    """The game at its next version as two processes could each have recorded it: two
    different moves of a seat with a choice (reached through the moves that offer none)."""
    game, state = loaded.game, loaded.state
    (seat,) = game.to_act(state)
    while len(legal := game.legal_actions(state, seat)) < 2:
        state = game.apply(state, seat, legal[0])
        (seat,) = game.to_act(state)
    first, second = random.Random(1).sample(legal, 2)

    def recorded(new: Any) -> Loaded:
        row = replace(loaded.row, version=loaded.row.version + 1, snapshot=game.to_json(new))
        return Loaded(row, loaded.seats, new)

    return recorded(game.apply(state, seat, first)), recorded(game.apply(state, seat, second))


async def test_a_picture_of_another_state_at_the_same_version_is_drawn_anew(
    store: Store,
) -> None:
    loaded = await _hearts(store)
    painter = _Painter()
    attachments = Attachments(painter, always)
    game = loaded.game
    mine, other = _two_moves(loaded)
    seat = next(
        s for s in range(2) if game.view(mine.state, s)["hand"] != game.view(other.state, s)["hand"]
    )
    assert mine.row.version == other.row.version
    drawn_ahead = await attachments.hand_png(mine, seat)
    shown = await attachments.hand_png(other, seat)
    assert painter.drawn == 2
    assert shown == repr(sorted(game.view(other.state, seat)["hand"])).encode()
    assert shown != drawn_ahead
    # the same state, loaded again (its snapshot read back as another string): found again
    snapshot = str(other.row.snapshot).encode().decode()
    again = Loaded(replace(other.row, snapshot=snapshot), other.seats, other.state)
    assert await attachments.hand_png(again, seat) == shown
    assert painter.drawn == 2
