""" "My hand" answers first and brings its picture after when the picture is slow to draw: the
answer never waits on a busy painter, and the player still gets the picture of their turn."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord

from cogs import Playing
from cogs.table import TableCog

CHANNEL = 7
ALICE = 100


class _Interaction:
    """The parts of an interaction ``send_hand`` uses: its response and its edits."""

    def __init__(self) -> None:
        self.id = 1
        self.channel_id = CHANNEL
        self.user = SimpleNamespace(id=ALICE)
        self.sent: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []
        self.response = SimpleNamespace(is_done=lambda: bool(self.sent), send_message=self._send)

    async def _send(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)


async def test_a_slow_picture_is_edited_into_the_answer_after_it() -> None:
    drawn = asyncio.Event()
    picture = object()  # stands for the discord.File

    async def with_picture(*_args: Any, **_kwargs: Any) -> dict[str, Any]:
        await drawn.wait()
        return {"files": [picture]}

    seat = SimpleNamespace(seat=0)
    loaded = SimpleNamespace(
        row=SimpleNamespace(channel_id=CHANNEL),
        seat_of=lambda user: seat if user == ALICE else None,
        left_by=lambda _user: False,
        state=object(),
    )

    async def load(_game_id: int) -> Any:
        return loaded

    desk = SimpleNamespace(hand=lambda *_args: {"content": "your hand"}, hand_picture=with_picture)
    service = SimpleNamespace(load=load)
    cog = TableCog(Playing(cast(Any, None), cast(Any, service), cast(Any, None), cast(Any, desk)))
    interaction = _Interaction()
    answering = asyncio.ensure_future(cog.send_hand(cast(discord.Interaction[Any], interaction), 5))
    for _ in range(500):  # answered while the picture is still being drawn
        if interaction.sent:
            break
        await asyncio.sleep(0.01)
    assert interaction.sent == [{"ephemeral": True, "content": "your hand"}]
    assert not answering.done()
    drawn.set()
    await answering
    assert interaction.edits == [{"attachments": [picture]}]
