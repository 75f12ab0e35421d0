"""Errors the store raises; each also extends the matching builtin."""

from __future__ import annotations


class StoreError(Exception):
    """Root of the store's errors."""


class NotFound(StoreError, LookupError):
    """No row with that id."""


class ChannelBusy(StoreError):
    """The channel already has an open game (the unique index said so)."""


class AlreadySeated(StoreError):
    """That user already has a seat in that game."""


class StaleVersion(StoreError):
    """The game moved on since the caller read it; nothing was written."""
