"""Every word a player reads goes through here: gettext catalogs (``locales/``) read with Babel.

Code marks text with :func:`_` (translated now, in the current language), :func:`ngettext`
(plurals: each language has its own forms) and :func:`pgettext` (a context for short words
that mean different things in different places); :func:`N_` only marks text that is
translated later (a table of names, a reason the engine gives). Placeholders are named and
written ``{name}``: the values are given as keywords, so translators may reorder them.

The current language is a context variable: an interaction's handler sets it once
(:func:`using`) and everything rendered in that task follows; background work (the publisher
drawing a DM or the table) sets it for each message. It holds a language code, never a
Discord object, so the renderers below ``cogs/`` stay free of Discord.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from i18n.catalogs import translations

DEFAULT = "en"
LANGUAGES = ("en", "ro", "et", "lt")
# Each language's own name, for /language and /settings (never translated).
NATIVE_NAMES = {"en": "English", "ro": "Română", "et": "Eesti", "lt": "Lietuvių"}
# Discord's locales among ours (Discord has no Estonian): interaction.locale -> our code.
DISCORD_LOCALES = {"en-US": "en", "en-GB": "en", "ro": "ro", "lt": "lt"}

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


def current() -> str:
    """The language text is produced in now."""
    return _current.get()


def known(language: str | None) -> str | None:
    """``language`` if it is one of ours, else None (a stale value from storage, say)."""
    return language if language in LANGUAGES else None


def from_discord(locale: object) -> str | None:
    """Our language for a Discord locale ("ro", "en-US", discord.Locale.lithuanian), or None."""
    code = str(getattr(locale, "value", locale) or "")
    if code in DISCORD_LOCALES:
        return DISCORD_LOCALES[code]
    return "en" if code.startswith("en") else None


def choose(*candidates: str | None) -> str:
    """The first of ``candidates`` that is one of our languages, else English."""
    for candidate in candidates:
        if candidate in LANGUAGES:
            return candidate
    return DEFAULT


def set_language(language: str) -> None:
    """Make ``language`` current for the rest of this task (an interaction's handler)."""
    _current.set(choose(language))


@contextmanager
def using(language: str | None) -> Iterator[str]:
    """Produce text in ``language`` (English if it is not ours) inside the block."""
    token = _current.set(choose(language))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _format(text: str, values: dict[str, Any]) -> str:
    return text.format(**values) if values else text


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, with ``{name}`` placeholders filled from ``values``."""
    return _format(translations(_current.get()).gettext(message), values)


def N_(message: str, /) -> str:  # noqa: N802 - gettext's own name for a marker
    """Mark ``message`` for the catalogs without translating it (it is translated where shown)."""
    return message


def ngettext(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of a counted message for ``n`` in the current language; ``{n}`` is filled too."""
    text = translations(_current.get()).ngettext(singular, plural, n)
    return _format(text, {"n": n, **values})


def pgettext(context: str, message: str, /, **values: Any) -> str:
    """``message`` translated within ``context`` (the same English word in two places)."""
    return _format(translations(_current.get()).pgettext(context, message), values)


@dataclass(frozen=True, slots=True)
class Later:
    """Text to be translated where it is shown, not where it is made (``str()`` translates).

    A service notice made while a player clicked (their language) but posted on the table
    (the server's language) is a ``Later``: made by :func:`later`, which the catalogs read.
    """

    message: str
    values: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None  # pgettext's context, for a short word marked with one

    def __str__(self) -> str:
        values = {k: str(v) if isinstance(v, Later) else v for k, v in self.values.items()}
        if self.context is not None:
            return pgettext(self.context, self.message, **values)
        return _(self.message, **values)


def later(message: str, /, **values: Any) -> Later:
    """Mark ``message`` for the catalogs and translate it when it is shown (``str()``)."""
    return Later(message, values)


def translate(message: str, /, **values: Any) -> str:
    """Translate text marked elsewhere with :func:`N_` (a name from a table, an engine reason)."""
    return _(message, **values)


__all__ = [
    "DEFAULT",
    "DISCORD_LOCALES",
    "LANGUAGES",
    "NATIVE_NAMES",
    "N_",
    "Later",
    "_",
    "choose",
    "current",
    "from_discord",
    "known",
    "later",
    "ngettext",
    "pgettext",
    "set_language",
    "translate",
    "using",
]
