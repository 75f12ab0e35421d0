"""Leaderboards and players' statistics over the ratings and results (no Discord)."""

from __future__ import annotations

from dataclasses import dataclass

from db.store import Store
from engine import GAMES
from i18n import Later
from service.errors import NoGame
from service.ratings import LOWEST_WINS, shown

PAGE_SIZE = 10
TREND_GAMES = 5


@dataclass(frozen=True, slots=True)
class BoardEntry:
    place: int
    user_id: int
    rating: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class BoardPage:
    game: str
    page: int  # 0-based
    pages: int
    entries: tuple[BoardEntry, ...]


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    games: int
    wins: int
    average: float
    best: int
    rating: int | None  # None: never rated (no game with two humans yet)
    rated_games: int
    trend: tuple[int, ...]  # the rating before the last games, then after each of them


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    games: tuple[GameStats, ...]
    favourite: str | None


class Boards:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def leaderboard(self, guild_id: int, game: str | None, page: int = 0) -> BoardPage:
        """One page of a server's leaderboard; without a game, its most played rated game."""
        if game is None:
            played = await self.store.players.rated_games(guild_id)
            if not played:
                raise NoGame("No rated games in this server yet: finish a game with a friend.")
            game = played[0][0]
        if game not in GAMES:
            raise NoGame("I don't know that game.")
        size = await self.store.players.leaderboard_size(guild_id, game)
        if size == 0:
            raise NoGame("No rated {game} games in this server yet.", game=Later(GAMES[game].title))
        pages = (size + PAGE_SIZE - 1) // PAGE_SIZE
        page = max(0, min(page, pages - 1))
        rows = await self.store.players.leaderboard(
            guild_id, game, limit=PAGE_SIZE, offset=page * PAGE_SIZE
        )
        entries = tuple(
            BoardEntry(page * PAGE_SIZE + n + 1, r.user_id, shown(r.ordinal), r.games, r.wins)
            for n, r in enumerate(rows)
        )
        return BoardPage(game, page, pages, entries)

    async def stats(self, guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
        """A player's finished games in a server, per game, with rating and trend."""
        lines = [
            x
            for x in await self.store.players.score_lines(guild_id, user_id)
            if game in (None, x.game)
        ]
        ratings = {r.game: r for r in await self.store.players.player_ratings(guild_id, user_id)}
        per_game: list[GameStats] = []
        for line in lines:
            rating = ratings.get(line.game)
            trend: tuple[int, ...] = ()
            if rating is not None:
                history = await self.store.players.rating_trend(
                    guild_id, user_id, line.game, last=TREND_GAMES
                )
                if history:
                    trend = (shown(history[0].before), *(shown(h.ordinal) for h in history))
            per_game.append(
                GameStats(
                    game=line.game,
                    games=line.games,
                    wins=line.wins,
                    average=line.total_sum / line.games,
                    best=line.lowest if line.game in LOWEST_WINS else line.highest,
                    rating=None if rating is None else shown(rating.ordinal),
                    rated_games=0 if rating is None else rating.games,
                    trend=trend,
                )
            )
        favourite = max(per_game, key=lambda g: (g.games, g.wins), default=None)
        return PlayerStats(user_id, tuple(per_game), None if favourite is None else favourite.game)
