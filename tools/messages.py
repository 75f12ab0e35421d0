"""Keep the catalogs in step with the code: ``python -m tools.messages update`` (``make messages``).

Each domain's messages are extracted from its own files with Babel (``_``, ``N_``,
``ngettext``, ``pgettext``, the engine's ``IllegalAction`` reasons and the service's errors),
written to ``locales/<domain>.pot``, and merged into every language's ``.po`` (new messages
appear untranslated, removed ones are dropped). The ``commands`` domain is read from the bot's
command tree instead (names, descriptions, choices). ``python -m tools.messages check`` lists
what is missing, as the tests do.

This module is a developer's tool: unlike the rest of ``i18n`` it may import the bot.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n import DEFAULT, DISCORD_LOCALES, LANGUAGES
from i18n.catalogs import LOCALES, po_path

ROOT = LOCALES.parent
# The service's errors are raised with their English message, as the engine's IllegalAction
# is (``service/errors.py``); ``counted`` is PlayError.counted (singular, plural, n).
PLAY_ERRORS = (
    "PlayError",
    "NoGame",
    "NotSeated",
    "NotAllowed",
    "LobbyProblem",
    "GameClosed",
    "StaleMove",
    "RejectedMove",
    "CannotSave",
    "BadSetting",
)
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "IllegalAction": None,
    "BadActionText": None,
    "later": None,
    **dict.fromkeys(PLAY_ERRORS),
    "counted": (1, 2),
}
# Which files feed which domain (folders are read recursively; a file is taken once, by the
# first domain that names it).
SOURCES: dict[str, tuple[str, ...]] = {
    "grinch": ("presentation/grinch", "engine/grinch"),
    "gnoming": ("presentation/gnoming", "engine/gnoming"),
    "hearts2p": ("presentation/hearts2p", "engine/hearts2p"),
    "ten": ("presentation/ten", "engine/ten"),
    "screens": ("presentation",),  # what every game's screens share, and the drawing kit
    "bot": (
        "bot.py",
        "cogs",
        "delivery",
        "workers",
        "service",
        "engine",
        "discordkit",
        "runtime",
        "web",
    ),
    # The table page's own words (TypeScript, read with Babel's JavaScript extractor); the
    # page gets them as JSON at build time (tools/page_assets.py), not the bot.
    "page": ("page/src",),
}
PATTERNS = ("*.py", "*.ts")
ALL_DOMAINS = (*SOURCES, "commands")
# Fixed dates and names in the headers: an update changes a file only where a message changed.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
AUTHORS = "the cardtable authors"


def _new_catalog(domain: str, language: str | None = None) -> Catalog:
    return Catalog(
        locale=language,
        domain=domain,
        project="cardtable",
        version="1",
        copyright_holder=AUTHORS,
        msgid_bugs_address="",
        last_translator=AUTHORS,
        language_team=AUTHORS,
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        charset="utf-8",
        fuzzy=False,
    )


TRANSLATED = tuple(language for language in LANGUAGES if language != DEFAULT)


def languages_of(domain: str) -> tuple[str, ...]:
    """The languages a domain is translated into: command texts only where Discord has a locale
    for the language (Discord has no Estonian)."""
    if domain == "commands":
        return tuple(sorted({DISCORD_LOCALES[code] for code in DISCORD_LOCALES} - {DEFAULT}))
    return TRANSLATED


# (id, or (singular, plural)), context, where it was found
Message = tuple[str | tuple[str, str], str | None, str]


def _files(domain: str) -> Iterator[Path]:
    taken = {
        path
        for other in list(SOURCES)[: list(SOURCES).index(domain)]
        for path in _walk(SOURCES[other])
    }
    for path in _walk(SOURCES[domain]):
        if path not in taken:
            yield path


def _walk(roots: Iterable[str]) -> Iterator[Path]:
    for root in roots:
        path = ROOT / root
        if path.is_dir():
            yield from sorted(p for pattern in PATTERNS for p in path.rglob(pattern))
        else:
            yield path


def code_messages(domain: str) -> list[Message]:
    """Every marked message in ``domain``'s files, with where it was found."""
    found: list[Message] = []
    for path in _files(domain):
        where = str(path.relative_to(ROOT))
        method = "javascript" if path.suffix == ".ts" else "python"
        for line, message, _comments, context in extract_from_file(
            method, str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            if isinstance(message, tuple):
                singular, plural = message[0], message[1]
                if singular:
                    found.append(((singular, plural or singular), context, f"{where}:{line}"))
            elif message:
                found.append((message, context, f"{where}:{line}"))
    return found


def command_messages() -> list[Message]:
    """The command tree's names, descriptions and choices (``discordkit/translator.py``)."""
    import asyncio

    from bot import offline_bot
    from discordkit.translator import tree_messages

    async def read() -> list[tuple[str, str]]:
        async with offline_bot() as bot:
            return tree_messages(bot.tree)

    return [(text, context, "commands") for text, context in asyncio.run(read())]


def messages(domain: str) -> list[Message]:
    return command_messages() if domain == "commands" else code_messages(domain)


def template(domain: str) -> Catalog:
    catalog = _new_catalog(domain)
    for message, context, where in messages(domain):
        path, _, line = where.partition(":")
        catalog.add(message, context=context, locations=[(path, int(line or 0))])
    return catalog


def update(domains: Iterable[str] = ()) -> None:
    """Write each domain's ``.pot`` and merge it into every language's ``.po``."""
    for domain in tuple(domains) or ALL_DOMAINS:
        pot = template(domain)
        LOCALES.mkdir(exist_ok=True)
        with (LOCALES / f"{domain}.pot").open("wb") as out:
            write_po(out, pot, width=100, include_lineno=False)
        for language in languages_of(domain):
            path = po_path(language, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                with path.open("rb") as source:
                    catalog = read_po(source, locale=language, domain=domain)
            else:
                catalog = _new_catalog(domain, language)
            catalog.update(pot, no_fuzzy_matching=True, update_header_comment=True)
            catalog.revision_date = FIXED_DATE
            catalog.obsolete.clear()
            with path.open("wb") as out:
                write_po(out, catalog, width=100, include_previous=False, include_lineno=False)


def missing(domains: Iterable[str] = ()) -> list[str]:
    """One line per message without a translation in some language (empty when complete)."""
    problems: list[str] = []
    for domain in tuple(domains) or ALL_DOMAINS:
        wanted = {(m, c): where for m, c, where in messages(domain)}
        for language in languages_of(domain):
            path = po_path(language, domain)
            if not path.exists():
                problems.append(f"{language}: no {path.relative_to(ROOT)}")
                continue
            with path.open("rb") as source:
                catalog = read_po(source, locale=language, domain=domain)
            for (message, context), where in wanted.items():
                key = message[0] if isinstance(message, tuple) else message
                entry = catalog.get(key, context=context)
                strings = entry.string if entry is not None else None
                values = strings if isinstance(strings, tuple) else (strings,)
                if entry is None or entry.fuzzy or not all(values):
                    problems.append(f"{language}/{domain}: {where}: {key!r}")
    return problems


def compile_problems(domains: Iterable[str] = ()) -> list[str]:
    """Compile every catalog as the bot does at start (in memory) and run Babel's own checks
    on it (format strings, plural counts): one line per problem."""
    problems: list[str] = []
    for domain in tuple(domains) or ALL_DOMAINS:
        for language in languages_of(domain):
            path = po_path(language, domain)
            if not path.exists():
                continue
            with path.open("rb") as source:
                catalog = read_po(source, locale=language, domain=domain)
            for message, errors in catalog.check():
                problems += [f"{language}/{domain}: {message.id!r}: {e}" for e in errors]
            write_mo(BytesIO(), catalog)
    return problems


def main(argv: list[str]) -> int:
    command, domains = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if unknown := set(domains) - set(ALL_DOMAINS):
        print(f"unknown domain(s): {', '.join(sorted(unknown))}; known: {', '.join(ALL_DOMAINS)}")
        return 2
    if command == "update":
        update(domains)
        return 0
    if command == "check":
        problems = missing(domains) + compile_problems(domains)
        print("\n".join(problems) or "every message is translated")
        return 1 if problems else 0
    print("usage: python -m tools.messages update|check [domain ...]")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
