"""The players' layer of the store: ratings, their history and per-player statistics.

``store.players`` (the same SQL on both engines). Ratings are derived
data: ``rating_history`` holds one row per rated player per game, ``ratings`` the latest
value per (server, game, player); both can be rebuilt from the results (:meth:`replace_ratings`).
The rating maths is the service's: the store hands the current values to a callback inside
the transaction that locks them, so two games finishing at once never lose an update.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, fields
from typing import Any

from db.columns import from_columns
from db.models import GameRow, GameStatus
from db.sql import Part, Tx

# (seat, user id or None for a computer, finishing place) of every seat of a finished game.
Entrant = tuple[int, int | None, int]
Skill = tuple[float, float]  # (mu, sigma)
# Given the entrants and the humans' current skills, every human's new skill.
RateFn = Callable[[Sequence[Entrant], Mapping[int, Skill]], Mapping[int, Skill]]
OrdinalFn = Callable[[Skill], float]


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    updated_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RatingRow:
        return from_columns(cls, row)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One player's rating after one game (``before``: the ordinal before it)."""

    game_id: int
    user_id: int
    guild_id: int
    game: str
    place: int
    mu: float
    sigma: float
    ordinal: float
    before: float
    at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> HistoryRow:
        return from_columns(cls, row)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """A player's finished games of one kind in one server: count, wins, totals."""

    game: str
    games: int
    wins: int
    total_sum: int
    lowest: int
    highest: int


_RATING_COLUMNS = ", ".join(f.name for f in fields(RatingRow))
_HISTORY_COLUMNS = ", ".join(f.name for f in fields(HistoryRow))


class Players(Part):
    """``store.players``: reads and writes of the players' layer."""

    # -- writes ------------------------------------------------------------------------------

    async def rate_game(
        self,
        game_id: int,
        places: Mapping[int, int],
        rate: RateFn,
        ordinal: OrdinalFn,
        default: Skill,
    ) -> list[HistoryRow]:
        """Record a finished game's places and rate its people; [] if already rated, not
        finished, or with fewer than two people (the places are written in every case). A
        person who left the game is rated in the seat they left (``places`` puts them last)."""
        async with self._sql.transaction() as tx:
            games = await tx.fetch(
                "SELECT guild_id, game, status, ended_at FROM games "
                f"WHERE id = ?{self._sql.row_lock}",
                game_id,
            )
            if not games or games[0]["status"] != GameStatus.FINISHED:
                return []
            guild_id, game = int(games[0]["guild_id"]), str(games[0]["game"])
            at = float(games[0]["ended_at"] or time.time())
            await tx.executemany(
                "UPDATE results SET place = ? WHERE game_id = ? AND seat = ?",
                [(place, game_id, seat) for seat, place in places.items()],
            )
            await tx.execute(  # the result keeps who left a seat to a computer
                "UPDATE results SET left_user_id = (SELECT s.left_user_id FROM seats s "
                "WHERE s.game_id = results.game_id AND s.seat = results.seat) WHERE game_id = ?",
                game_id,
            )
            done = await tx.fetch("SELECT 1 FROM rating_history WHERE game_id = ?", game_id)
            results = [  # a seat left to a computer is rated as the person who left it
                {**r, "person": r["user_id"] or r["left_user_id"]}
                for r in await tx.fetch(
                    "SELECT seat, user_id, left_user_id, won FROM results WHERE game_id = ? "
                    "ORDER BY seat",
                    game_id,
                )
            ]
            humans = {  # a win by the computer that took a seat is no win of the leaver's
                int(r["person"]): bool(r["won"]) and bool(r["user_id"])
                for r in results
                if r["person"]
            }
            if done or len(humans) < 2:
                return []
            start = (default[0], default[1], ordinal(default), 0, 0, at)
            await tx.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games, wins, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(guild_id, game, user, *start) for user in sorted(humans)],
            )
            marks = ",".join("?" * len(humans))
            current = {
                int(r["user_id"]): RatingRow.from_row(r)
                for r in await tx.fetch(
                    f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
                    f"AND user_id IN ({marks}) ORDER BY user_id{self._sql.row_lock}",
                    guild_id,
                    game,
                    *sorted(humans),
                )
            }
            entrants = [(int(r["seat"]), r["person"], places[int(r["seat"])]) for r in results]
            new = rate(entrants, {u: (c.mu, c.sigma) for u, c in current.items()})
            seat_of = {int(r["person"]): int(r["seat"]) for r in results if r["person"]}
            history = [
                HistoryRow(
                    game_id,
                    user,
                    guild_id,
                    game,
                    places[seat_of[user]],
                    new[user][0],
                    new[user][1],
                    ordinal(new[user]),
                    current[user].ordinal,
                    at,
                )
                for user in sorted(humans)
            ]
            await tx.executemany(
                "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, "
                "wins = wins + ?, updated_at = ? WHERE guild_id = ? AND game = ? AND user_id = ?",
                [
                    (h.mu, h.sigma, h.ordinal, int(humans[h.user_id]), at, guild_id, game, user)
                    for h in history
                    for user in [h.user_id]
                ],
            )
            await _insert_history(tx, history)
        return history

    async def replace_ratings(
        self, ratings: Iterable[RatingRow], history: Iterable[HistoryRow]
    ) -> None:
        """Every rating and history row replaced at once (a rebuild), in one transaction."""
        async with self._sql.transaction() as tx:
            await tx.execute("DELETE FROM rating_history")
            await tx.execute("DELETE FROM ratings")
            marks = ",".join("?" * len(fields(RatingRow)))
            await tx.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ({marks})",
                [astuple(r) for r in ratings],
            )
            await _insert_history(tx, list(history))

    # -- reads -------------------------------------------------------------------------------

    async def games_to_rate(self, *, unrated_only: bool = False) -> list[GameRow]:
        """Finished games with two or more people (or people who left), in the order they
        ended."""
        unrated = (
            " AND NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.game_id = g.id)"
            if unrated_only
            else ""
        )
        rows = await self._sql.fetch(
            "SELECT g.* FROM games g WHERE g.status = 'finished' AND (SELECT COUNT(*) FROM "
            "seats s WHERE s.game_id = g.id AND COALESCE(s.user_id, s.left_user_id) IS NOT NULL) "
            f">= 2{unrated} "
            "ORDER BY g.ended_at, g.id"
        )
        return [GameRow.from_row(r) for r in rows]

    async def recent_games(
        self,
        guild_id: int,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = 5,
    ) -> list[GameRow]:
        """A server's finished games, newest first, of one channel and/or one player."""
        where, args = ["guild_id = ?", "status = 'finished'"], [guild_id]
        if channel_id is not None:
            where.append("channel_id = ?")
            args.append(channel_id)
        if user_id is not None:
            where.append(  # a game they left to a computer is one of theirs too
                "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id "
                "AND (s.user_id = ? OR s.left_user_id = ?))"
            )
            args += [user_id, user_id]
        rows = await self._sql.fetch(
            f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY ended_at DESC, id DESC "
            "LIMIT ?",
            *args,
            limit,
        )
        return [GameRow.from_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int, offset: int = 0
    ) -> list[RatingRow]:
        rows = await self._sql.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY ordinal DESC, games DESC, user_id LIMIT ? OFFSET ?",
            guild_id,
            game,
            limit,
            offset,
        )
        return [RatingRow.from_row(r) for r in rows]

    async def rated_games(self, guild_id: int) -> list[tuple[str, int]]:
        """(game, rated games played by all its players) of a server, most played first."""
        rows = await self._sql.fetch(
            "SELECT game, SUM(games) AS played FROM ratings WHERE guild_id = ? GROUP BY game "
            "ORDER BY played DESC, game",
            guild_id,
        )
        return [(str(r["game"]), int(r["played"])) for r in rows]

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        rows = await self._sql.fetch(
            "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND game = ?", guild_id, game
        )
        return int(rows[0]["n"])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._sql.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? "
            "ORDER BY game",
            guild_id,
            user_id,
        )
        return [RatingRow.from_row(r) for r in rows]

    async def rating_trend(
        self, guild_id: int, user_id: int, game: str, *, last: int
    ) -> list[HistoryRow]:
        """The player's last ``last`` rated games of one kind, oldest first."""
        rows = await self._sql.fetch(
            f"SELECT {_HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "AND game = ? ORDER BY at DESC, game_id DESC LIMIT ?",
            guild_id,
            user_id,
            game,
            last,
        )
        return [HistoryRow.from_row(r) for r in reversed(rows)]

    async def score_lines(self, guild_id: int, user_id: int) -> list[ScoreLine]:
        """Per game: the player's finished games in this server, wins, sum/min/max total.

        A game the player left to a computer counts as one of theirs (as the rating counts
        it), with their own total when they left (the seat's final total is the computer's;
        a seat left before that total was kept counts its final one); a win by that computer
        is no win of theirs."""
        own = "CASE WHEN r.user_id IS NULL THEN COALESCE(s.left_total, r.total) ELSE r.total END"
        rows = await self._sql.fetch(
            "SELECT g.game AS game, COUNT(*) AS games, "
            "SUM(CASE WHEN r.won AND r.user_id IS NOT NULL THEN 1 ELSE 0 END) AS wins, "
            f"SUM({own}) AS total_sum, MIN({own}) AS lowest, MAX({own}) AS highest "
            "FROM results r JOIN games g ON g.id = r.game_id "
            "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
            "WHERE g.guild_id = ? AND COALESCE(r.user_id, s.left_user_id) = ? "
            "AND g.status = 'finished' "
            "GROUP BY g.game ORDER BY g.game",
            guild_id,
            user_id,
        )
        return [from_columns(ScoreLine, r) for r in rows]


async def _insert_history(tx: Tx, history: Sequence[HistoryRow]) -> None:
    marks = ",".join("?" * len(fields(HistoryRow)))
    await tx.executemany(
        f"INSERT INTO rating_history ({_HISTORY_COLUMNS}) VALUES ({marks})",
        [astuple(h) for h in history],
    )
