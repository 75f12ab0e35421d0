"""Command names, descriptions and choices in the players' languages (discord.py's Translator)."""

from __future__ import annotations


def command_messages() -> list[tuple[str, str]]:
    """Every command text with its context: filled in when the translator is built."""
    return []
