"""Leaderboard pages, player statistics and the commands that show them."""

from __future__ import annotations

import random
from typing import Any, cast
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from cogs.guard import ours
from cogs.players import PlayersCog
from db.players import RatingRow
from db.store import Store
from discordkit.clicks import BOARD_PAGE, ControlButton
from discordkit.client import CardBot
from discordkit.views import board_view
from presentation.players import board_panel, stats_panel, trend_text
from service.boards import PAGE_SIZE, Boards
from service.errors import NoGame
from service.games import GameService
from service.leaving import leave_game
from service.ratings import Ratings
from tests.players.helpers import play_game

TITLES = {"hearts": "2-Player Hearts", "grinch": "Grinch"}


async def test_a_long_leaderboard_has_pages_best_first(store: Store) -> None:
    rows = [
        RatingRow(1, "hearts", 100 + n, 25.0 + n, 3.0, 16.0 + n, n + 1, n, 1.0) for n in range(12)
    ]
    await store.players.replace_ratings(rows, [])
    boards = Boards(store)
    first = await boards.leaderboard(1, None)
    assert (first.game, first.page, first.pages) == ("hearts", 0, 2)
    assert [e.user_id for e in first.entries] == [111 - n for n in range(PAGE_SIZE)]
    # ordinals 27 and 26 on the shown scale: a new player's 0 is 1000, each point 10
    assert [e.rating for e in first.entries[:2]] == [1270, 1260] and first.entries[0].place == 1
    second = await boards.leaderboard(1, "hearts", page=5)  # past the end: the last page
    assert second.page == 1 and [e.place for e in second.entries] == [11, 12]
    panel = board_panel(second, TITLES, start=1000)
    assert "<@101>" in panel.description and "Page 2 of 2" in (panel.footer or "")
    assert "a new player starts at 1000" in (panel.footer or "")
    with pytest.raises(NoGame):
        await boards.leaderboard(2, None)
    with pytest.raises(NoGame):
        await boards.leaderboard(1, "grinch")


def test_page_buttons_only_when_there_are_pages() -> None:
    assert board_view("hearts", 0, 1) is None
    view = board_view("hearts", 0, 3)
    assert view is not None
    ids = [getattr(item, "custom_id", None) for item in view.children]
    assert ids == ["lb:hearts:0:p", "lb:hearts:1:n"]
    assert [item.item.disabled for item in view.children if isinstance(item, ControlButton)] == [
        True,
        False,
    ]
    assert BOARD_PAGE.parse("lb:hearts:9999:n") == ("hearts", 9999, "n")
    assert ours("lb:hearts:9999:n")
    assert BOARD_PAGE.parse("lb:hearts:99999:n") is None
    assert not ours("lb:hearts:99999:n")


async def test_stats_after_rated_games(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.on_finished.append(Ratings(store).rate)
    for seed in range(3):
        await play_game(service, game="hearts", guild=1, channel=10, humans=[7, 8], seed=seed)
    await play_game(service, game="grinch", guild=1, channel=10, humans=[7], computers=1)
    stats = await Boards(store).stats(1, 7)
    by_game = {g.game: g for g in stats.games}
    assert stats.favourite == "hearts" and set(by_game) == {"hearts", "grinch"}
    hearts = by_game["hearts"]
    assert hearts.games == 3 and hearts.rated_games == 3 and len(hearts.trend) == 4
    assert hearts.trend[0] == 1000 and hearts.rating == hearts.trend[-1]
    lines = await store.players.score_lines(1, 7)
    assert hearts.best == min(x.lowest for x in lines if x.game == "hearts")  # lowest wins
    assert by_game["grinch"].rating is None  # one human: not rated
    text = str(stats_panel(stats, TITLES, start=1000))
    assert "favourite game: **2-Player Hearts**" in text and "not rated yet" in text
    assert "rating: a new player starts at 1000" in text
    only = await Boards(store).stats(1, 7, "grinch")
    assert [g.game for g in only.games] == ["grinch"]


async def test_a_new_player_who_loses_once_shows_a_little_under_the_start(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.on_finished.append(Ratings(store).rate)
    loaded = await play_game(service, game="hearts", guild=1, channel=10, humans=[7, 8])
    loser = next(r.user_id for r in await store.games.result_rows(loaded.row.id) if not r.won)
    line = (await Boards(store).stats(1, loser or 0)).games[0]
    assert line.trend[0] == 1000 and line.rating is not None and 900 < line.rating < 1000
    stored = {r.user_id: r.ordinal for r in await store.players.leaderboard(1, "hearts", limit=5)}
    assert stored[loser or 0] < 0  # the store keeps openskill's own ordinal
    board = await Boards(store).leaderboard(1, "hearts")
    assert [e.rating for e in board.entries][-1] == line.rating
    assert board.entries[0].rating > 1000


async def test_stats_count_a_game_left_to_a_computer_like_the_rating_does(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.on_finished.append(Ratings(store).rate)
    first = await play_game(service, game="hearts", guild=1, channel=10, humans=[7, 8], seed=1)
    won_first = next(r.won for r in await store.games.result_rows(first.row.id) if r.user_id == 7)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=10, host_id=7, host_name="P0"
    )
    gid = lobby.row.id
    await service.join(gid, 8, "P1")
    await service.start(gid, 7)
    await leave_game(service, gid, 7)  # a computer plays 7's seat to the end
    rng = random.Random(3)
    loaded = await service.load(gid)
    while loaded.row.status == "active":
        mine = loaded.seats[1]
        action = str(rng.choice(loaded.game.legal_actions(loaded.state, mine.seat)))
        loaded = (await service.act(gid, 8, mine.step, action)).after
    hearts = (await Boards(store).stats(1, 7)).games[0]
    assert hearts.games == hearts.rated_games == 2
    assert hearts.wins == int(won_first)  # what the computer did in 7's seat is not 7's
    text = str(stats_panel(await Boards(store).stats(1, 7), TITLES, start=1000))
    assert "2 games" in text and "(2 rated games)" in text


def test_trend_text() -> None:
    assert trend_text((0, 4, 3, 7)) == "▲ 7 over the last 3 games (0 → 4 → 3 → 7)"
    assert trend_text((5, 2)) == "▼ 3 over the last 1 game (5 → 2)"
    assert trend_text((5,)) == ""


async def test_commands_are_guild_only_and_stats_is_private(store: Store) -> None:
    client = CardBot(command_prefix="!", intents=discord.Intents.none())
    none = cast(Any, None)
    cog = PlayersCog(client, Boards(store), none)
    await client.add_cog(cog)
    try:
        for name in ("leaderboard", "stats"):
            command = client.tree.get_command(name)
            assert command is not None
            assert command.to_dict(client.tree)["dm_permission"] is False
        interaction = MagicMock()
        interaction.guild_id, interaction.user.id = 1, 7
        interaction.response.is_done = MagicMock(return_value=False)
        interaction.response.send_message = AsyncMock()
        stats = client.tree.get_command("stats")
        assert isinstance(stats, discord.app_commands.Command)
        await stats.callback(cog, interaction)  # type: ignore[arg-type]  # a mock interaction
        kwargs = interaction.response.send_message.await_args.kwargs
        assert kwargs["ephemeral"] is True and "No finished games" in str(
            kwargs["embed"].description
        )
    finally:
        await client.close()
