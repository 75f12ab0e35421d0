"""The service's errors reach the catalogs: each class is a keyword of the extractor, so the
English message a raise site gives is listed (and translated) like any ``_()`` text."""

from __future__ import annotations

import importlib
import pkgutil
from io import BytesIO

from babel.messages.extract import extract

import service
from service.errors import PlayError
from tools.messages import KEYWORDS, PLAY_ERRORS


def _subclasses(root: type) -> set[type]:
    found: set[type] = set(root.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_play_error_is_a_keyword_of_the_catalogs() -> None:
    for module in pkgutil.iter_modules(service.__path__):  # errors are defined beside their use
        importlib.import_module(f"service.{module.name}")
    names = {cls.__name__ for cls in _subclasses(PlayError)} | {"PlayError"}
    assert names - set(PLAY_ERRORS) == set()
    assert set(PLAY_ERRORS) <= set(KEYWORDS)


def test_raise_sites_are_read_as_the_messages_they_give() -> None:
    source = b"""
raise NoGame("There is no game in this channel.")
raise StaleMove("That move is no longer available.", version=loaded.row.version)
raise NoGame("No rated {game} games in this server yet.", game=GAMES[game].title)
raise LobbyProblem.counted("{n} player", "{n} players", game.min_players, game=game.title)
raise RejectedMove(exc.reason, **exc.values) from exc
"""
    found = [message for _line, message, _c, _ctx in extract("python", BytesIO(source), KEYWORDS)]
    assert found == [
        "There is no game in this channel.",
        "That move is no longer available.",
        "No rated {game} games in this server yet.",
        ("{n} player", "{n} players"),
    ]
