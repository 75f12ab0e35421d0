"""Who reads which language: a person's or a server's choice, Discord's locale (a Store mixin)."""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Literal

from db.reads import Tx

Kind = Literal["user", "server"]
_TABLES = {"user": ("user_languages", "user_id"), "server": ("server_languages", "guild_id")}


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """A person's (or a server's) chosen language and the locale Discord last gave for them."""

    language: str | None = None
    discord_locale: str | None = None


class Languages:
    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Tx]: ...

    async def languages_of(self, kind: Kind, ids: Iterable[int]) -> dict[int, LanguageRow]:
        """The stored rows of ``ids`` (people or servers); those never seen are left out."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        table, key = _TABLES[kind]
        marks = ", ".join("?" for _ in wanted)
        async with self._reading() as tx:
            rows = await tx.fetch(
                f"SELECT {key}, language, discord_locale FROM {table} WHERE {key} IN ({marks})",
                *wanted,
            )
        return {int(r[key]): LanguageRow(r["language"], r["discord_locale"]) for r in rows}

    async def save_language(
        self, kind: Kind, id_: int, *, language: str | None, discord_locale: str | None
    ) -> None:
        """Store both values of ``id_`` (a person or a server), replacing what was there."""
        table, key = _TABLES[kind]
        async with self._transaction() as tx:
            await tx.execute(
                f"INSERT INTO {table} ({key}, language, discord_locale, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT ("
                f"{key}) DO UPDATE SET language = excluded.language, "
                "discord_locale = excluded.discord_locale, updated_at = excluded.updated_at",
                id_,
                language,
                discord_locale,
                time.time(),
            )
