"""One word per thing in each language, across every catalog.

Each entry of ``TERMS`` is a thing the English texts name (matched in the message id) and the
one word the language uses for it (which every translation of such a message must contain);
``AVOIDED`` lists the other words once used for the same things, which no translation may
contain. Placeholders such as ``{computer}`` are left out of the comparison.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from i18n.catalogs import po_path
from tools.messages import ALL_DOMAINS, languages_of

# language -> (what the English id says, what the translation must say)
TERMS: dict[str, list[tuple[str, str]]] = {
    "ro": [(r"\bcomputers?\b", r"calculato"), (r"\bbust tokens?\b", r"jet\w+ de depășire")],
    "lt": [
        (r"\bcomputer players?\b", r"kompiuterin"),
        (r"\bbust tokens?\b", r"iškritimo žeton"),
    ],
    "et": [
        (r"\bcomputer players?\b", r"arvutimängij"),
        (r"\bbust tokens?\b", r"lõhkižetoon"),
        (r"\bhearts\b.*\bbroken\b", r"ärtu"),  # the suit is "ärtu", in text and pictures alike
    ],
}
AVOIDED: dict[str, str] = {
    "ro": r"comput",  # "calculator" is the Romanian word, as in "jucător calculator"
    "lt": r"biust|kompiuterio žaidėj",  # "biusto žetonas" is a sculpted bust's token
    "et": r"lõhkimärg|südam",  # "südamed" are hearts of the body, not the suit
}
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def _translations(language: str) -> list[tuple[str, str, str]]:
    """(domain, English id, translation) of every translated message of ``language``."""
    found = []
    for domain in ALL_DOMAINS:
        if language not in languages_of(domain):
            continue
        with po_path(language, domain).open("rb") as source:
            catalog = read_po(source, locale=language, domain=domain)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            english = PLACEHOLDER.sub("", str(ids[-1]))
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                if isinstance(text, str) and text:
                    found.append((domain, english, PLACEHOLDER.sub("", text)))
    return found


@pytest.mark.parametrize("language", sorted(TERMS))
def test_one_word_per_thing(language: str) -> None:
    problems = []
    for domain, english, text in _translations(language):
        for thing, word in TERMS[language]:
            if re.search(thing, english, re.IGNORECASE) and not re.search(word, text, re.I):
                problems.append(f"{domain}: {english!r} -> {text!r} lacks {word!r}")
        if re.search(AVOIDED[language], text, re.IGNORECASE):
            problems.append(f"{domain}: {english!r} -> {text!r} says {AVOIDED[language]!r}")
    assert problems == []
