"""Languages chosen and seen, stored per person and per server, on both engines."""

from __future__ import annotations

from db.languages import LanguageRow
from db.store import Store
from service.languages import Languages


async def test_rows_are_stored_and_replaced(store: Store) -> None:
    assert await store.languages.languages_of("user", [1, 2]) == {}
    await store.languages.save_language("user", 1, "language", "et")
    await store.languages.save_language("user", 1, "discord_locale", "ro")
    await store.languages.save_language("server", 1, "discord_locale", "lt")
    assert await store.languages.languages_of("user", [1, 2]) == {1: LanguageRow("et", "ro")}
    await store.languages.save_language("user", 1, "language", None)  # the locale stays
    assert await store.languages.languages_of("user", [1, 2]) == {1: LanguageRow(None, "ro")}
    assert await store.languages.languages_of("server", [1]) == {1: LanguageRow(None, "lt")}


async def test_private_follows_choice_then_discord_then_server(store: Store) -> None:
    languages = Languages(store)
    # Discord says Romanian for the person, Lithuanian for the server.
    assert await languages.for_interaction(7, "ro", 99, "lt") == "ro"
    assert await languages.public(99) == "lt"
    # A French Discord: not one of ours, so the server's language.
    assert await languages.for_interaction(8, "fr", 99, "lt") == "lt"
    await languages.choose_for("user", 7, "et")  # Discord has no Estonian: chosen
    # (the locale seen a moment ago is written in the background: it must not undo it)
    assert await languages.for_interaction(7, "ro", 99, "lt") == "et"
    await languages.choose_for("server", 99, "ro")
    assert await languages.public(99) == "ro"
    await languages.settle()
    # Another process (a fresh cache) reads the same from the store.
    fresh = Languages(store)
    assert await fresh.private(7, 99) == "et"
    assert await fresh.private(8, 99) == "ro"  # no locale of ours seen: the server's
    assert await fresh.private(123, None) == "en"
    assert await fresh.public(99) == "ro"
    await fresh.choose_for("user", 7, None)  # back to Discord's: the last locale seen
    assert await fresh.private(7, 99) == "ro"


async def test_a_known_person_costs_no_write(store: Store) -> None:
    languages = Languages(store)
    await languages.for_interaction(7, "lt", 5, "lt")
    await languages.settle()
    writes: list[object] = []
    original = store.languages.save_language

    async def counting(*args: object, **kwargs: object) -> None:
        writes.append(args)
        await original(*args, **kwargs)  # type: ignore[arg-type]  # passed through as given

    store.languages.save_language = counting  # type: ignore[method-assign]  # counts the writes
    for _ in range(5):
        assert await languages.for_interaction(7, "lt", 5, "lt") == "lt"
    await languages.settle()
    assert writes == []
    await languages.for_interaction(7, "ro", 5, "lt")  # they switched Discord to Romanian
    await languages.settle()
    assert len(writes) == 1


async def test_a_servers_live_locale_comes_before_the_one_last_seen(store: Store) -> None:
    languages = Languages(store)
    assert await languages.public(5) == "en"  # nothing known
    assert await languages.public(5, "lt") == "lt"  # Discord's cached guild says Lithuanian
    await languages.for_interaction(7, "ro", 5, "ro")  # an interaction carried Romanian
    await languages.settle()
    assert await languages.public(5) == "ro"
    assert await languages.public(5, "lt") == "lt"  # the server switched since
    await languages.choose_for("server", 5, "et")
    assert await languages.public(5, "lt") == "et"  # the managers' choice wins


async def test_the_cached_answer_is_the_read_one(store: Store) -> None:
    languages = Languages(store)
    assert languages.cached_for_interaction(7, "lt", 5, "lt") is None  # nothing cached yet
    assert await languages.for_interaction(7, "lt", 5, "lt") == "lt"
    await languages.choose_for("server", 5, "et")
    await languages.settle()
    for asked in ((7, "lt", 5, "lt"), (7, None, 5, None), (7, "ro", None, None)):
        assert languages.cached_for_interaction(*asked) == await languages.for_interaction(*asked)
    assert languages.cached_for_interaction(8, "lt", 5, "lt") is None  # another person
    assert languages.cached_for_interaction(7, "lt", 6, "lt") is None  # another server
    await languages.settle()
    assert (await store.languages.languages_of("user", [7]))[7].discord_locale == "ro"
    languages.cached_for_interaction(7, "en-US", 5, "en-US")  # new locales, seen from the cache
    await languages.settle()
    assert (await store.languages.languages_of("user", [7]))[7].discord_locale == "en"
    assert (await store.languages.languages_of("server", [5]))[5] == LanguageRow("et", "en")
