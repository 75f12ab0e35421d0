"""A multipart/form-data body (a message with files) read as Discord reads it: ``payload_json``
and the ``files[n]`` parts.

The body is read whole and cut at its boundary in one pass (bytes.split, in C): aiohttp's
streaming part reader looks for the boundary chunk by chunk in Python, a few tenths of a
millisecond of the fake's own time for a 28 kB picture, which a click's answer would be timed
with (the fake stamps a callback once its body is parsed). For the same reason a part's
Content-Disposition of the usual shape is read here, not by aiohttp's full RFC 6266 parser
(about 50 µs a header, two a picture); any other shape still goes to that parser.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp.helpers import parse_mimetype
from aiohttp.multipart import parse_content_disposition

from .messages import UploadedFile

FILE_FIELD = re.compile(r"files\[(\d+)\]|file(\d*)")
# form-data and quoted parameters without escapes: name="...", filename="..."
PLAIN_DISPOSITION = re.compile(r'form-data(?:; ?[A-Za-z]+="[^"\\\r\n]*")*')
PLAIN_PARAMETER = re.compile(r'([A-Za-z]+)="([^"\\\r\n]*)"')


def parse_multipart(content_type: str, body: bytes) -> tuple[Any, list[UploadedFile]]:
    """(the ``payload_json`` part as JSON, the file parts); ValueError for a body that is not
    multipart with the boundary its Content-Type names."""
    boundary = parse_mimetype(content_type).parameters.get("boundary", "")
    if not boundary:
        raise ValueError("multipart without a boundary")
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    pieces = (b"\r\n" + body).split(delimiter)
    if len(pieces) < 2 or not pieces[-1].startswith(b"--"):
        raise ValueError("multipart body without its closing boundary")
    payload: Any = None
    files: list[UploadedFile] = []
    for piece in pieces[1:-1]:  # the preamble before the first, the epilogue after the last
        _, newline, rest = piece.partition(b"\r\n")  # the rest of the boundary's line
        head, blank, content = rest.partition(b"\r\n\r\n")
        if not newline or not blank:
            raise ValueError("a multipart part without headers")
        headers = _headers(head)
        params = disposition(headers.get("content-disposition"))
        name = params.get("name", "")
        if name == "payload_json":
            payload = json.loads(content)
            continue
        match = FILE_FIELD.fullmatch(name)
        index = int(match.group(1) or match.group(2) or 0) if match is not None else 0
        files.append(
            UploadedFile(
                index=index,
                filename=params.get("filename") or f"file{index}",
                content_type=headers.get("content-type", "application/octet-stream"),
                content=content,
                field=name,
            )
        )
    return payload, files


def disposition(value: str | None) -> dict[str, str]:
    """A part's Content-Disposition parameters, their names in lower case, as aiohttp's
    ``parse_content_disposition`` gives them."""
    if value is not None and PLAIN_DISPOSITION.fullmatch(value):
        found = {name.lower(): text for name, text in PLAIN_PARAMETER.findall(value)}
        if len(found) == value.count('="'):  # no name twice (aiohttp then finds none)
            return found
    return dict(parse_content_disposition(value)[1])


def _headers(head: bytes) -> dict[str, str]:
    found = {}
    for line in head.decode("utf-8").split("\r\n"):
        key, colon, value = line.partition(":")
        if colon:
            found[key.strip().lower()] = value.strip()
    return found
