"""The check every finished game of the end-to-end suite passes: the score chart, `/scores`, the
result message and the stored results give every player the same total.

The result is the channel's message that carries the chart (``scores.png``); the chart's
numbers are the ones the bot drew, which it writes into the PNG (its ``scores`` text: the
totals after each round and the winners); ``/scores`` is asked for as a player would. Each
is read per seat by the seat's name (a computer's label starts with its name), so the
check holds in any language.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from PIL import Image

from tests.fakediscord import FakeDiscord

JSON = dict[str, Any]
CHART = "scores.png"
DATA_KEY = "scores"  # presentation.drawing.chart.DATA_KEY
# "**Ann** — 12", "**Robo 🤖 normal (took Bo's seat)** — **12**": a name in bold, a total.
LINE = re.compile(r"\*\*(?P<name>[^*\n]+)\*\* — \**(?P<total>-?\d+)\**")
SOLO = re.compile(r"\*\*(?P<name>[^*\n]+)\*\*[^*\n]*\*\*(?P<total>-?\d+)\*\*")


def _embed_text(embed: JSON) -> str:
    parts = [str(embed.get("title") or ""), str(embed.get("description") or "")]
    parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
    return "\n".join(parts)


def _by_seat(text: str, names: list[str], *, solo: bool = False) -> dict[int, int]:
    """Each seat's total in ``text``, read from its bold "name — total" line."""
    found: dict[int, int] = {}
    longest_first = sorted(range(len(names)), key=lambda s: -len(names[s]))
    for match in (SOLO if solo else LINE).finditer(text):
        label = match["name"].strip()
        seat = next((s for s in longest_first if label.startswith(names[s])), None)
        if seat is not None and seat not in found:
            found[seat] = int(match["total"])
    return found


def result_message(fake: FakeDiscord, channel: int) -> JSON:
    """The newest message of the channel that carries the score chart: the result."""
    for message in reversed(fake.messages(channel)):
        if any(a.get("filename") == CHART for a in message.get("attachments") or []):
            return message
    raise LookupError(f"no result with a score chart in channel {channel}")


def _result_in_words(fake: FakeDiscord, channel: int, names: list[str]) -> JSON:
    """Without pictures (a server that turned them off): the newest message of the channel
    whose last embed gives every seat a total, which only the result does."""
    for message in reversed(fake.messages(channel)):
        embeds = message.get("embeds") or []
        if embeds and len(_by_seat(_embed_text(embeds[-1]), names, solo=len(names) == 1)) == len(
            names
        ):
            return message
    raise LookupError(f"no result in channel {channel}")


def chart_data(fake: FakeDiscord, message: JSON) -> JSON:
    """The numbers the chart on ``message`` shows, as the bot wrote them into it."""
    attachment = next(a for a in message["attachments"] if a.get("filename") == CHART)
    with Image.open(io.BytesIO(fake.attachment_content(attachment))) as image:
        image.load()
        texts: dict[str, str] = dict(getattr(image, "text", {}) or {})
    data: JSON = json.loads(texts[DATA_KEY])
    return data


def _stored(db: Path) -> tuple[int, list[str], list[int]]:
    with sqlite3.connect(db) as conn:
        (game_id,) = conn.execute(
            "SELECT id FROM games WHERE status = 'finished' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        names = [
            n
            for (n,) in conn.execute(
                "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
        totals = [
            t
            for (t,) in conn.execute(
                "SELECT total FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
    return int(game_id), names, totals


async def assert_scores_agree(fake: FakeDiscord, db: Path, channel: int, user: int) -> list[int]:
    """The newest finished game's chart, `/scores` (asked by ``user``), result message and
    stored results give each seat the same total, and the chart and the stored results the
    same winners (a server without pictures: no chart); returns the totals."""
    _game_id, names, stored = _stored(db)
    solo = len(names) == 1
    try:
        message: JSON = result_message(fake, channel)
    except LookupError:  # pictures turned off: no chart to read
        message, data = _result_in_words(fake, channel, names), None
    else:
        data = chart_data(fake, message)
    result = _by_seat(_embed_text(message["embeds"][-1]), names, solo=solo)
    rec = await fake.slash(user, channel, "scores")
    await rec.wait_response()
    sheet_embed = (await rec.wait_message()).get("embeds") or [{}]
    sheet = _by_seat(str(sheet_embed[0].get("description") or ""), names)
    every = dict(enumerate(stored))
    assert result == every, (result, every, message["embeds"][-1])
    assert sheet == every, (sheet, every, sheet_embed[0])
    if data is None:
        return stored
    chart = [int(t) for t in data["series"][-1]]
    assert chart == stored, (chart, stored)
    with sqlite3.connect(db) as conn:
        won = sorted(
            s
            for (s,) in conn.execute(
                "SELECT seat FROM results WHERE game_id = ? AND won ORDER BY seat", (_game_id,)
            )
        )
    assert sorted(data["winners"]) == won, (data["winners"], won)
    return stored
