"""Errors a player can cause. ``str(error)`` is the short, kind sentence shown to them."""

from __future__ import annotations


class PlayError(Exception):
    """Root: something a user tried that cannot happen; nothing was changed."""


class NoGame(PlayError, LookupError):
    """There is no such game, or no game in this channel."""


class NotSeated(PlayError, PermissionError):
    """A stranger pressed a player's button, or a non-player asked for a hand."""


class NotAllowed(PlayError, PermissionError):
    """Only the host (or a member with Manage Server) may do that."""


class LobbyProblem(PlayError):
    """Joining twice, a full lobby, starting too early, a lobby that already started."""


class GameClosed(PlayError):
    """The game is over or was cancelled."""


class StaleMove(PlayError):
    """An old button or a double click: the move is no longer available.

    ``version``: the game's version the move was checked against, when it was the latest
    saved (None when another process saved a move meanwhile)."""

    def __init__(self, text: str, *, version: int | None = None) -> None:
        super().__init__(text)
        self.version = version


class RejectedMove(PlayError):
    """The rules do not allow that move now; the message says why."""


class CannotSave(PlayError):
    """The database takes no writes right now (a full disk, a lost server): nothing changed."""
