"""The table page's words: every literal message its TypeScript asks for is in the ``page``
catalog (Babel's JavaScript reader misses a call it cannot parse, such as one inside a
template string, and that message would silently stay English)."""

from __future__ import annotations

import re
from pathlib import Path

from tools.messages import code_messages

PAGE = Path(__file__).resolve().parents[2] / "page" / "src"
# words._("..."), w.ngettext("...", "...", n), words.pgettext("ctx", "...")
CALL = re.compile(
    r"""\b(?:_|ngettext|pgettext)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?"""
)


def _asked() -> set[str]:
    asked: set[str] = set()
    for path in PAGE.rglob("*.ts"):
        if "generated" in path.parts:
            continue
        for match in CALL.finditer(path.read_text(encoding="utf-8")):
            first, second = match.group(1), match.group(2)
            if match.group(0).startswith("pgettext"):
                # Its message is the second string (not a literal: a word from elsewhere).
                if second is not None:
                    asked.add(second)
            else:
                asked.add(first)
    return asked


def test_every_page_word_is_extracted() -> None:
    extracted = set()
    for message, _context, _where in code_messages("page"):
        extracted.add(message[0] if isinstance(message, tuple) else message)
    asked = _asked()
    assert len(asked) > 40
    assert asked - extracted == set()
