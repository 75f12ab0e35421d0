"""The catalogs are complete, consistent and used: every message in every language."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import i18n
from i18n.catalogs import po_path
from tools.messages import ALL_DOMAINS, compile_problems, languages_of, messages, missing

PLACEHOLDER = re.compile(r"{(\w*)[^{}]*}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A message's id or string as read_po gives it: one text, or a tuple of plural forms."""
    assert isinstance(value, str | tuple), value
    return value if isinstance(value, tuple) else (value,)


def test_every_message_is_translated_in_every_language() -> None:
    assert missing() == []


def test_every_catalog_compiles_and_passes_babels_checks() -> None:
    assert compile_problems() == []


@pytest.mark.parametrize("domain", ALL_DOMAINS)
def test_placeholders_match_in_every_language(domain: str) -> None:
    problems = []
    for language in languages_of(domain):
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        for message in catalog:
            if not message.id:
                continue
            ids = texts(message.id)
            wanted = set().union(*(placeholders(i) for i in ids))
            strings = texts(message.string)
            if isinstance(message.id, tuple):
                wanted.discard("n")  # a plural form may spell "one" out instead of {n}
            for string in strings:
                got = placeholders(string)
                if isinstance(message.id, tuple):
                    got.discard("n")
                if got != wanted:
                    problems.append((language, ids[0], string))
    assert problems == []


@pytest.mark.parametrize("domain", ALL_DOMAINS)
def test_no_message_is_stale(domain: str) -> None:
    """Every translated message is still used by the code (``make messages`` drops the rest)."""
    used = {m[0] if isinstance(m[0], str) else m[0][0] for m in messages(domain)}
    for language in languages_of(domain):
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        stale = [
            m.id
            for m in catalog
            if m.id and (m.id[0] if isinstance(m.id, tuple) else m.id) not in used
        ]
        assert stale == [], (language, domain)


@pytest.mark.parametrize("domain", ALL_DOMAINS)
def test_plurals_have_every_form_of_their_language(domain: str) -> None:
    """Romanian and Lithuanian have three plural forms, Estonian two: each one is written."""
    for language in languages_of(domain):
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        assert catalog.num_plurals == {"ro": 3, "lt": 3, "et": 2}[language]
        for message in catalog:
            if isinstance(message.id, tuple):
                assert isinstance(message.string, tuple), (language, message.id)
                assert len(message.string) == catalog.num_plurals, (language, message.id)
                assert all(message.string), (language, message.id)


def test_unknown_language_falls_back_to_english() -> None:
    with i18n.using("xx") as language:
        assert language == "en"
        assert i18n._("The deck is empty.") == "The deck is empty."
    assert i18n.from_discord("en-GB") == "en"
    assert i18n.from_discord("ro") == "ro"
    assert i18n.from_discord("lt") == "lt"
    assert i18n.from_discord("fi") is None


@pytest.mark.parametrize("language", ["ro", "et", "lt"])
def test_a_message_in_two_domains_reads_the_same(language: str) -> None:
    """The domains of a language are merged into one catalog: a message two domains share
    must be translated alike, or one of them would silently lose."""
    seen: dict[tuple[str | None, str], dict[str, str]] = {}
    for domain in ALL_DOMAINS:
        if language not in languages_of(domain):
            continue
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        for message in catalog:
            if message.id:
                key = message.id if isinstance(message.id, str) else message.id[0]
                seen.setdefault((message.context, key), {})[domain] = str(message.string)
    differing = {k: v for k, v in seen.items() if len(set(v.values())) > 1}
    assert differing == {}


@pytest.mark.parametrize("language", ["ro", "lt"])
def test_commands_are_named_as_discord_shows_them(language: str) -> None:
    """Where Discord shows Romanian or Lithuanian command names, the texts that tell a player
    to type a command use those names (`/reguli`, not `/rules`)."""
    with po_path(language, "commands").open("rb") as source:
        commands = read_po(source, locale=language, domain="commands")
    renamed = {
        m.id: m.string
        for m in commands
        if m.context == "command name" and m.string and m.string != m.id
    }
    wrong = []
    for domain in ALL_DOMAINS:
        if domain == "commands":
            continue
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        for message in catalog:
            for string in texts(message.string):
                for typed in re.findall(r"`/([^`]+)`", string or ""):
                    words = [w for w in typed.split() if ":" not in w]
                    wrong += [(domain, string) for w in words if w in renamed]
    assert wrong == []
