"""What the bot has shown of each game in Discord, kept on the publisher (never global).

The latest state of a game comes with each service report; message ids are owned here
(seeded from the database the first time a game is seen in this process), so rendering
needs no database read.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from db.models import Actor, GameStatus, SeatRow
from i18n import N_, Later, _
from presentation import UIS
from presentation.base import Button, Select
from presentation.titles import game_title
from presentation.viewing import Views, names_of
from service.reports import Loaded, Report

ACTIVE_SECONDS = 60.0  # a player who clicked this recently is looking at their DM

CANCELLED = N_("🛑 This game was cancelled.")  # a hand's and a table's last word


PrivateKey = tuple[dict[str, Any], list[str], int, float | None, bool, str]


def private_key(loaded: Loaded, seat: SeatRow, views: Views) -> PrivateKey:
    """What a seat's DM shows that the table does not: its own view's private part, its
    legal moves (with the step their buttons carry), its timer, autopilot, and the game's
    status. The DM is edited only when this changes (compared with ``==``: the views it
    holds are never modified); public changes are the table's job."""
    private, legal = views.private(loaded.game, loaded.state, seat.seat)
    return (private, legal, seat.step, seat.deadline, seat.autopilot, loaded.row.status)


@dataclass(slots=True)
class DmShown:
    channel_id: int | None = None
    message_id: int | None = None
    key: PrivateKey | None = None  # private_key() of what the message shows
    pending_notify: bool = False  # a new turn: the next draw may send a new, notifying DM
    note: Note | None = None  # a line for the next draw (a move played for the player)
    # Hand jobs that finished writing this DM: a click's answer that a job may have landed
    # after (it finished between the answer and its publish) cannot be taken as shown.
    writes: int = 0
    # The game version the message shows (or one whose private key is the same): recorded
    # as the seat's shown_version, so that a restart redraws a DM left behind.
    version: int = -1
    marked: int = -1  # the newest version handed to the marks for this DM


@dataclass(frozen=True, slots=True)
class Answered:
    """A response to a click drew ``seat``'s hand as of ``saw`` on ``message_id`` (the
    clicked message: its DM, or an ephemeral hand); ``writes``: the DM's
    :attr:`DmShown.writes` just before the response was sent."""

    seat: int
    message_id: int
    saw: Loaded
    writes: int


@dataclass(slots=True)
class GameShown:
    """One game as shown: its latest state, its table message and each seat's DM."""

    loaded: Loaded
    table_message_id: int | None
    table_key: str | None
    rendered_version: int
    dms: dict[int, DmShown] = field(default_factory=dict)
    table_behind: bool = False  # its channel refused the table: drawn again when it allows
    table_drawn: Loaded | None = None  # the state the table message last showed
    # the summaries' embeds its table message carries above the table (delivery/tables.py)
    table_head: list[dict[str, Any]] = field(default_factory=list)
    # tables it replaced, not retired yet: {"id": message id, "head": the summaries it carried}
    retiring: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def seed(cls, loaded: Loaded) -> GameShown:
        shown = cls(
            loaded,
            loaded.row.table_message_id,
            loaded.row.table_key,
            loaded.row.rendered_version,
            table_head=json_list(loaded.row.table_head),
            retiring=json_list(loaded.row.retiring_tables),
        )
        for seat in loaded.seats:
            shown.dms[seat.seat] = DmShown(
                seat.dm_channel_id,
                seat.dm_message_id,
                version=seat.shown_version,
                marked=seat.shown_version,
            )
        return shown

    def update(self, loaded: Loaded) -> None:
        """Keep the newest state (reports can arrive out of order)."""
        if loaded.row.version >= self.loaded.row.version or loaded.row.status != GameStatus.ACTIVE:
            self.loaded = loaded

    @property
    def version(self) -> int:
        return self.loaded.row.version

    def seat(self, number: int) -> SeatRow:
        return self.loaded.seats[number]

    def dm(self, number: int) -> DmShown:
        return self.dms.setdefault(number, DmShown())


@dataclass(slots=True)
class People:
    """Per user: the DM channel, whether DMs are closed, when they last clicked, and the
    newest message the bot sent them (a DM that is not the newest needs a new one)."""

    dm_channel: dict[int, int] = field(default_factory=dict)
    dm_closed: set[int] = field(default_factory=set)
    last_click: dict[int, float] = field(default_factory=dict)
    newest_message: dict[int, int] = field(default_factory=dict)  # channel id -> message id

    def clicked(self, user_id: int) -> None:
        self.last_click[user_id] = time.monotonic()
        if len(self.last_click) > 10_000:  # forget people who left long ago
            cutoff = time.monotonic() - ACTIVE_SECONDS
            self.last_click = {u: t for u, t in self.last_click.items() if t > cutoff}

    def active(self, user_id: int, dm: DmShown) -> bool:
        """Clicked in the last minute and their hand is the newest message in their DMs."""
        recent = time.monotonic() - self.last_click.get(user_id, -1e9) < ACTIVE_SECONDS
        newest = (
            dm.channel_id is not None
            and dm.message_id is not None
            and self.newest_message.get(dm.channel_id) == dm.message_id
        )
        return recent and newest


@dataclass(frozen=True, slots=True)
class ForcedNote:
    """A line saying which of a seat's moves were played for it because they were its only
    possible move (named as the button it would have pressed). It is written when shown
    (``str()``), so each player reads it in their own language."""

    report: Report
    seat: int

    def __str__(self) -> str:
        after = self.report.after
        game, ui, names = after.game, UIS[after.row.game], names_of(after)
        moves: list[str] = []
        for index, move in enumerate(self.report.moves):
            state = self.report.state_before(index)
            if move.actor != Actor.FORCED or move.seat != self.seat or state is None:
                continue
            screen = ui.hand(game.view(state, move.seat), [move.action], names)
            labels = [
                c.label
                for c in screen.controls
                if isinstance(c, Button) and c.action == move.action
            ]
            labels += [
                label
                for c in screen.controls
                if isinstance(c, Select)
                for label, action, _desc in c.options
                if action == move.action
            ]
            moves.append(labels[0] if labels else move.action)
        return _("▶️ Your only possible move was played for you: {moves}.", moves=", ".join(moves))


Note = str | ForcedNote | Later  # a Later is translated when drawn, in the player's language


def forced_notes(report: Report) -> dict[int, ForcedNote]:
    """Per seat with a move played for it in ``report``, its note (see :class:`ForcedNote`)."""
    seats = {m.seat for m in report.moves if m.actor == Actor.FORCED}
    return {seat: ForcedNote(report, seat) for seat in sorted(seats)}


def jump_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def hand_header(
    loaded: Loaded,
    seat: SeatRow,
    where: str,
    table_message_id: int | None,
    note: Note | None = None,
) -> str:
    """The first lines of a hand message: which game, where, a note, its timer, autopilot."""
    url = jump_url(loaded.row.guild_id, loaded.row.channel_id, table_message_id)
    lines = [
        _(
            "**{game}** in {where} — [go to the table]({url})",
            game=game_title(loaded.row.game),
            where=where,
            url=url,
        )
    ]
    if note:
        lines.append(str(note))
    if loaded.row.status == GameStatus.CANCELLED:
        lines.append(_(CANCELLED))
    if seat.deadline is not None and loaded.row.status == GameStatus.ACTIVE:
        lines.append(_("⏱ Your turn ends {when}.", when=f"<t:{int(seat.deadline)}:R>"))
    if seat.autopilot and loaded.row.status == GameStatus.ACTIVE:
        lines.append(_("🤖 You are on autopilot. Press “I'm back” to play again."))
    return "\n".join(lines)


def json_list(text: str | None) -> list[dict[str, Any]]:
    """A list recorded as JSON (None: empty): the summaries' embeds a table message carries
    (``games.table_head``), or the replaced tables not retired yet (``games.retiring_tables``)."""
    return list(json.loads(text)) if text else []
