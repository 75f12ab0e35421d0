"""Slash commands carry Romanian and Lithuanian names and descriptions within Discord's rules."""

from __future__ import annotations

import re
from typing import Any

import discord

import i18n
from bot import offline_bot
from engine import GAMES
from presentation.titles import game_title

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = ("ro", "lt")


def _names_in(payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = [("command", payload)]
    for option in payload.get("options", []):
        found.extend(_names_in(option))
        found.extend(("choice", choice) for choice in option.get("choices", []))
    return found


async def test_every_command_is_localized_within_limits() -> None:
    async with offline_bot() as bot:
        tree = bot.tree
        translator = tree.translator
        assert translator is not None
        payloads = [
            await command.get_translated_payload(tree, translator)
            for command in tree.get_commands(type=discord.AppCommandType.chat_input)
        ]
    assert payloads
    problems = []
    for payload in payloads:
        for kind, item in _names_in(payload):
            names = item.get("name_localizations") or {}
            if kind == "command":
                descriptions = item.get("description_localizations") or {}
                for locale in LOCALES:
                    name = names.get(locale, item["name"])  # none: the same as the source
                    if not NAME.match(name) or name != name.lower():
                        problems.append(f"{item['name']}: {locale} name {name!r}")
                    text = descriptions.get(locale)
                    if not text or len(text) > 100:
                        problems.append(f"{item['name']}: {locale} description {text!r}")
            else:
                for name in names.values():
                    if not 1 <= len(name) <= 100:
                        problems.append(f"choice {item['name']}: {name!r}")
    assert problems == []


async def test_estonian_and_english_keep_the_source_names() -> None:
    async with offline_bot() as bot:
        tree = bot.tree
        translator = tree.translator
        assert translator is not None
        command = tree.get_command("rules")
        assert command is not None
        payload = await command.get_translated_payload(tree, translator)
    assert payload["name"] == "rules"
    assert set(payload.get("name_localizations") or {}) == {"ro", "lt"}
    assert payload["name_localizations"]["ro"] == "reguli"


def _localized_items(payload: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """(where, item) for the command, each option (subcommands too) and each choice."""
    here = f"{path}/{payload['name']}"
    found = [(here, payload)]
    for option in payload.get("options", []):
        found.extend(_localized_items(option, here))
        found.extend((f"{here}/{option['name']}={c['name']}", c) for c in option.get("choices", []))
    return found


async def test_every_command_option_and_choice_has_romanian_and_lithuanian_names() -> None:
    async with offline_bot() as bot:
        tree = bot.tree
        translator = tree.translator
        assert translator is not None
        payloads = [
            await command.get_translated_payload(tree, translator)
            for command in tree.get_commands(type=discord.AppCommandType.chat_input)
        ]
    lacking = []
    for payload in payloads:
        for where, item in _localized_items(payload):
            for locale in LOCALES:
                if locale not in (item.get("name_localizations") or {}):
                    lacking.append(f"{where}: no {locale} name")
                if "description" in item and locale not in (
                    item.get("description_localizations") or {}
                ):
                    lacking.append(f"{where}: no {locale} description")
    assert lacking == []


async def test_game_choices_and_commands_use_the_games_titles() -> None:
    """The game pickers show each game's one title per language (presentation.titles), and
    each game's command description names the game by the same title."""
    async with offline_bot() as bot:
        tree = bot.tree
        translator = tree.translator
        assert translator is not None
        payloads = {
            command.name: await command.get_translated_payload(tree, translator)
            for command in tree.get_commands(type=discord.AppCommandType.chat_input)
        }
    by_title = {game.title: name for name, game in GAMES.items()}
    for command in ("rules", "leaderboard", "stats"):
        (option,) = [o for o in payloads[command]["options"] if o["name"] == "game"]
        assert {c["name"] for c in option["choices"]} == set(by_title)
        for choice in option["choices"]:
            for locale in LOCALES:
                with i18n.using(locale):
                    title = game_title(by_title[choice["name"]])
                assert choice["name_localizations"][locale] == title
    for name in GAMES:
        for locale in LOCALES:
            with i18n.using(locale):
                title = game_title(name)
            described = payloads[name]["description_localizations"][locale]
            assert title in described, (name, locale, described)
