"""A seat's face on the live table (web/members.py, web/frames.py): the member's name in the
server and their avatar's CDN path, each person asked of Discord once for a while, nothing
for computers; and a channel without a game offers the games and says whether the bot may
post there."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from db.models import GameStatus
from engine import GAMES
from tests.clock import Clock
from tests.web.test_frames import position
from web.discord_api import DiscordUnreachable
from web.frames import lobby_frame, seats_json
from web.members import (
    FAILED_SECONDS,
    KEEP_SECONDS,
    Face,
    Faces,
    avatar_path,
    default_avatar,
    display_name,
)

HASH = "0123456789abcdef0123456789abcdef"
USER = 80351110224678912


def member(**fields: Any) -> dict[str, Any]:
    user = {"id": str(USER), "username": "nelly", "global_name": None, "avatar": None}
    user.update(fields.pop("user", {}))
    return {"user": user, "nick": None, "avatar": None, **fields}


def test_the_name_is_the_nickname_else_the_display_name_else_the_username() -> None:
    assert display_name(member(nick="Nel", user={"global_name": "Nelly B"})) == "Nel"
    assert display_name(member(user={"global_name": "Nelly B"})) == "Nelly B"
    assert display_name(member()) == "nelly"
    assert display_name(member(nick="  ", user={"username": ""})) is None


def test_the_avatar_is_the_server_s_else_the_user_s_else_discord_s_default() -> None:
    both = member(avatar="a_" + HASH, user={"avatar": HASH})
    assert avatar_path(5, USER, both) == f"guilds/5/users/{USER}/avatars/a_{HASH}.png?size=64"
    assert avatar_path(5, USER, member(user={"avatar": HASH})) == (
        f"avatars/{USER}/{HASH}.png?size=64"
    )
    assert avatar_path(5, USER, member()) == default_avatar(USER)
    assert default_avatar(USER) == f"embed/avatars/{(USER >> 22) % 6}.png"
    # a hash of another shape never reaches a path
    assert avatar_path(5, USER, member(avatar="../../x", user={"avatar": "x/y"})) == (
        default_avatar(USER)
    )


async def test_each_person_is_asked_once_for_a_while_and_together() -> None:
    clock, asked = Clock(100.0), []
    gate = asyncio.Event()

    async def ask(guild: int, user: int) -> dict[str, Any] | None:
        asked.append((guild, user))
        await gate.wait()
        if user == 3:
            return None  # no longer a member
        return member(nick=f"n{user}", user={"avatar": HASH})

    faces = Faces(ask, clock=clock)
    waiting = [asyncio.ensure_future(faces.of(9, [1, 2, 3])) for _ in range(3)]
    await asyncio.sleep(0)
    gate.set()
    found = await asyncio.gather(*waiting)
    assert sorted(asked) == [(9, 1), (9, 2), (9, 3)]  # three viewers, one call each
    assert found[0][1] == Face("n1", f"avatars/1/{HASH}.png?size=64")
    assert found[0][3] == Face(None, default_avatar(3))
    clock.now += KEEP_SECONDS - 1
    await faces.of(9, [1])
    assert len(asked) == 3
    clock.now += 2
    await faces.of(9, [1])
    assert len(asked) == 4


async def test_a_failed_look_up_leaves_the_seat_as_it_was_for_a_minute() -> None:
    clock, asked = Clock(100.0), []

    async def ask(guild: int, user: int) -> dict[str, Any] | None:
        asked.append(user)
        raise DiscordUnreachable("down")

    faces = Faces(ask, clock=clock)
    assert await faces.of(9, [1]) == {}
    assert await faces.of(9, [1]) == {}
    assert asked == [1]
    clock.now += FAILED_SECONDS + 1
    assert await faces.of(9, [1]) == {}
    assert asked == [1, 1]


async def test_a_frame_waits_for_a_slow_discord_only_so_long() -> None:
    gate = asyncio.Event()

    async def ask(guild: int, user: int) -> dict[str, Any] | None:
        await gate.wait()
        return member(nick="Late")

    faces, again = Faces(ask, clock=Clock(100.0)), asyncio.Event()
    assert await faces.of(9, [1], wait=0.05, later=again.set) == {}  # this frame goes without
    assert not again.is_set()
    gate.set()
    await asyncio.wait_for(again.wait(), 5)  # the frame is sent again once it is known
    assert await faces.of(9, [1], wait=0) == {1: Face("Late", default_avatar(1))}


def test_a_seat_shows_the_face_a_computer_its_mark() -> None:
    loaded = position("grinch", 0)
    robot = replace(loaded.seats[1], user_id=None, is_computer=True, name="Robo")
    loaded = replace(loaded, seats=[loaded.seats[0], robot])
    faces = {10: Face("Nel", "avatars/10/x.png"), 11: Face("Spy", "avatars/11/y.png")}
    seats = seats_json(loaded, 10, faces)
    assert seats[0]["name"] == "Nel" and seats[0]["avatar"] == "avatars/10/x.png"
    assert seats[1]["name"] == "Robo" and seats[1]["avatar"] is None
    assert seats[1]["computer"] is True
    unnamed = seats_json(loaded, 10, {10: Face(None, "embed/avatars/1.png")})
    assert unnamed[0]["name"] == "p0" and unnamed[0]["avatar"] == "embed/avatars/1.png"
    assert [s["avatar"] for s in seats_json(loaded, 10)] == [None, None]


@pytest.mark.parametrize("can_post", [True, False, None])
def test_a_channel_without_a_game_offers_every_game_and_says_if_the_bot_may_post(
    can_post: bool | None,
) -> None:
    frame = lobby_frame(None, 1, computers=True, last_result=None, can_post=can_post)
    assert frame["can_post"] is can_post
    assert frame["games"] == [
        {"game": name, "min": g.min_players, "max": g.max_players} for name, g in GAMES.items()
    ]
    seats = {g["game"]: (g["min"], g["max"]) for g in frame["games"]}
    assert (
        seats.items()
        >= {
            "grinch": (2, 6),
            "gnome": (3, 7),
            "hearts": (2, 2),
            "ten": (1, 5),
        }.items()
    )
    lobby = replace(
        position("ten", 0), row=replace(position("ten", 0).row, status=GameStatus.LOBBY)
    )
    opened = lobby_frame(lobby, 1, computers=True, last_result=None, can_post=False)
    assert "can_post" not in opened  # a lobby is open: the bot posted it
    assert opened["games"] == frame["games"]  # every game, for the lobby's line on its own
