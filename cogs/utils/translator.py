"""Command names, descriptions and choices in the players' languages (discord.py's Translator).

Discord shows each command in the user's client language when the command carries
localizations for it; of our languages Discord has Romanian and Lithuanian (no Estonian). The
texts come from the ``commands`` catalog, each under a context naming what it is ("command
name", "option description", ...): a name must stay a lowercase word of at most 32 characters,
so it is translated apart from the same English word used elsewhere.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n
from engine import GAMES

CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}


def untranslated_choice(name: str) -> bool:
    """Proper names among the choices: the games' titles and the languages' own names."""
    return name in i18n.NATIVE_NAMES.values() or name in {g.title for g in GAMES.values()}


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
        if kind == "choice" and untranslated_choice(string.message):
            return None
        with i18n.using(language):
            text = i18n.pgettext(kind, string.message)
        return None if text == string.message else text


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
