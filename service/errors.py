"""Errors a player can cause, translated where they are shown (the cogs), like the engine's
:class:`~engine.base.IllegalAction`.

An error carries its ``message`` (the English text with ``{name}`` placeholders: the catalogs'
id) and the ``values`` that fill them. ``str(error)`` is the English sentence (logs, tests);
:meth:`PlayError.translated` is the sentence in the current language, for the person who
caused it. Each class is a keyword of the catalogs' extractor (``tools/messages.py``), so
``raise NoGame("There is no game in this channel.")`` puts the sentence in the catalogs (a
sentence raised from several places, or said by a cog too, is a constant of its class,
marked with ``N_``); a
message chosen by a condition is raised from each branch, since the extractor would read
``NoGame("a" if x else "b")`` as one message ``"ab"``.
"""

from __future__ import annotations

from typing import Any, Self

from i18n import DEFAULT, N_, Later, ngettext, translate, using


class PlayError(Exception):
    """Root: something a user tried that cannot happen; nothing was changed.

    ``values`` that are :class:`~i18n.Later` are translated with the message (a game's title
    is given as ``Later(game.title)``: the catalogs hold each title under its English text);
    other values (names, numbers) are filled in as they are.
    """

    def __init__(self, message: str, /, **values: Any) -> None:
        super().__init__(message)
        self.message = message
        self.values = values
        self.plural: str | None = None  # set by counted(): the message's plural form

    @classmethod
    def counted(cls, singular: str, plural: str, n: int, /, **values: Any) -> Self:
        """An error whose sentence depends on a count ``n`` (each language has its own
        plural forms); ``{n}`` is filled in too. The extractor reads ``counted`` as a keyword."""
        error = cls(singular, n=n, **values)
        error.plural = plural
        return error

    def translated(self) -> str:
        """The sentence in the current language (the person's, in an interaction's handler)."""
        values = {k: str(v) if isinstance(v, Later) else v for k, v in self.values.items()}
        if self.plural is not None:
            return ngettext(self.message, self.plural, self.values["n"], **values)
        return translate(self.message, **values)

    def __str__(self) -> str:
        with using(DEFAULT):
            return self.translated()


class NoGame(PlayError, LookupError):
    """There is no such game, or no game in this channel."""

    GONE = N_("That game no longer exists.")


class NotSeated(PlayError, PermissionError):
    """A stranger pressed a player's button, or a non-player asked for a hand."""

    NOT_A_PLAYER = N_("You are not a player of this game.")


def not_seated(left: bool) -> NotSeated:
    """A player's button pressed by someone not seated: a stranger, or (``left``) the person
    who left that seat to a computer, pressing a button of the hand they had."""
    if left:
        return NotSeated("You left this game; a computer player plays your seat now.")
    return NotSeated("These buttons belong to a player of this game.")


class NotAllowed(PlayError, PermissionError):
    """Only the host (or a member with Manage Server) may do that."""


class LobbyProblem(PlayError):
    """Joining twice, a full lobby, starting too early, a lobby that already started."""


class GameClosed(PlayError):
    """The game is over or was cancelled."""

    OVER = N_("This game is over.")
    NOT_STARTED = N_("This game has not started: use **Leave** on the lobby.")


class StaleMove(PlayError):
    """An old button or a double click: the move is no longer available.

    ``version``: the game's version the move was checked against, when it was the latest
    saved (None when another process saved a move meanwhile)."""

    NO_LONGER = N_("That move is no longer available.")

    def __init__(
        self, message: str = NO_LONGER, /, *, version: int | None = None, **values: Any
    ) -> None:
        super().__init__(message, **values)
        self.version = version


class RejectedMove(PlayError):
    """The rules do not allow that move now; the message (the engine's reason) says why."""


class CannotSave(PlayError):
    """The database takes no writes right now (a full disk, a lost server): nothing changed."""
