"""Ratings: openskill's Plackett-Luce model, per server and per game, over finished games.

A finished game with at least two humans is rated: every seat's finishing place comes from
the engine's :class:`~engine.base.Outcome` (:func:`places`), humans carry their stored rating,
and each computer seat takes part as a fixed-strength opponent at its level's skill
(:data:`COMPUTER_SKILLS`, never updated). Only the humans' new ratings are kept. The
conservative rating shown to players is openskill's ordinal (mu - 3 sigma) on a friendlier
scale (:func:`shown`): a new player shows :data:`NEW_PLAYER`, and the stored values stay
openskill's.

Ratings are derived data: :meth:`Ratings.rebuild` recomputes every rating from the stored
results in the order the games ended, which gives exactly the values the incremental
updates (:meth:`Ratings.rate`) gave.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from openskill.models import PlackettLuce

from db.models import GameRow, GameStatus, SeatRow
from db.players import Entrant, HistoryRow, RatingRow, Skill
from db.store import Store
from engine import GAMES
from engine.base import Level, Outcome
from engine.sheet import final_sheet

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
DEFAULT_SKILL: Skill = (MODEL.mu, MODEL.sigma)  # a new player: 25 ± 8.33, ordinal 0
# A computer seat: a fixed skill per level, certain of it (a small sigma), so beating one is
# modest evidence and its own value never moves. Normal is as strong as a new player on
# average; easy is below, hard above, a fifth of the scale each way (5 of mu 25): beating a
# hard computer gains more than beating a normal one, which gains more than an easy one.
COMPUTER_SIGMA = 2.0
COMPUTER_SKILLS: dict[Level, Skill] = {
    Level.EASY: (MODEL.mu - 5.0, COMPUTER_SIGMA),
    Level.NORMAL: (MODEL.mu, COMPUTER_SIGMA),
    Level.HARD: (MODEL.mu + 5.0, COMPUTER_SIGMA),
}
COMPUTER_SKILL: Skill = COMPUTER_SKILLS[Level.NORMAL]  # a computer whose level is not known
# Games where the lowest total wins (the rules: Gnoming A Round, 2-Player Hearts).
LOWEST_WINS = frozenset(name for name, game in GAMES.items() if game.lowest_wins)
MIN_HUMANS = 2


def places(game: str, outcome: Outcome) -> list[int]:
    """Each seat's finishing place (1 = first; ties share a place, the next place skips), as
    the game's score sheet gives it (:func:`engine.sheet.final_sheet`): the engine's own
    places when it gives them (Ten's tie-breaks); otherwise the winners share first place
    and the others follow by total in the game's direction.
    """
    return list(final_sheet(outcome, lowest_wins=game in LOWEST_WINS).places)


def leavers_last(found: list[int], left: set[int]) -> list[int]:
    """Places again with the seats in ``left`` after every other seat (tied among them)."""
    keys = [(1, 0) if seat in left else (0, place) for seat, place in enumerate(found)]
    return [1 + sum(other < key for other in keys) for key in keys]


def ordinal(skill: Skill) -> float:
    """The conservative rating: openskill's ordinal (mu - 3 sigma)."""
    return float(MODEL.create_rating([skill[0], skill[1]]).ordinal())


# The scale players see: a new player's ordinal (0) shows as NEW_PLAYER, and each point of
# ordinal is worth POINTS shown points. A lifetime of losses stays far above 0 (about -10 in
# ordinal after 40 straight losses between two people), so the floor at 0 is a safety net only.
NEW_PLAYER = 1000
POINTS = 10


def shown(value: float) -> int:
    """The rating as players see it: the ordinal ``value`` as a whole number, a new player at
    :data:`NEW_PLAYER`, never below 0."""
    return max(0, round(NEW_PLAYER + POINTS * value))


def rate_match(
    entrants: Sequence[Entrant],
    current: Mapping[int, Skill],
    levels: Mapping[int, Level] | None = None,
) -> dict[int, Skill]:
    """Every human's new skill after one game; computers are fixed-strength opponents, each
    with the skill of its seat's level (``levels``: seat -> level; normal where not given)."""
    teams = []
    for seat, user, _place in entrants:
        if user is None:
            mu, sigma = COMPUTER_SKILLS[(levels or {}).get(seat, Level.NORMAL)]
        else:
            mu, sigma = current.get(user, DEFAULT_SKILL)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(place) for _s, _u, place in entrants])
    return {
        user: (float(team[0].mu), float(team[0].sigma))
        for (_seat, user, _place), team in zip(entrants, rated, strict=True)
        if user is not None
    }


def levels_of(seats: Sequence[SeatRow]) -> dict[int, Level]:
    """Each computer seat's level, as the game stored it (seat -> level)."""
    return {s.seat: s.level for s in seats if s.is_computer}


@dataclass(frozen=True, slots=True)
class Rebuilt:
    games: int
    players: int


class Ratings:
    """Rates finished games into the store; one instance per bot (or per command)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _places(self, row: GameRow, seats: Sequence[SeatRow]) -> list[int] | None:
        """Finishing places; people who left come last, whatever their seat's computer did."""
        if row.snapshot is None:
            return None
        game = GAMES[row.game]
        outcome = game.outcome(game.from_json(row.snapshot))
        if outcome is None:
            return None
        found = places(row.game, outcome)
        left = {s.seat for s in seats if s.left_user_id is not None}
        return leavers_last(found, left) if left else found

    async def rate(self, game_id: int) -> list[HistoryRow]:
        """Rate one finished game (a second call changes nothing); [] when it is not rated."""
        row = await self.store.games.game(game_id)
        seats = await self.store.games.seats(game_id)
        found = await self._places(row, seats)
        if row.status != GameStatus.FINISHED or found is None:
            return []
        rate = partial(rate_match, levels=levels_of(seats))
        history = await self.store.players.rate_game(
            game_id, dict(enumerate(found)), rate, ordinal, DEFAULT_SKILL
        )
        if history:
            log.info("game %s rated for %d players", game_id, len(history))
        return history

    async def catch_up(self) -> int:
        """Rate finished games a crash left unrated (at start-up); how many were."""
        rated = 0
        for row in await self.store.players.games_to_rate(unrated_only=True):
            rated += bool(await self.rate(row.id))
        return rated

    async def rebuild(self) -> Rebuilt:
        """Recompute every rating from the stored results and replace them in one go."""
        skills: dict[tuple[int, str, int], Skill] = {}
        counts: dict[tuple[int, str, int], tuple[int, int, float]] = {}
        history: list[HistoryRow] = []
        games = await self.store.players.games_to_rate()
        for row in games:
            seats = await self.store.games.seats(row.id)
            found = await self._places(row, seats)
            if found is None:
                continue
            left = {s.seat: s.left_user_id for s in seats}
            results = [
                replace(r, user_id=r.user_id or left.get(r.seat), won=r.won and bool(r.user_id))
                for r in await self.store.games.result_rows(row.id)
            ]
            entrants = [(r.seat, r.user_id, found[r.seat]) for r in results]
            current = {
                r.user_id: skills.get((row.guild_id, row.game, r.user_id), DEFAULT_SKILL)
                for r in results
                if r.user_id is not None
            }
            new = rate_match(entrants, current, levels_of(seats))
            at = float(row.ended_at or row.updated_at)
            for r in results:
                if r.user_id is None:
                    continue
                key = (row.guild_id, row.game, r.user_id)
                skills[key] = new[r.user_id]
                played, won, _ = counts.get(key, (0, 0, at))
                counts[key] = (played + 1, won + r.won, at)
                history.append(
                    HistoryRow(
                        row.id,
                        r.user_id,
                        row.guild_id,
                        row.game,
                        found[r.seat],
                        new[r.user_id][0],
                        new[r.user_id][1],
                        ordinal(new[r.user_id]),
                        ordinal(current[r.user_id]),
                        at,
                    )
                )
        ratings = [
            RatingRow(guild, game, user, mu, sigma, ordinal((mu, sigma)), *counts[key])
            for key, (mu, sigma) in sorted(skills.items())
            for guild, game, user in [key]
        ]
        await self.store.players.replace_ratings(ratings, history)
        return Rebuilt(len(games), len(ratings))
