"""Each game's renderer and picture module read that game's own view type.

mypy checks the assignments below (a picture module is a ``Picture[ItsView]``: it has every
function, each reading that view type); the test checks, for every registered game, that
its renderer and pictures are annotated with the type its engine's ``view`` returns.
"""

from __future__ import annotations

from typing import Any, TypeVar, get_args, get_origin, get_type_hints

import pytest

from engine import GAMES
from engine.gnoming.view import GnomeView
from engine.grinch.view import GrinchView
from engine.hearts2p.view import HeartsView
from engine.ten.view import TenView
from presentation import UIS
from presentation.drawing.api import Picture, picture_of
from presentation.gnoming import picture as gnoming_picture
from presentation.grinch import picture as grinch_picture
from presentation.hearts2p import picture as hearts_picture
from presentation.ten import picture as ten_picture

PICTURES: tuple[Picture[GrinchView], Picture[GnomeView], Picture[HeartsView], Picture[TenView]]
PICTURES = (grinch_picture, gnoming_picture, hearts_picture, ten_picture)


def _view_type(reader: Any, owner: type | None = None) -> Any:
    """The type of ``reader``'s ``view``; a type variable of a generic base of ``owner``
    (a renderer's :class:`~presentation.common.Renderer`) is the type ``owner`` gives it."""
    hint = get_type_hints(reader)["view"]
    if isinstance(hint, TypeVar) and owner is not None:
        for base in getattr(owner, "__orig_bases__", ()):
            variables = getattr(get_origin(base), "__parameters__", ())
            if hint in variables:
                return get_args(base)[variables.index(hint)]
    return hint


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_renderer_and_pictures_read_the_engines_view_type(name: str) -> None:
    typed = get_type_hints(type(GAMES[name]).view)["return"]
    ui = UIS[name]
    for method in (ui.table, ui.hand, ui.result, ui.scores, ui.table_key):
        assert _view_type(method, type(ui)) is typed, (name, method.__name__)
    picture = picture_of(name)
    for function in (picture.hand, picture.table, picture.summary, picture.totals):
        assert _view_type(function) is typed, (name, function.__name__)
