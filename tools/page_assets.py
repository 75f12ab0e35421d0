"""What the table page (page/) takes from the project at build time (``make page`` runs it).

Writes into ``page/src/generated/`` (or the folder given) the view types (``views.ts``, made
by :mod:`tools.view_types` from the engine's typed views) and two JSON files:

- ``looks.json``: the pictures' palette and each game's card looks (colours, symbols,
  patterns, bonus marks), read from ``presentation/drawing/palette.py`` and each game's
  ``look.py``, so the page's SVG cards wear the same colours and shapes as the PNGs;
- ``catalogs.json``: per language, the page's own words (the ``page`` domain of
  ``locales/``) and the few words printed on card faces or naming cards (from the games'
  domains), with the
  catalog's plural rule, its own name (for the language menu), and the games' titles.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

import i18n
from engine.gnoming.cards import CARD_IDS, card_kind, card_value
from engine.grinch.cards import CARDS, SUIT_NAMES, bonus_text
from engine.hearts2p.cards import DECK, QUEEN_OF_SPADES, card_points
from i18n import LANGUAGES, NATIVE_NAMES
from i18n.catalogs import DOMAINS, po_path
from presentation.drawing import frame, palette
from presentation.drawing.fonts import RGB
from presentation.gnoming import look as gnome_look
from presentation.grinch import look as grinch_look
from presentation.grinch.text import CARD_NAMES
from presentation.hearts2p import look as hearts_look
from presentation.ten import look as ten_look
from presentation.ten.text import COLOUR_WILDS, NUMBER_CARDS
from presentation.titles import game_titles
from tools import view_types

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "page" / "src" / "generated"
PAGE_DOMAIN = "page"
# The words card faces print, found in the games' catalogs: (context, msgid).
FACE_WORDS: tuple[tuple[str | None, str], ...] = (
    ("card face", "HAZARD"),
    ("card face", "WILD"),
    ("card face", "SUPER WILD"),
    (None, "1 pt"),
    (None, "C  COIN"),
    *((None, name) for name in CARD_NAMES.values()),
    *(("grinch", name) for name in (*SUIT_NAMES.values(), "Rainbow", "Match", "Run")),
    # Ten's cards named in words for screen readers, as its hand screen names them.
    *((None, name) for name in (*NUMBER_CARDS.values(), *COLOUR_WILDS.values())),
    (None, "Wild {number}"),
    (None, "Super wild"),
    (None, "{n} coin"),
)
ENGLISH_PLURAL = "nplurals=2; plural=(n != 1);"


def hex_of(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _pattern_name(pattern: object) -> str:
    for name in ("stripes", "dots", "rings", "checks"):
        if pattern is getattr(frame, name):
            return name
    raise ValueError(f"Unknown card pattern {pattern!r}.")


def _tints(colour: RGB, **whites: float) -> dict[str, str]:
    """``colour`` and, under each name, ``colour`` mixed with that much white."""
    mixed = {name: hex_of(palette.mix(colour, palette.WHITE, w)) for name, w in whites.items()}
    return {"colour": hex_of(colour), **mixed}


def _grinch() -> dict[str, Any]:
    suits = {}
    for suit, colour in grinch_look.SUIT_COLOUR.items():
        suits[suit] = {
            **_tints(colour, tint=0.78, pattern_colour=0.45),
            "ink": hex_of(grinch_look.ink(suit)),
            "on": hex_of(palette.on(colour)),
            "emblem": grinch_look.SUIT_EMBLEM[suit],
            "pattern": _pattern_name(grinch_look.SUIT_PATTERN[suit]),
        }
    bonus = {}
    for card in CARDS:
        text = bonus_text(card)
        if text is not None:
            points, target = text.split()
            bonus[card] = {"points": points, "target": target}
    return {"suits": suits, "bonus": bonus, "names": dict(CARD_NAMES), "back": "#962d2d"}


def _gnome() -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key in sorted({card[:2] for card in CARD_IDS}):
        card = key + "-01"
        kind = card_kind(card)
        if kind not in ("P", "N"):
            continue
        value = card_value(card)
        colour = gnome_look.POSITIVE[value] if kind == "P" else gnome_look.NEGATIVE
        values[key] = {
            "value": value,
            "colour": hex_of(colour),
            "tint": hex_of(palette.mix(colour, palette.WHITE, 0.8 if kind == "P" else 0.86)),
            "band": hex_of(colour if kind == "P" else palette.PAPER),
            "outline": hex_of(palette.mix(colour, palette.INK, 0.4)),
            "ink": hex_of(palette.mix(colour, palette.INK, 0.7) if kind == "P" else colour),
            "pip": hex_of(palette.mix(colour, palette.INK, 0.5)),
        }
    return {
        "values": values,
        "hazard": hex_of(gnome_look.HAZARD),
        "mulligan": hex_of(gnome_look.MULLIGAN),
        "mulligan_ring": hex_of(palette.mix(gnome_look.MULLIGAN, palette.WHITE, 0.3)),
        "vermilion": hex_of(palette.VERMILION),
        "star": hex_of(palette.YELLOW),
        "back": "#463428",
    }


def _hearts() -> dict[str, Any]:
    suits = {
        suit: {"colour": hex_of(colour), "shape": hearts_look.SUIT_SHAPE[suit]}
        for suit, colour in hearts_look.SUIT_COLOUR.items()
    }
    points = {card: card_points(card) for card in DECK if card_points(card)}
    return {"suits": suits, "points": points, "queen": QUEEN_OF_SPADES, "back": "#284696"}


def _ten() -> dict[str, Any]:
    groups = {}
    for group, colour in ten_look.COLOUR.items():
        groups[group] = {
            **_tints(colour, tint=0.75, stripe=0.5),
            "outline": hex_of(palette.mix(colour, palette.INK, 0.5)),
            "on": hex_of(ten_look.on_band(colour)),
            "shape": ten_look.SHAPE.get(group),
        }
    return {
        "groups": groups,
        "coin_tint": hex_of(palette.mix(palette.GOLD, palette.WHITE, 0.7)),
        "back": "#2d2d3c",
    }


def looks() -> dict[str, Any]:
    names = ("TABLE", "TABLE_LIGHT", "SLOT", "PAPER", "INK", "SOFT_INK", "WHITE", "GOLD")
    return {
        "palette": {name.lower(): hex_of(getattr(palette, name)) for name in (*names, "HIGHLIGHT")},
        "series": [hex_of(colour) for colour in palette.SERIES],
        "games": {"grinch": _grinch(), "gnome": _gnome(), "hearts": _hearts(), "ten": _ten()},
    }


def _key(context: str | None, msgid: str) -> str:
    return msgid if context is None else f"{context}\x04{msgid}"


def catalog(language: str, wanted: Iterable[tuple[str | None, str]]) -> dict[str, Any]:
    """``language``'s page words and face words: {"plural_forms", "messages"}."""
    wanted_keys = {_key(context, msgid) for context, msgid in wanted}
    messages: dict[str, str | list[str]] = {}
    plural: str | None = None
    for domain in (PAGE_DOMAIN, *DOMAINS):
        path = po_path(language, domain)
        if not path.exists():
            continue
        with path.open("rb") as source:
            po = read_po(source, locale=language, domain=domain)
        if plural is None:
            plural = po.plural_forms
        for message in po:
            if not message.id or message.fuzzy:
                continue
            singular = str(message.id[0] if isinstance(message.id, tuple | list) else message.id)
            key = _key(message.context, singular)
            if key in messages or (domain != PAGE_DOMAIN and key not in wanted_keys):
                continue
            if isinstance(message.string, tuple):
                forms = [str(form) for form in message.string]
                if all(forms):
                    messages[key] = forms
            elif message.string:
                messages[key] = str(message.string)
    return {"plural_forms": plural or ENGLISH_PLURAL, "messages": messages}


def catalogs() -> dict[str, Any]:
    """Every language's catalog, with its own name and each game's title as the bot shows it."""
    out: dict[str, Any] = {}
    for language in LANGUAGES:
        out[language] = catalog(language, FACE_WORDS)
        out[language]["name"] = NATIVE_NAMES[language]
        with i18n.using(language):
            out[language]["titles"] = game_titles()
    return out


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in (("looks.json", looks()), ("catalogs.json", catalogs())):
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
        (folder / name).write_text(text, encoding="utf-8")
    view_types.write(folder)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
