"""Two players with different languages: each reads their DMs in their own, the table is the
server's; commands carry Romanian and Lithuanian names."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import i18n
from engine import GAMES
from presentation import UIS
from presentation.base import Names
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, find_button, quiet, seat_names, set_locales
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons
from tests.presentation.languages import english

JSON = dict[str, object]


def _button_ending(message: JSON, verb: str) -> str:
    for button in buttons(message):
        if button.custom_id and button.custom_id.endswith(f":{verb}"):
            return button.custom_id
    raise LookupError(verb)


def _first_embed(message: JSON) -> dict[str, str]:
    embeds = message.get("embeds") or []
    assert isinstance(embeds, list) and embeds, message
    first = embeds[0]
    assert isinstance(first, dict)
    return {
        "title": str(first.get("title") or ""),
        "description": str(first.get("description") or ""),
    }


def _state(db: Path) -> tuple[int, str]:
    with sqlite3.connect(db) as conn:
        game_id, snapshot = conn.execute(
            "SELECT id, snapshot FROM games WHERE status = 'active'"
        ).fetchone()
    return int(game_id), str(snapshot)


async def test_each_player_reads_their_language_and_the_table_the_servers(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await bot_process.start(env=bot_env(tmp_path))
    guild_id = fake.guild_named("Test Server")
    set_locales(fake, users={alice: "ro"}, guilds={guild_id: "lt"})
    # Discord has no Estonian: Bob chooses it.
    chose = await fake.slash(bob, channel, "language", {"language": "et"})
    await chose.wait_response()
    with i18n.using("et"):
        assert chose.texts()[-1] == i18n._("I write to you in {language}.", language="Eesti")
    rec = await fake.slash(alice, channel, "hearts start", {"opponent": bob})
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    # A refusal is private: in the clicker's language (Alice's Romanian), not the server's.
    refused = await fake.click(alice, int(str(lobby["id"])), _button_ending(lobby, "accept"))
    await refused.wait_response()
    with i18n.using("ro"):
        assert [t for t in refused.texts() if t] == [i18n._("This challenge is for someone else.")]
    with i18n.using("lt"):  # the lobby is public: the server's Lithuanian
        assert i18n.pgettext("lobby", "Accept") != "Accept"
        assert any(
            i18n.pgettext("lobby", label) in [b.label for b in buttons(lobby)]
            for label in ("Accept", "Decline")
        ), [b.label for b in buttons(lobby)]
    accepted = await fake.click(bob, int(str(lobby["id"])), _button_ending(lobby, "accept"))
    await accepted.wait_response()
    await quiet(fake)

    game_id, snapshot = _state(db)
    game, ui = GAMES["hearts"], UIS["hearts"]
    state = game.from_json(snapshot)
    names = Names(tuple(seat_names(db, game_id)))

    def drawn(language: str, seat: int | None) -> dict[str, str]:
        with i18n.using(language):
            view = game.view(state, seat)
            if seat is None:
                panel = ui.table(view, names)
            else:
                legal = [str(a) for a in game.legal_actions(state, seat)]
                panel = ui.hand(view, legal, names).panels[0]
        return {"title": panel.title, "description": panel.description.splitlines()[0]}

    # The renderings really differ by language (so the checks below can tell them apart).
    assert len({drawn(lang, 0)["description"] for lang in ("en", "ro", "et", "lt")}) == 4
    table = next(
        m
        for m in reversed(fake.messages(channel))
        if any((b.custom_id or "").startswith("hand:") for b in buttons(m))
    )
    shown = _first_embed(table)
    assert shown["title"] == drawn("lt", None)["title"]
    assert shown["description"].startswith(drawn("lt", None)["description"])
    seat_of = {alice: 0, bob: 1} if names[0] == "alice" else {alice: 1, bob: 0}
    for user, language in ((alice, "ro"), (bob, "et")):
        dm = _first_embed(fake.dm_messages(user)[-1])
        wanted = drawn(language, seat_of[user])
        assert dm["title"] == wanted["title"], (language, dm, wanted)
        assert wanted["description"] in dm["description"], (language, dm, wanted)


async def test_commands_are_registered_with_their_translations(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_process.start(env=bot_env(tmp_path))
    commands = {c["name"]: c for c in fake.registered_commands()}
    assert commands["rules"]["name_localizations"] == {"ro": "reguli", "lt": "taisyklės"}
    for command in commands.values():
        if command["name"] != "grinch":  # a proper name: the same in every language
            assert set(command.get("name_localizations") or {}) == {"ro", "lt"}, command["name"]
        assert set(command.get("description_localizations") or {}) == {"ro", "lt"}


def _localized(command: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(where, language, text) of every description localization of a command, its options and
    their subcommands', as Discord receives them."""
    name = str(command["name"])
    for language, text in (command.get("description_localizations") or {}).items():
        yield name, str(language), str(text)
    for option in command.get("options") or []:
        assert isinstance(option, dict)
        yield from _localized({**option, "name": f"{name} {option['name']}"})


# A command in backticks is the name Discord shows ("cancel" has no Estonian name).
CODE = re.compile(r"`[^`]*`")
# What a member types as an option's value in every language ("off, 10m, 2h").
TYPED = frozenset({"off"})


async def test_command_descriptions_and_help_leave_no_english(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake.channel_named("games")
    bob = fake.user_named("bob")
    await bot_process.start(env=bot_env(tmp_path))
    left = [
        (where, language, text, words)
        for command in fake.registered_commands()
        for where, language, text in _localized(command)
        if (words := [w for w in english(text, language) if w not in TYPED])
    ]
    assert left == [], "\n".join(map(str, left))
    for language in ("ro", "lt", "et"):
        chose = await fake.slash(bob, channel, "language", {"language": language})
        await chose.wait_response()
        shown = await fake.slash(bob, channel, "help", {})
        reply = await shown.wait_response()
        text = "\n".join(str(e.get("description") or "") for e in reply.embeds)
        assert text, reply.data
        assert english(CODE.sub(" ", text), language) == [], (language, text)


def _fields(message: JSON) -> dict[str, str]:
    embeds = message.get("embeds") or []
    assert isinstance(embeds, list)
    return {
        str(field["name"]): str(field["value"])
        for embed in embeds
        for field in embed.get("fields") or []
    }


async def test_an_empty_market_agrees_with_market_in_romanian(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """Ten begins with an empty market: the table and the hand say "Piața: goală" (feminine),
    not "gol", which a row or a pile takes."""
    fake = fake_discord
    channel = fake.channel_named("games")
    alice = fake.user_named("alice")
    await bot_process.start(env=bot_env(tmp_path))
    rec = await fake.slash(alice, channel, "ten start")
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    # The lobby was drawn in English; the game is played in Romanian from the start.
    set_locales(fake, users={alice: "ro"}, guilds={fake.guild_named("Test Server"): "ro"})
    start = await fake.click(
        alice, int(str(lobby["id"])), find_button(lobby, "Start").custom_id or ""
    )
    await start.wait_response()
    await quiet(fake)
    table = next(
        m
        for m in reversed(fake.messages(channel))
        if any((b.custom_id or "").startswith("hand:") for b in buttons(m))
    )
    with i18n.using("ro"):
        at_table = "🛒 " + i18n._("Market (price = number)")
        in_hand = "🛒 " + i18n._("Market")
    assert _fields(table).get(at_table) == "goală", _fields(table)
    hand = _fields(fake.dm_messages(alice)[-1])
    assert hand.get(in_hand) == "goală", hand


async def test_only_managers_set_the_servers_language(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")  # alice has Manage Server
    await bot_process.start(env=bot_env(tmp_path))
    refused = await fake.slash(bob, channel, "language", {"language": "ro", "server": True})
    await refused.wait_response()
    assert (
        refused.texts()[-1] == "Only members with Manage Server can change the server's language."
    )
    done = await fake.slash(alice, channel, "language", {"language": "ro", "server": True})
    await done.wait_response()
    assert done.texts()[-1] == "Tables, rounds and results in this server are in Română."
    # From now on the lobby (public) is Romanian, whatever the host's own language.
    rec = await fake.slash(bob, channel, "hearts start", {"opponent": alice})
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    with i18n.using("ro"):
        assert i18n.pgettext("lobby", "Decline") in [b.label for b in buttons(lobby)]
