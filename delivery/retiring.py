"""Table messages replaced by a newer one, retired once their channel is quiet.

A round's end moves the table to a new message (delivery/tables.py). The one it replaced still
has its buttons; it loses them, and keeps only the summaries it carried above the table (those
of a round that is over), or says the table continues below if it carried none. That edit
waits until a call in its channel would delay no move's edit (:meth:`Pacer.spare`): while
friends play fast it waits, as it shows nothing new. What waits is recorded with the game
(``games.retiring_tables``), so a restart finishes it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import discord

from delivery.outbox import Outbox
from delivery.pacing import Pacer
from delivery.shown import GameShown
from discordkit.rest import edit_message
from i18n import N_, _
from service.games import GameService

log = logging.getLogger(__name__)

RETIRED_TABLE = N_("⬇️ This part is over; the table continues below.")
AGAIN = 1.0  # seconds before a retirement looks again whether its channel is quiet


def recorded(shown: GameShown) -> str | None:
    """The game's replaced tables not retired yet, as recorded (JSON; None: none)."""
    return json.dumps(shown.retiring) if shown.retiring else None


class Retirements:
    """The retirements of one bot: queued once per message in this process, each done when
    its edit went through or Discord said the message is gone or out of reach."""

    def __init__(
        self, bot: discord.Client, service: GameService, pacer: Pacer, outbox: Outbox
    ) -> None:
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self.outbox = outbox
        self._queued: set[int] = set()  # message ids queued in this process

    @staticmethod
    def add(shown: GameShown, message_id: int, head: list[dict[str, Any]]) -> None:
        """``message_id`` was replaced (``head``: the summaries it carried above its table);
        recorded by the caller with the new table (:func:`recorded`), then :meth:`resume`."""
        shown.retiring.append({"id": message_id, "head": head})

    def resume(self, shown: GameShown) -> None:
        """Queue the game's retirements that this process has not queued (all of them after
        a restart), in the current language."""
        for entry in list(shown.retiring):
            if int(entry["id"]) not in self._queued:
                self._queue(shown, int(entry["id"]), list(entry.get("head") or []))

    def _queue(self, shown: GameShown, message_id: int, head: list[dict[str, Any]]) -> None:
        channel_id = shown.loaded.row.channel_id
        lane = ("ch", channel_id)
        fields: dict[str, Any] = {"view": None}
        if head:
            fields["embeds"] = [discord.Embed.from_dict(e) for e in head]
        else:
            fields["content"] = _(RETIRED_TABLE)
        self._queued.add(message_id)

        async def job() -> None:
            if not self.pacer.spare(lane):  # friends are playing fast: look again later
                asyncio.get_running_loop().call_later(AGAIN, put)
                return
            await self.pacer.slot(lane, urgent=False)
            try:
                await edit_message(self.bot, channel_id, message_id, **fields)
            except discord.DiscordServerError:
                raise  # tried again by the outbox
            except discord.HTTPException as exc:  # gone, or the channel refuses: leave it
                log.info("could not retire an old table of game %s: %s", shown.loaded.row.id, exc)
            await self._done(shown, message_id)

        def put() -> None:
            self.outbox.put(lane, ("retire", message_id), job, quiet=True)

        put()

    async def _done(self, shown: GameShown, message_id: int) -> None:
        self._queued.discard(message_id)
        shown.retiring = [e for e in shown.retiring if int(e["id"]) != message_id]
        await self.service.showing.set_retiring_tables(shown.loaded.row.id, recorded(shown))
