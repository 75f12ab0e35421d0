"""Slash commands carry Romanian and Lithuanian names and descriptions within Discord's rules."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import offline_bot

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
