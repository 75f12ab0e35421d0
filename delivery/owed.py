"""Posting what moves owe their channel (service.owed): each message once, crashes or not.

A round's summary, the result, a timeout's or a leave's line is recorded with the move that
owes it; here it is posted, then marked sent. The repairs (start-up, then periodically) post
what a stopped process left owed: :meth:`OwedPosts.repair`.

Exactly once towards Discord: every post carries its row's nonce, and discord.py sends
``enforce_nonce: true`` with any nonce. Discord then answers a create-message whose nonce the
bot used in the past few minutes with the message it created the first time, and creates no
other. So a process killed after Discord took a post but before the row was marked sent
posts it again after its restart (the row is still owed), and the channel shows it once.
Reading the channel's latest messages to look for it instead would cost a read per message
and could not tell two equal lines apart. The one case left: a post whose mark was lost and
that is repeated later than Discord's nonce window (a restart takes seconds, the repairs
look at start-up). Within this process a row is queued once (rows in flight are skipped);
among processes (PostgreSQL) a row is claimed by one at a time (db/outbox.py).

A round's summary in a game that goes on is not posted alone: it is *folded* into the next
round's table, one message instead of two (a channel allows about one write a second, and
friends who play fast fill every one). Such rows wait here (:meth:`OwedPosts.folds`) for the
table's job (delivery/tables.py), which posts them above the table with the first row's nonce,
then marks them sent (:meth:`OwedPosts.folded`). A row owed after them that cannot be folded
(a line, the result) first sends them on as messages of their own, so the channel keeps
the order they were owed in (:meth:`OwedPosts.unfold`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import discord

import i18n
from db.models import GameStatus
from delivery.attachments import Attachments
from delivery.outbox import Outbox
from delivery.pacing import Pacer
from delivery.speaking import Speaking
from discordkit import to_discord
from presentation import UIS
from presentation.viewing import Views, names_of
from service.errors import NoGame
from service.games import GameService
from service.owed import LINE, is_result, text_of
from service.reports import Loaded, Said

log = logging.getLogger(__name__)

BATCH = 20  # rows claimed at a time by a repair
BATCHES = 10  # claims at most per repair (the next repair takes the rest)


@dataclass(eq=False)
class OwedPosts:
    """Posts the rows a game owes its channel, in its channel's lane of the outbox.

    ``redraw``: told of each game whose owed rows a repair takes, before they are queued (the
    publisher redraws a finished game left behind with them); ``result_view``: the buttons
    under a finished game's result (Play again); ``fold``: told of a game with a summary
    waiting to be folded into its table (the publisher queues the table's job; None: every
    row is posted alone)."""

    bot: discord.Client
    service: GameService
    outbox: Outbox
    pacer: Pacer
    attachments: Attachments
    speaking: Speaking
    views: Views
    redraw: Callable[[Loaded], None]
    _: KW_ONLY
    result_view: Callable[[Loaded], discord.ui.View | None] | None = None
    fold: Callable[[Loaded], None] | None = None
    # nonces of the rows queued, being posted or waiting to be folded
    _flight: set[str] = field(default_factory=set, init=False, repr=False)
    # game id -> its summaries waiting for the table's job, oldest first
    _folding: dict[int, list[Said]] = field(default_factory=dict, init=False, repr=False)

    def round_ended(self, loaded: Loaded, before: Any, after: Any) -> bool:
        """Whether the move from ``before`` to ``after`` ends a round the channel is shown a
        summary of (the game's presentation has panels for it)."""
        if before is None:
            return False
        game = loaded.game
        views = self.views.of(game, before, None), self.views.of(game, after, None)
        return bool(UIS[loaded.row.game].summaries(*views, names_of(loaded)))

    def put(self, loaded: Loaded, said: Said) -> None:
        """Queue ``said`` in its channel's lane, or keep it for the table's job if it can be
        folded into the table (once: a row already queued or kept is left there)."""
        nonce = said.owed.nonce
        if nonce in self._flight:
            return
        self._flight.add(nonce)
        if self.fold is not None and _foldable(loaded, said):
            self._folding.setdefault(loaded.row.id, []).append(said)
            self.fold(loaded)
            return
        self.unfold(loaded)
        self._queue(loaded, said)

    def folds(self, game_id: int) -> list[Said]:
        """The game's summaries waiting to be folded into its table, oldest first."""
        return list(self._folding.get(game_id, ()))

    def unfold(self, loaded: Loaded) -> None:
        """Queue the game's waiting summaries as messages of their own (something owed after
        them cannot be folded, or the game ended before its table's job ran)."""
        for said in self._folding.pop(loaded.row.id, []):
            self._queue(loaded, said)

    async def folded(self, loaded: Loaded, saids: list[Said], message_id: int | None) -> None:
        """``saids`` were posted above the table in ``message_id`` (None: the channel refused
        them for good): marked sent, no longer waiting."""
        game_id = loaded.row.id
        done = {said.owed.nonce for said in saids}
        left = [said for said in self._folding.get(game_id, []) if said.owed.nonce not in done]
        if left:
            self._folding[game_id] = left
        else:
            self._folding.pop(game_id, None)
        try:
            for said in saids:
                await self.service.owing.sent(said.owed, message_id)
        finally:
            self._flight.difference_update(done)

    async def summary(
        self, loaded: Loaded, said: Said
    ) -> tuple[list[discord.Embed], list[discord.File]]:
        """A round's summary as embeds and its picture, in the current language."""
        before, after = said.before, said.after
        if before is None or after is None:  # after a restart: replayed from the log
            before, after = await self.service.owing.states(loaded, said.owed.version)
        game = loaded.game
        views = self.views.of(game, before, None), self.views.of(game, after, None)
        panels = UIS[loaded.row.game].summaries(*views, names_of(loaded))
        files = [f for f in [await self.attachments.summary(loaded, after)] if f]
        return to_discord.embeds(panels), files

    def _queue(self, loaded: Loaded, said: Said) -> None:
        nonce = said.owed.nonce

        async def job() -> None:
            await self._post(loaded, said)

        channel_id, game_id = loaded.row.channel_id, loaded.row.id
        done = self.outbox.put(("ch", channel_id), ("owed", nonce), job, game_id=game_id)
        done.add_done_callback(lambda _: self._flight.discard(nonce))

    async def repair(self) -> int:
        """Queue every row nobody is posting (left by a process that stopped, or whose post
        failed); how many. Rows sent long ago are deleted."""
        owing, count = self.service.owing, 0
        games: dict[int, Loaded] = {}
        for _ in range(BATCHES):
            rows = await owing.claim(BATCH)
            for owed in rows:
                if owed.nonce in self._flight:
                    continue
                loaded = games.get(owed.game_id)
                if loaded is None:
                    try:
                        loaded = games[owed.game_id] = await self.service.load(owed.game_id)
                    except NoGame:
                        continue
                    self.redraw(loaded)
                text = text_of(owed) if owed.kind == LINE else None
                self.put(loaded, Said(owed, text=text))
                count += 1
            if len(rows) < BATCH:
                break
        await owing.prune()
        return count

    async def close(self) -> None:
        """After the outbox closed: give back the rows it dropped unsent, so that another
        process (PostgreSQL) takes them at once rather than when their claim runs out."""
        for nonce in sorted(self._flight):
            try:
                await self.service.owing.release(nonce)
            except Exception:
                log.warning("could not give back an owed message", exc_info=True)
                return
        self._flight.clear()
        self._folding.clear()

    async def _post(self, loaded: Loaded, said: Said) -> None:
        owed, channel_id = said.owed, loaded.row.channel_id
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            with i18n.using(await self.speaking.public(loaded)):
                files, kwargs = await self._message(loaded, said)
            await self.pacer.slot(("ch", channel_id))
            sent = await self.attachments.send(
                channel, channel_id, files, nonce=owed.nonce, **kwargs
            )
        except (discord.Forbidden, discord.NotFound) as exc:  # for good: never tried again
            log.warning("game %s: channel %s refused a message: %s", owed.game_id, channel_id, exc)
            await self.service.owing.sent(owed, None)
            return
        await self.service.owing.sent(owed, sent.id)

    async def _message(
        self, loaded: Loaded, said: Said
    ) -> tuple[list[discord.File], dict[str, Any]]:
        """The files and the other arguments of the message, in the current language."""
        if said.owed.kind == LINE:
            text = said.text if said.text is not None else text_of(said.owed)
            mentions = discord.AllowedMentions(users=True)
            return [], {"content": str(text), "allowed_mentions": mentions}
        embeds, files = await self.summary(loaded, said)
        kwargs: dict[str, Any] = {"embeds": embeds}
        if is_result(said.owed):
            actions = await self.service.actions(loaded.row.id)
            files += [f for f in [await self.attachments.chart(loaded, actions)] if f]
            view = self.result_view(loaded) if self.result_view is not None else None
            if view is not None:
                kwargs["view"] = view
        return files, kwargs


def _foldable(loaded: Loaded, said: Said) -> bool:
    """Whether ``said`` is a round's summary in a game that goes on (``loaded``: its newest
    state), which the next round's table carries."""
    return (
        said.owed.kind != LINE
        and not is_result(said.owed)
        and loaded.row.status == GameStatus.ACTIVE
    )
