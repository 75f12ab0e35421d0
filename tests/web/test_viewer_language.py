"""The live table's language for a viewer (web/language.py): the page's pick, else their own
``/language`` choice, else their Discord client's locale, else what the bot knows of them."""

from __future__ import annotations

from db.languages import Kind
from web.language import client_language, picked, viewer_language

ALICE, GUILD = 10, 20


class Known:
    """What the bot knows: a person's ``/language`` choice and their private language (which
    falls back to the server's)."""

    def __init__(self, *, choice: str | None = None, private: str = "en") -> None:
        self._choice = choice
        self._private = private
        self.asked: list[tuple[int, int | None]] = []

    async def choice(self, kind: Kind, id_: int) -> str | None:
        assert (kind, id_) == ("user", ALICE)
        return self._choice

    async def private(self, user_id: int, guild_id: int | None = None) -> str:
        self.asked.append((user_id, guild_id))
        return self._private


async def test_the_discord_client_locale_beats_the_server_language() -> None:
    known = Known(private="en")  # the server is set to English, alice has chosen nothing
    assert await viewer_language(known, ALICE, {"locale": "ro"}, GUILD) == "ro"
    assert known.asked == [(ALICE, GUILD)]


async def test_a_language_picked_on_the_page_wins_over_everything() -> None:
    known = Known(choice="lt", private="lt")
    hello = {"locale": "ro", "language": "et"}  # Estonian: no Discord locale, only a pick
    assert await viewer_language(known, ALICE, hello, GUILD) == "et"


async def test_the_viewer_s_own_language_choice_beats_their_client_locale() -> None:
    known = Known(choice="lt", private="lt")
    assert await viewer_language(known, ALICE, {"locale": "ro"}, GUILD) == "lt"


async def test_without_a_locale_or_pick_what_the_bot_knows_is_used() -> None:
    known = Known(private="ro")  # a remembered locale, or the server's language
    assert await viewer_language(known, ALICE, {}, GUILD) == "ro"
    # a locale the bot has no language for, or junk, is not a language
    assert await viewer_language(known, ALICE, {"locale": "ja", "language": "xx"}, GUILD) == "ro"
    assert await viewer_language(known, ALICE, {"locale": 7, "language": ["et"]}, None) == "ro"


def test_only_the_bot_s_languages_can_be_picked() -> None:
    assert [picked(v) for v in ("en", "ro", "lt", "et")] == ["en", "ro", "lt", "et"]
    assert [picked(v) for v in ("de", "RO", "", None, 3, "en-US")] == [None] * 6


def test_discord_locales_map_to_the_bot_s_languages() -> None:
    assert [client_language(v) for v in ("en-US", "en-GB", "ro", "lt")] == ["en", "en", "ro", "lt"]
    assert [client_language(v) for v in ("fr", "", None, "ro" * 20)] == [None] * 4
