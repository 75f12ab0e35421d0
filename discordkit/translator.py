"""Command names, descriptions and choices in the players' languages (discord.py's Translator).

Discord shows each command in the user's client language when the command carries
localizations for it; of our languages Discord has Romanian and Lithuanian (no Estonian). The
texts come from the ``commands`` catalog, each under a context naming what it is ("command
name", "option description", ...): a name must stay a lowercase word of at most 32 characters,
so it is translated apart from the same English word used elsewhere.

Every command, option and choice carries a Romanian and a Lithuanian localization, even where
the word is spelled as in English ("grinch"): the catalogs are complete (``tools.messages
check``), so the text served is the language's own choice. Two kinds of choice are not in the
commands catalog: a game's title is the one the game's own screens show
(:func:`presentation.titles.title_of`), and a language's own name is never translated.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n
from engine import GAMES
from presentation.titles import title_of

CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}


GAMES_BY_TITLE = {game.title: game for game in GAMES.values()}


def untranslated_choice(name: str) -> bool:
    """Choices the commands catalog leaves out: the games' titles (translated by the games'
    own catalogs) and the languages' own names."""
    return name in i18n.NATIVE_NAMES.values() or name in GAMES_BY_TITLE


def choice_name(name: str) -> str:
    """A choice outside the commands catalog in the current language: a game's one title, or
    a language's own name as it is."""
    game = GAMES_BY_TITLE.get(name)
    return title_of(game) if game is not None else name


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = i18n.DISCORD_LOCALES.get(locale.value)
        kind = CONTEXTS.get(context.location)
        if language in (None, i18n.DEFAULT) or kind is None:
            return None
        with i18n.using(language):
            if kind == "choice" and untranslated_choice(string.message):
                return choice_name(string.message)
            return i18n.pgettext(kind, string.message)


def tree_messages(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str]]:
    """Every (text, context) of the tree's commands that Discord can show translated."""
    found: dict[tuple[str, str], None] = {}

    def add(text: str, kind: str) -> None:
        if text and not (kind == "choice" and untranslated_choice(text)):
            found[(text, kind)] = None

    def walk(command: app_commands.Command[Any, Any, Any] | app_commands.Group) -> None:
        add(command.name, "command name")
        add(command.description, "command description")
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child)
            return
        for parameter in command.parameters:
            add(parameter.name, "option name")
            add(parameter.description, "option description")
            for choice in parameter.choices:
                add(choice.name, "choice")

    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Command | app_commands.Group):
            walk(command)
    return list(found)
