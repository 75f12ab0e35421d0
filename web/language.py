"""The language a viewer of the live table is shown (docs/activity.md, "The viewer's language").

The one picked on the page wins; else the viewer's own ``/language`` choice; else their
Discord client's locale, which the page sends in its hello (the Embedded App SDK's, else the
OAuth2 user's from ``/users/@me``); else what the bot knows of them (a locale remembered from
their last interaction, their server's language). Each socket has its own, and nothing is
stored: what the chat and the DMs show does not change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol

from i18n import choose, from_discord, known

MAX_LOCALE = 16  # longer than any Discord locale ("en-US", "zh-TW"): not one


class KnownLanguages(Protocol):
    """What :func:`viewer_language` reads of service.languages.Languages."""

    async def choice(self, kind: Literal["user", "server"], id_: int) -> str | None: ...

    async def private(self, user_id: int, guild_id: int | None = None) -> str: ...


def picked(value: object) -> str | None:
    """A language picked on the page: one of the bot's ("en", "ro", "lt", "et"), else None."""
    return known(value) if isinstance(value, str) else None


def client_language(locale: object) -> str | None:
    """The bot's language for a Discord locale the page sent ("ro", "en-US"), or None."""
    if not isinstance(locale, str) or len(locale) > MAX_LOCALE:
        return None
    return from_discord(locale)


async def viewer_language(
    languages: KnownLanguages, user_id: int, hello: Mapping[str, object], guild_id: int | None
) -> str:
    """The language of a socket opened with ``hello`` (its ``language``: the page's pick, its
    ``locale``: the Discord client's)."""
    chosen = picked(hello.get("language"))
    if chosen is not None:
        return chosen
    own = await languages.choice("user", user_id)
    known_of_them = await languages.private(user_id, guild_id)
    return choose(own, client_language(hello.get("locale")), known_of_them)
