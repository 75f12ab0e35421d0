"""The catalogs: ``locales/<language>/LC_MESSAGES/<domain>.po``, read with Babel at first use.

The ``.po`` files are the source of truth and are read directly (Babel compiles them in memory),
so there is no compiled ``.mo`` to forget or to go stale. Every domain of a language is merged
into one set of translations: a domain is only a way to split the work (one per game, one
for what their screens share, one for the bot, one for the commands). English is the language
of the source; it has no catalog.
"""

from __future__ import annotations

import gettext
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAINS = ("bot", "commands", "screens", "grinch", "gnoming", "hearts2p", "ten")


def po_path(language: str, domain: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


def _compiled(path: Path, language: str) -> Translations:
    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=path.stem)
    buffer = BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries are left out, as gettext does
    buffer.seek(0)
    return Translations(buffer, domain=path.stem)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """All of ``language``'s domains as one translations object (read once, then kept)."""
    merged: Translations | None = None
    for domain in DOMAINS:
        path = po_path(language, domain)
        if not path.exists():
            continue
        part = _compiled(path, language)
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    return merged if merged is not None else gettext.NullTranslations()
