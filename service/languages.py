"""Which language each message is written in (no Discord: locales arrive as plain codes).

Private text (DMs, ephemeral answers) follows the person: their ``/language`` choice, else the
locale their Discord is set to (remembered from their last interaction, for DMs sent between
interactions), else their server's language. Public text (the table, round summaries, results,
lobby messages) follows the server: its managers' choice, else the locale Discord gives for the
server. English when nothing is known. Discord has no Estonian locale: Estonian is chosen with
``/language``.

Reads are cached for :data:`FRESH` seconds (a choice made through another process shows within
that time); a Discord locale is written only when it differs from the stored one, so an
interaction costs no write once a person is known.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from db.languages import Kind, LanguageRow
from db.store import Store
from i18n import DEFAULT, choose, from_discord, known

log = logging.getLogger(__name__)

FRESH = 300.0
KEEP = 10_000  # cached rows above this many: the stale ones are dropped


class Languages:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._rows: dict[tuple[Kind, int], tuple[LanguageRow, float]] = {}
        self._writing: set[asyncio.Task[None]] = set()

    def _fresh(self, kind: Kind, id_: int, now: float) -> LanguageRow | None:
        cached = self._rows.get((kind, id_))
        return cached[0] if cached is not None and now - cached[1] < FRESH else None

    async def _get(self, kind: Kind, ids: Iterable[int]) -> dict[int, LanguageRow]:
        now = self._clock()
        found: dict[int, LanguageRow] = {}
        missing: list[int] = []
        for id_ in set(ids):
            row = self._fresh(kind, id_, now)
            if row is not None:
                found[id_] = row
            else:
                missing.append(id_)
        if missing:
            if len(self._rows) > KEEP:
                self._rows = {k: v for k, v in self._rows.items() if now - v[1] < FRESH}
            stored = await self.store.languages.languages_of(kind, missing)
            for id_ in missing:
                row = stored.get(id_, LanguageRow())
                self._rows[(kind, id_)] = (row, now)
                found[id_] = row
        return found

    def _cache(self, kind: Kind, id_: int, row: LanguageRow) -> None:
        self._rows[(kind, id_)] = (row, self._clock())

    async def for_interaction(
        self,
        user_id: int,
        locale: object = None,
        guild_id: int | None = None,
        guild_locale: object = None,
    ) -> str:
        """The private language of the person behind an interaction, from what it carried.

        Their choice, else the locale this interaction carries, else what is known. New locales
        are written in the background: the answer never waits on a write.
        """
        row = (await self._get("user", [user_id]))[user_id]
        server = LanguageRow()
        if guild_id is not None:
            server = (await self._get("server", [guild_id]))[guild_id]
        return self._interaction_language(user_id, row, locale, guild_id, server, guild_locale)

    def cached_for_interaction(
        self,
        user_id: int,
        locale: object = None,
        guild_id: int | None = None,
        guild_locale: object = None,
    ) -> str | None:
        """:meth:`for_interaction`'s answer when what it needs is cached (most clicks: no
        task, no wait), else None."""
        now = self._clock()
        row = self._fresh("user", user_id, now)
        if row is None:
            return None
        server = LanguageRow() if guild_id is None else self._fresh("server", guild_id, now)
        if server is None:
            return None
        return self._interaction_language(user_id, row, locale, guild_id, server, guild_locale)

    def _interaction_language(
        self,
        user_id: int,
        row: LanguageRow,
        locale: object,
        guild_id: int | None,
        server: LanguageRow,
        guild_locale: object,
    ) -> str:
        mine = from_discord(locale) if locale else None
        if mine and mine != row.discord_locale:
            self._seen_later("user", user_id, LanguageRow(row.language, mine))
        theirs = from_discord(guild_locale) if guild_locale else None
        if guild_id is not None and theirs and theirs != server.discord_locale:
            self._seen_later("server", guild_id, LanguageRow(server.language, theirs))
        public = choose(known(server.language), theirs, server.discord_locale)
        return choose(known(row.language), mine, row.discord_locale, public)

    def _seen_later(self, kind: Kind, id_: int, row: LanguageRow) -> None:
        """Cache ``row`` now (later reads see it at once) and store its Discord locale in the
        background."""
        self._cache(kind, id_, row)
        work = self.store.languages.save_language(kind, id_, "discord_locale", row.discord_locale)
        task = asyncio.create_task(self._quietly(work))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    @staticmethod
    async def _quietly(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception:  # a locale not remembered is not worth a failed click
            log.warning("could not store a language", exc_info=True)

    async def settle(self) -> None:
        """Wait for the background writes (tests, shutdown)."""
        if self._writing:
            await asyncio.gather(*self._writing, return_exceptions=True)

    async def public(self, guild_id: int | None, live_locale: object = None) -> str:
        """The language of a server's public messages: its managers' choice, else its locale
        as Discord gives it now (``live_locale``, when the caller knows it), else the one the
        last interaction there carried."""
        if guild_id is None:
            return choose(from_discord(live_locale) if live_locale else None)
        row = (await self._get("server", [guild_id]))[guild_id]
        live = from_discord(live_locale) if live_locale else None
        return choose(known(row.language), live, row.discord_locale)

    async def private(self, user_id: int, guild_id: int | None = None) -> str:
        """The language of one person's private messages."""
        return (await self.private_many([user_id], guild_id))[user_id]

    async def private_many(self, user_ids: Iterable[int], guild_id: int | None) -> dict[int, str]:
        """The private language of each of ``user_ids`` (one read for those not cached)."""
        ids = list(user_ids)
        rows = await self._get("user", ids)
        fallback = await self.public(guild_id) if guild_id is not None else DEFAULT
        return {
            id_: choose(known(rows[id_].language), rows[id_].discord_locale, fallback)
            for id_ in ids
        }

    async def choice(self, kind: Kind, id_: int) -> str | None:
        """What a person or server chose (None: follow Discord)."""
        return known((await self._get(kind, [id_]))[id_].language)

    async def choose_for(self, kind: Kind, id_: int, language: str | None) -> None:
        """Set (or with None, clear) a person's or a server's language."""
        row = (await self._get(kind, [id_]))[id_]
        await self.store.languages.save_language(kind, id_, "language", known(language))
        self._cache(kind, id_, LanguageRow(known(language), row.discord_locale))
