"""tools/page_assets.py: what the table page takes from the project at build time."""

from __future__ import annotations

import json
from pathlib import Path

import i18n
from presentation.drawing import palette
from presentation.grinch import look as grinch_look
from presentation.hearts2p import look as hearts_look
from presentation.ten import look as ten_look
from tools import page_assets


def test_looks_carry_the_pictures_colours_and_symbols() -> None:
    looks = page_assets.looks()
    assert looks["palette"]["table"] == page_assets.hex_of(palette.TABLE)
    grinch = looks["games"]["grinch"]
    for suit, colour in grinch_look.SUIT_COLOUR.items():
        assert grinch["suits"][suit]["colour"] == page_assets.hex_of(colour)
        assert grinch["suits"][suit]["emblem"] == grinch_look.SUIT_EMBLEM[suit]
    assert {s["pattern"] for s in grinch["suits"].values()} == {
        "stripes",
        "dots",
        "rings",
        "checks",
    }
    assert grinch["bonus"]["W1a"] == {"points": "+10", "target": "P"}
    hearts = looks["games"]["hearts"]["suits"]
    assert {k: v["shape"] for k, v in hearts.items()} == hearts_look.SUIT_SHAPE
    ten = looks["games"]["ten"]["groups"]
    assert {k: v["shape"] for k, v in ten.items() if v["shape"]} == ten_look.SHAPE
    assert looks["games"]["gnome"]["values"]["N2"]["value"] == -2


def test_catalogs_hold_the_page_words_titles_and_face_words() -> None:
    catalogs = page_assets.catalogs()
    assert sorted(catalogs) == sorted(i18n.LANGUAGES)
    assert catalogs["en"]["messages"] == {}
    assert catalogs["ro"]["messages"]["Your turn."] == "E rândul tău."
    assert catalogs["ro"]["messages"]["card face\x04WILD"] == "JOKER"
    # Ten's card names come from the game's own catalog (the page names its cards in words).
    assert catalogs["ro"]["messages"]["Red {number}"] and catalogs["lt"]["messages"]["Super wild"]
    assert len(catalogs["ro"]["messages"]["{n} coin"]) == 3
    assert len(catalogs["lt"]["messages"]["{n} card"]) == 3
    assert catalogs["lt"]["titles"]["ten"] == "Dešimt"
    assert catalogs["ro"]["plural_forms"].startswith("nplurals=3")


def test_write_makes_both_files(tmp_path: Path) -> None:
    page_assets.write(tmp_path)
    assert json.loads((tmp_path / "looks.json").read_text())["games"]["ten"]["back"]
    assert "et" in json.loads((tmp_path / "catalogs.json").read_text())
