"""The floor of a move: a bot that does what every move needs and nothing of a game.

Started by ``bench.discord_floor`` as ``bench.discord_load`` starts the real bot: a real
process against the fake Discord (not a product entry point). ``FLOOR_TABLES`` is a JSON list
of tables, each ``{"channel": id, "players": [[user id, DM channel id], ...]}``;
``FLOOR_DB`` the SQLite file. At start it posts a message in every table's channel and a hand
message with one button in every player's DM, then for every click on a hand's button:

- one durable commit (aiosqlite, WAL, ``synchronous=FULL``, one 2 kB row);
- the click answered with an update of that hand (the interaction's own response, through
  ``discordkit.rest`` as the bot answers a move);
- the table's message edited and the next player's hand edited (two REST edits, each taking
  its slot from the bot's ``delivery.pacing.Pacer`` first, as the bot's writes do).

The real bot shares one commit among the moves saved together and coalesces a busy table's
edits; this one does neither, so its figure errs high rather than low.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from typing import Any

import aiosqlite
import discord
from discord.http import handle_message_parameters

from delivery.pacing import Pacer
from discordkit.rest import edit_message, update_clicked
from discordkit.to_discord import RawView, button

log = logging.getLogger("bench.floor")
PRIMARY = 1
ROW = 1
BLOB = "x" * 2048


@dataclass(slots=True)
class Seat:
    user: int
    dm: int
    message: int = 0
    moves: int = 0


@dataclass(slots=True)
class Table:
    channel: int
    seats: list[Seat]
    message: int = 0
    moves: int = 0


def hand(table: int, seat: int) -> RawView:
    """A hand: one button whose id names its table and seat."""
    play = button(f"floor:{table}:{seat}", "Play", PRIMARY, None)
    return RawView([{"type": ROW, "components": [play]}])


class FloorBot(discord.Client):
    def __init__(self, tables: list[Table], db_path: str) -> None:
        intents = discord.Intents.none()  # as bot.py asks
        intents.guilds = True
        intents.guild_messages = True
        super().__init__(intents=intents)
        self.tables = tables
        self.db_path = db_path
        self.db: aiosqlite.Connection | None = None
        # the bot's own pacing, so that no edit waits out a 429 (RATE_LIMIT_SCALE: the fake's)
        self.pacer = Pacer(scale=float(os.environ.get("RATE_LIMIT_SCALE", "1")))

    async def setup_hook(self) -> None:
        self.db = await aiosqlite.connect(self.db_path, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode = WAL")
        await self.db.execute("PRAGMA synchronous = FULL")
        await self.db.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, v TEXT)")
        await asyncio.gather(*(self._open(n, t) for n, t in enumerate(self.tables)))
        log.warning("floor: %d tables open", len(self.tables))

    async def _send(self, channel: int, **fields: Any) -> int:
        with handle_message_parameters(**fields) as params:
            data = await self.http.send_message(channel, params=params)
        return int(data["id"])

    async def _open(self, n: int, table: Table) -> None:
        table.message = await self._send(table.channel, content="Table: no move yet")
        for s, seat in enumerate(table.seats):
            seat.message = await self._send(seat.dm, content="Your hand", view=hand(n, s))

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("floor:"):
            return
        _, t_text, s_text = custom_id.split(":")
        t, s = int(t_text), int(s_text)
        table = self.tables[t]
        seat = table.seats[s]
        assert self.db is not None
        await self.db.execute("INSERT INTO moves (v) VALUES (?)", (BLOB,))  # one commit
        seat.moves += 1
        table.moves += 1
        await update_clicked(
            interaction,
            content=f"Your hand after {seat.moves} moves",
            view=hand(t, s),
        )
        following = (s + 1) % len(table.seats)
        after = table.seats[following]
        await asyncio.gather(
            self._edit(table.channel, table.message, content=f"Table: move {table.moves}"),
            self._edit(
                after.dm,
                after.message,
                content=f"Your turn after move {table.moves}",
                view=hand(t, following),
            ),
        )

    async def _edit(self, channel: int, message: int, **fields: Any) -> None:
        await self.pacer.slot(channel)
        try:
            await edit_message(self, channel, message, **fields)
        except discord.HTTPException:
            log.warning("edit of %s failed", message, exc_info=True)


def tables_from(text: str) -> list[Table]:
    return [
        Table(int(t["channel"]), [Seat(int(u), int(dm)) for u, dm in t["players"]])
        for t in json.loads(text)
    ]


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    bot = FloorBot(tables_from(os.environ["FLOOR_TABLES"]), os.environ["FLOOR_DB"])
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
