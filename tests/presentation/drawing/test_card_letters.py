"""Card faces carry no English initials: a suit or colour is shown by its shape or emblem,
which needs no language (a Romanian reads a "C" for clubs as caro, diamonds)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest

from engine.gnoming.cards import CARD_IDS
from engine.grinch.cards import CARDS
from engine.hearts2p.cards import DECK
from engine.ten.cards import deck_for
from presentation.drawing import fonts
from presentation.gnoming.look import LOOK as GNOME
from presentation.grinch.look import LOOK as GRINCH
from presentation.hearts2p.look import LOOK as HEARTS
from presentation.ten.look import LOOK as TEN

# The suits' (colours') initials of each game, alone or after a rank ("QS", "1W").
INITIALS: dict[str, tuple[Any, Iterable[str], str]] = {
    "gnome": (GNOME, CARD_IDS, "HM"),  # hazard, mulligan
    "grinch": (GRINCH, CARDS, "WNOP"),
    "hearts": (HEARTS, DECK, "CDHS"),
    "ten": (TEN, deck_for(5), "RBOGC"),  # C: currency
}


@pytest.mark.parametrize("game", sorted(INITIALS))
def test_no_card_face_draws_a_suit_letter(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    look, cards, letters = INITIALS[game]
    drawn: list[str] = []
    real = fonts.text

    def recording(draw: Any, xy: Any, value: str, size: int, fill: Any, **kw: Any) -> None:
        drawn.append(value)
        real(draw, xy, value, size, fill, **kw)

    module = __import__(type(look).__module__, fromlist=["text"])
    monkeypatch.setattr(module, "text", recording)
    initial = re.compile(rf"(?:\d+|[AKQJ])?[{letters}]")
    for key in sorted({look.key(card) for card in cards}):
        look.draw(key, 120)
    assert drawn, "no text drawn at all"
    assert not [value for value in drawn if initial.fullmatch(value.strip())]
    # Nor beside a word ("C  COIN"): a lone letter is an initial; a court card's rank is not.
    alone = re.compile(r"(?<![^\W\d_])[^\W\d_AKQJ](?![^\W\d_])")
    assert not [value for value in drawn if alone.search(value)]
