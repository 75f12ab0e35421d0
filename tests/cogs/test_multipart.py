"""discordkit.multipart: the body of a message with files reads back as Discord reads it (the
fake's part reader and aiohttp's own), part for part what discord.py's form sends."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp.base_protocol import BaseProtocol
from discord.http import handle_message_parameters

from discordkit import multipart
from discordkit.multipart import message_form, params_body
from tests.fakediscord import forms
from tests.fakediscord.forms import parse_multipart

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 60  # 15 kB, every byte value
PAYLOAD: dict[str, Any] = {
    "content": "Your hand: é ♥",
    "tts": False,
    "attachments": [{"id": 0, "filename": "hand.png"}],
}

# (part name, file name, Content-Type, content) as aiohttp's reader sees a part.
Part = tuple[str | None, str | None, str | None, bytes]


async def aiohttp_parts(body: bytes, content_type: str) -> list[Part]:
    """The parts aiohttp's ``MultipartReader`` finds in a body (as an aiohttp server would)."""
    loop = asyncio.get_running_loop()
    stream = aiohttp.StreamReader(BaseProtocol(loop), 2**22, loop=loop)
    stream.feed_data(body)
    stream.feed_eof()
    reader = aiohttp.MultipartReader({"Content-Type": content_type}, stream)
    parts: list[Part] = []
    while (part := await reader.next()) is not None:
        assert isinstance(part, aiohttp.BodyPartReader)
        content = bytes(await part.read(decode=False))
        parts.append((part.name, part.filename, part.headers.get("Content-Type"), content))
    return parts


def png(content: bytes = PNG, name: str = "hand.png") -> discord.File:
    return discord.File(io.BytesIO(content), filename=name)


async def test_the_json_and_the_file_read_back_by_both_readers() -> None:
    body, content_type = message_form(PAYLOAD, [png()])
    assert content_type.startswith("multipart/form-data; boundary=")

    payload, files = parse_multipart(content_type, body)
    assert payload == PAYLOAD
    [uploaded] = files
    assert (uploaded.field, uploaded.index, uploaded.filename) == ("files[0]", 0, "hand.png")
    assert (uploaded.content_type, uploaded.content) == ("application/octet-stream", PNG)

    assert await aiohttp_parts(body, content_type) == [
        ("payload_json", None, "application/json", discord.utils._to_json(PAYLOAD).encode()),
        ("files[0]", "hand.png", "application/octet-stream", PNG),
    ]


DELIMITER_LIKE = [
    b"\r\n--",
    b"--\r\n",
    b"\r\n\r\n",
    b"\r\n--" + b"0" * 32 + b"--\r\n",
    b"--\r\n--\r\n\r\n--",
    b"\r\n",
]


@pytest.mark.parametrize("content", DELIMITER_LIKE, ids=repr)
async def test_crlf_and_dashes_in_a_file_survive(content: bytes) -> None:
    for data in (content, content + PNG + content, b"x" + content + b"x"):
        body, content_type = message_form(PAYLOAD, [png(data)])
        [uploaded] = parse_multipart(content_type, body)[1]
        assert uploaded.content == data
        assert (await aiohttp_parts(body, content_type))[1][3] == data


async def test_two_files_keep_their_order_and_indices() -> None:
    first, second = b"first\r\n--" + PNG, b"--second\r\n"
    payload = {
        "attachments": [{"id": 0, "filename": "table.png"}, {"id": 1, "filename": "hand.png"}]
    }
    body, content_type = message_form(payload, [png(first, "table.png"), png(second)])
    read_payload, files = parse_multipart(content_type, body)
    assert read_payload == payload
    assert [(f.field, f.index, f.filename, f.content) for f in files] == [
        ("files[0]", 0, "table.png", first),
        ("files[1]", 1, "hand.png", second),
    ]
    assert [(p[0], p[1], p[3]) for p in (await aiohttp_parts(body, content_type))[1:]] == [
        ("files[0]", "table.png", first),
        ("files[1]", "hand.png", second),
    ]


async def test_quotes_backslashes_and_accents_in_a_file_name_come_back() -> None:
    name = 'main "gauche" \\ é.png'
    body, content_type = message_form({}, [png(name=name)])
    assert parse_multipart(content_type, body)[1][0].filename == name
    assert (await aiohttp_parts(body, content_type))[1][1] == name


DISPOSITIONS = [
    'form-data; name="payload_json"',
    'form-data; name="files[0]"; filename="hand.png"',
    'form-data;name="files[1]";filename="round table.png"',
    'form-data; NAME="x"; FileName="a; b=c.png"',
    'form-data; name=""',
    "form-data",
    # shapes read by aiohttp's own parser
    'form-data; name="files[0]"; filename="main \\"gauche\\".png"',
    'Form-Data; name="x"',
    "form-data; name=x",
    "form-data; name=\"files[0]\"; filename*=utf-8''%C3%A9.png",
    'form-data;  name="x"',
    'attachment; filename="a.png"',
    'form-data; name="x"; name="y"',
    "",
    None,
]


@pytest.mark.parametrize("value", DISPOSITIONS)
def test_a_part_disposition_reads_as_aiohttp_reads_it(value: str | None) -> None:
    assert forms.disposition(value) == dict(aiohttp.multipart.parse_content_disposition(value)[1])


def test_the_usual_disposition_is_read_without_aiohttps_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(value: str | None) -> None:
        raise AssertionError(f"parsed by aiohttp: {value!r}")

    monkeypatch.setattr(forms, "parse_content_disposition", refuse)
    body, content_type = message_form(PAYLOAD, [png()])
    payload, [uploaded] = parse_multipart(content_type, body)
    assert (payload, uploaded.field, uploaded.filename) == (PAYLOAD, "files[0]", "hand.png")


def test_a_line_break_in_a_file_name_is_refused() -> None:
    with pytest.raises(ValueError, match="line break"):
        message_form({}, [png(name="hand.png\r\nContent-Type: text/html")])


def test_a_boundary_found_in_a_file_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    taken, fresh = "a" * 32, "b" * 32
    draws: Iterator[SimpleNamespace] = iter(
        [SimpleNamespace(hex=taken), SimpleNamespace(hex=fresh)]
    )
    monkeypatch.setattr(multipart, "uuid", SimpleNamespace(uuid4=lambda: next(draws)))
    body, content_type = message_form({}, [png(b"<" + taken.encode() + b">")])
    assert content_type == f"multipart/form-data; boundary={fresh}"
    assert parse_multipart(content_type, body)[1][0].content == b"<" + taken.encode() + b">"


def test_a_file_is_read_from_where_it_started_every_time() -> None:
    buffer = io.BytesIO(b"skip" + PNG)
    buffer.seek(4)
    file = discord.File(buffer, filename="hand.png")
    for _ in range(2):
        body, content_type = message_form({}, [file])
        assert parse_multipart(content_type, body)[1][0].content == PNG


async def discord_py_form(files: Sequence[discord.File], **fields: Any) -> tuple[bytes, str]:
    """The body discord.py sends for these message fields (its FormData, as HTTPClient builds
    it), its files put back where they started."""
    params = handle_message_parameters(files=files, **fields)
    form = aiohttp.FormData(quote_fields=False)
    for part in params.multipart or ():
        form.add_field(**part)
    writer = form()
    body = await writer.as_bytes()
    for file in files:
        file.reset()
    return body, writer.content_type


async def test_the_same_parts_as_discord_py_sends() -> None:
    files = [png(b"table\r\n--" + PNG, "table.png"), png(name="SPOILER_hand.png")]
    fields: dict[str, Any] = {"content": "hello", "embed": discord.Embed(title="Table")}
    theirs = await aiohttp_parts(*await discord_py_form(files, **fields))
    ours_payload = params_body(handle_message_parameters(files=files, **fields))
    ours = await aiohttp_parts(await ours_payload.as_bytes(), ours_payload.content_type)
    # Only the JSON part's Content-Type differs: aiohttp calls a text field text/plain,
    # Discord's documentation names application/json.
    assert [p[2] for p in theirs] == ["text/plain; charset=utf-8", *[p[2] for p in ours[1:]]]
    assert [(p[0], p[1], p[3]) for p in ours] == [(p[0], p[1], p[3]) for p in theirs]
    assert json.loads(ours[0][3])["attachments"] == [
        {"id": 0, "filename": "table.png"},
        {"id": 1, "filename": "SPOILER_hand.png"},
    ]


async def test_params_body_is_a_payload_aiohttp_sends_as_it_is() -> None:
    payload = params_body(handle_message_parameters(content="hi", file=png()))
    assert isinstance(payload, aiohttp.BytesPayload)
    assert payload.content_type.startswith("multipart/form-data; boundary=")
    assert payload.size == len(await payload.as_bytes())


def test_params_without_files_have_no_body() -> None:
    with pytest.raises(ValueError, match="without files"):
        params_body(handle_message_parameters(content="hi"))
