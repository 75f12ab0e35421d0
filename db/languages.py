"""Who reads which language (``store.languages``): a person's or a server's choice, and
Discord's locale."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from db.sql import Part, Statement

Kind = Literal["user", "server"]
Field = Literal["language", "discord_locale"]
_TABLES = {"user": ("user_languages", "user_id"), "server": ("server_languages", "guild_id")}


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """A person's (or a server's) chosen language and the locale Discord last gave for them."""

    language: str | None = None
    discord_locale: str | None = None


def language_row(row: Mapping[str, Any]) -> tuple[int, str | None, str | None, float]:
    """A stored row as plain values (to compare two databases' copies)."""
    key = int(row["user_id"] if "user_id" in row else row["guild_id"])
    return key, row["language"], row["discord_locale"], float(row["updated_at"])


class Languages(Part):
    """``store.languages``: the stored choices and locales of people and servers."""

    async def languages_of(self, kind: Kind, ids: Iterable[int]) -> dict[int, LanguageRow]:
        """The stored rows of ``ids`` (people or servers); those never seen are left out."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        table, key = _TABLES[kind]
        marks = ", ".join("?" for _ in wanted)
        rows = await self._sql.fetch(
            f"SELECT {key}, language, discord_locale FROM {table} WHERE {key} IN ({marks})",
            *wanted,
        )
        return {int(r[key]): LanguageRow(r["language"], r["discord_locale"]) for r in rows}

    async def save_language(self, kind: Kind, id_: int, field: Field, value: str | None) -> None:
        """Store one of ``id_``'s two values (a person or a server), keeping the other: a
        choice and a locale seen at the same moment never overwrite each other."""
        table, key = _TABLES[kind]
        column = {"language": "language", "discord_locale": "discord_locale"}[field]
        sql = (
            f"INSERT INTO {table} ({key}, {column}, updated_at) VALUES (?, ?, ?) "
            f"ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}, "
            "updated_at = excluded.updated_at"
        )
        await self._sql.write_all([Statement(sql, (id_, value, time.time()))])
