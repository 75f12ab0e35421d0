"""Attachments: a refused picture falls back to text once per channel; drawing never fails a
message."""

from __future__ import annotations

import io
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest

from delivery.attachments import NO_FILES_NOTICE, Attachments, always
from presentation.drawing.painters import InThread


class Channel:
    """Records sends; refuses any send with files while ``refuse_files`` is set."""

    def __init__(self, refuse_files: bool) -> None:
        self.refuse_files = refuse_files
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        if kwargs.get("files") and self.refuse_files:
            response = MagicMock(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})
        self.sent.append({"content": content, **kwargs})
        return MagicMock(id=len(self.sent))


def _file() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename="round.png")


async def test_missing_attach_files_sends_text_and_says_so_once() -> None:
    attachments = Attachments(InThread(), always)
    channel = Channel(refuse_files=True)
    await attachments.send(channel, 7, [_file()], embeds=["first"])  # type: ignore[arg-type]  # stand-ins
    await attachments.send(channel, 7, [], embeds=["second"])  # type: ignore[arg-type]  # stand-ins
    assert [s.get("embeds") or s["content"] for s in channel.sent] == [
        ["first"],
        NO_FILES_NOTICE,
        ["second"],
    ]
    assert attachments.no_files == {7}


async def test_other_refusals_are_not_taken_for_a_missing_permission() -> None:
    attachments = Attachments(InThread(), always)

    class Gone(Channel):
        async def send(self, content: str | None = None, **kwargs: Any) -> Any:
            raise discord.Forbidden(MagicMock(status=403, reason="x"), {"code": 50001})

    with pytest.raises(discord.Forbidden):
        await attachments.send(Gone(False), 8, [_file()], embeds=["x"])  # type: ignore[arg-type]  # stand-ins
    assert attachments.no_files == set()


async def test_pictures_with_files_go_out_in_the_same_message() -> None:
    attachments = Attachments(InThread(), always)
    channel = Channel(refuse_files=False)
    await attachments.send(channel, 9, [_file()], embeds=["round"])  # type: ignore[arg-type]  # stand-ins
    assert len(channel.sent) == 1 and channel.sent[0]["files"]
