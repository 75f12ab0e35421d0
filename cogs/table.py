"""In-game flow shared by every game: moves, hands, scores and rules.

A click is answered by its own interaction response, which carries the clicker's updated
hand (one call, exempt from Discord's rate limits); everything else a move changed is queued
with the publisher and never holds up the answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from db.models import SeatRow
from delivery.hands import ANSWER_PICTURE_WAIT, OUT_OF_DATE
from delivery.pending import PendingClick
from delivery.publisher import Publisher
from delivery.shown import Note, forced_notes, names_of
from discordkit import to_discord
from discordkit.clicks import BACK, HAND, MOVE
from discordkit.client import CardBot
from discordkit.locale import public_language
from discordkit.replies import SORRY, answer, answering_errors, refuse, reply, within_budget
from discordkit.waiting import first_done
from engine import GAMES
from i18n import _
from presentation import UIS
from presentation.titles import game_title
from service.errors import GameClosed, NoGame, PlayError, StaleMove
from service.games import GameService
from service.reports import Loaded, Report

log = logging.getLogger(__name__)


# Seconds the click's answer waits for the computers' moves after it. Most computer replies
# are saved within it (a Ten or Gnoming reply in a few ms); waiting 50 ms instead cost every
# slow reply's clicker 50 ms (the acknowledgement p99 of 10 games: 52 ms, now 27 ms) and saved
# no REST call measurably (2.13 and 2.14 calls per click).
FOLLOW_WAIT = 0.02


@dataclass(frozen=True, slots=True)
class _Answered:
    """A click answered with its move: what publishing the rest of it needs."""

    work: asyncio.Future[Report]  # the move and the computers' moves after it
    shown: Report  # what the answer showed
    seat: SeatRow
    message_id: int  # the clicked message, which the answer updated
    writes: int  # the seat's DM writes before the answer (Publisher.dm_writes)
    action: str


async def _first_answer(own: asyncio.Future[Report], work: asyncio.Future[Report]) -> Report:
    """What the click's own response shows: the game after the computers' answers if they
    come within FOLLOW_WAIT of the player's move being saved, else after the player's move
    (the computers' moves then reach the table and the DMs as they come). Raises what
    ``act`` raised if the move was not saved."""
    await first_done(own, work)
    if not own.done():
        return await work
    await first_done(work, timeout=FOLLOW_WAIT)
    if work.done() and not work.cancelled() and work.exception() is None:
        return work.result()
    return own.result()


class TableCog(commands.Cog, name="Table"):
    def __init__(self, bot: CardBot, service: GameService, publisher: Publisher) -> None:
        self.bot = bot
        self.service = service
        self.publisher = publisher

    async def cog_load(self) -> None:
        self.bot.controls.on(MOVE, self.on_move)
        self.bot.controls.on(HAND, self.send_hand)
        self.bot.controls.on(BACK, self.on_back)

    # -- buttons -------------------------------------------------------------------------

    async def on_move(
        self, interaction: discord.Interaction[CardBot], game_id: int, step: int, action: str
    ) -> None:
        pending = self.publisher.pending
        try:
            with self.publisher.answering.answering():  # queued edits wait for this answer
                answered = await self._answer_move(interaction, game_id, step, action)
        finally:
            pending.done(interaction.id)  # answered (or refused): a restart owes it nothing
        if answered is not None:
            await self._publish_move(answered)

    async def _answer_move(
        self, interaction: discord.Interaction[CardBot], game_id: int, step: int, action: str
    ) -> _Answered | None:
        """The click's own answer; None when the move was refused (and the click answered)."""
        user_id = interaction.user.id
        self.publisher.people.clicked(user_id)
        own: asyncio.Future[Report] = asyncio.get_running_loop().create_future()

        def recorded(partial: Report) -> None:
            if not own.done():
                own.set_result(partial)

        work = asyncio.ensure_future(
            self.service.act(game_id, user_id, step, action, recorded=recorded)
        )
        click = PendingClick(game_id, user_id, step)
        try:
            shown = await within_budget(
                interaction,
                _first_answer(own, work),
                deferring=lambda: self.publisher.pending.add(interaction.id, click),
            )
        except StaleMove as exc:
            log.info("old control %r in game %s", action, game_id)
            await self._old_control(interaction, game_id, user_id, exc)
            return None
        except GameClosed as exc:
            await self._closed_game(interaction, game_id, user_id, exc)
            return None
        except PlayError as exc:
            log.info("move %r in game %s refused: %s", action, game_id, exc)
            await refuse(interaction, exc)
            return None
        except Exception:
            log.exception("move %r in game %s failed", action, game_id)
            await reply(interaction, _(SORRY))
            return None
        seat = shown.after.seat_of(user_id)
        message = interaction.message
        if seat is None or message is None:  # pragma: no cover - act() checked the seat
            await answer(interaction, update=True)
            return None
        note: Note | None = forced_notes(shown).get(seat.seat)
        if not shown.moves:  # the click only took its player off autopilot, on an old step
            note = f"⚠️ {_(StaleMove.NO_LONGER)}"
        kwargs = self.publisher.hand_kwargs(shown.after, seat, edit=True, note=note)
        kwargs = await self.publisher.hands.with_picture(
            shown.after, seat.seat, kwargs, edit=True, wait=ANSWER_PICTURE_WAIT
        )
        writes = self.publisher.dm_writes(game_id, seat.seat)
        await answer(interaction, update=True, **kwargs)
        return _Answered(work, shown, seat, message.id, writes, action)

    async def _publish_move(self, answered: _Answered) -> None:
        """Everything else the click changed, once the computers' moves after it are in."""
        try:  # done already, or the computers are still answering: show what they did
            report = await answered.work
        except Exception:  # after the player's move was saved: show that much
            log.exception(
                "game %s: the moves after %r failed", answered.shown.after.row.id, answered.action
            )
            report = answered.shown
        self.publisher.publish(
            report,
            clicker=answered.seat,
            clicked_message=answered.message_id,
            clicker_saw=answered.shown.after,
            clicker_writes=answered.writes,
        )

    async def _old_control(
        self, interaction: discord.Interaction[CardBot], game_id: int, user_id: int, exc: StaleMove
    ) -> None:
        """Say so, on the player's hand redrawn as it is now where possible: the response is
        exempt from the bot's REST budget, while the hand's own edit may wait seconds behind
        it on a busy bot, and a player seeing the same old buttons would click old ones
        again."""
        message = interaction.message
        old = None
        if message is not None and exc.version is not None:
            old = self.publisher.old_click(
                game_id,
                exc.version,
                user_id,
                message.id,
                ephemeral=message.flags.ephemeral,
                text=exc.translated(),
            )
        if old is None:
            # An older hand DM that kept its buttons (Discord refused the edit retiring it):
            # the answer retires it, as the bot does when it sends a newer hand.
            marked = (
                message is not None
                and self.publisher.is_old_hand(game_id, user_id, interaction.channel_id, message.id)
                and await answer(interaction, update=True, content=_(OUT_OF_DATE), view=None)
            )
            if not marked:
                await refuse(interaction, exc)
            return
        hands = self.publisher.hands
        kwargs = await hands.with_picture(
            old.loaded, old.seat, old.kwargs, edit=True, wait=ANSWER_PICTURE_WAIT
        )
        await answer(interaction, update=True, **kwargs)
        self.publisher.old_click_answered(old)

    async def _closed_game(
        self,
        interaction: discord.Interaction[CardBot],
        game_id: int,
        user_id: int,
        exc: GameClosed,
    ) -> None:
        """A move on a game that is over: say so on the player's hand redrawn in its final
        state, without buttons (a crash may have left their DM behind, buttons and all)."""
        message = interaction.message
        try:
            loaded = await self.service.load(game_id)
        except Exception:
            log.exception("could not load finished game %s", game_id)
            loaded = None
        closed = None
        if loaded is not None and message is not None:
            ephemeral = message.flags.ephemeral
            closed = self.publisher.closed_hand(
                loaded, user_id, message.id, ephemeral=ephemeral, text=exc.translated()
            )
        if loaded is None or closed is None:
            await refuse(interaction, exc)
            return
        seat_no, kwargs = closed
        if await answer(interaction, update=True, **kwargs) and not ephemeral:
            self.publisher.closed_hand_shown(loaded, seat_no)

    async def on_back(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        async with answering_errors(interaction) as refused:
            report = await within_budget(
                interaction,
                self.service.come_back(game_id, interaction.user.id),
                ephemeral=True,
                thinking=True,
            )
        if refused:
            return
        await reply(interaction, _("Welcome back! Autopilot is off."))  # for the clicker alone
        if report.after is not report.before:
            self.publisher.publish(report)

    async def send_hand(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        """The player's hand and buttons as an ephemeral message."""
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(
                interaction, self.service.load(game_id), ephemeral=True, thinking=True
            )
        if refused:
            return
        if interaction.channel_id != loaded.row.channel_id:
            await reply(interaction, _("That button belongs to a game in another channel."))
            return
        seat = loaded.seat_of(interaction.user.id)
        if seat is None and loaded.left_by(interaction.user.id):
            left = _("You left this game; a computer player plays your seat now.")
            await reply(interaction, left)
            return
        if seat is None:
            await reply(interaction, _("You are not playing in this game."))
            return
        if loaded.state is None:
            await reply(interaction, _("The game has not started yet."))
            return
        kwargs = self.publisher.hand_kwargs(loaded, seat)
        # On the seat's turn the answer carries the hand's picture, as the turn's DM would (for
        # a player whose DMs are closed it is the only hand they have). It rides on the answer
        # when drawn within ANSWER_PICTURE_WAIT; otherwise the text goes first (Discord's 3 s)
        # and the picture is edited in once drawn.
        drawing = asyncio.ensure_future(
            self.publisher.hands.with_picture(loaded, seat.seat, {}, edit=False)
        )
        await first_done(drawing, timeout=ANSWER_PICTURE_WAIT)
        late = not drawing.done()
        if not late:
            kwargs = {**kwargs, **drawing.result()}
        if interaction.response.is_done():
            sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            edit: Callable[..., Awaitable[object]] = sent.edit
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
            edit = interaction.edit_original_response
        if late:
            files = (await drawing).get("files")
            if files:
                try:
                    await edit(attachments=files)
                except discord.HTTPException:
                    log.warning(
                        "could not add the hand picture to %s", interaction.id, exc_info=True
                    )

    # -- commands ------------------------------------------------------------------------

    async def channel_game_named(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> Loaded | None:
        """The channel's open game if it is ``game_name``; otherwise say why and return None."""
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(
                interaction,
                self.service.channel_game(interaction.channel_id or 0),
                ephemeral=True,
                thinking=True,
            )
        if refused:
            return None
        if loaded.row.game != game_name:
            await reply(
                interaction,
                _("The game in this channel is {game}.", game=game_title(loaded.row.game)),
            )
            return None
        return loaded

    async def hand_command(self, interaction: discord.Interaction[CardBot], game_name: str) -> None:
        loaded = await self.channel_game_named(interaction, game_name)
        if loaded is not None:
            await self.send_hand(interaction, loaded.row.id)

    @app_commands.command(name="scores", description="Show the score sheet of this channel's game")
    @app_commands.guild_only()
    async def scores(self, interaction: discord.Interaction[CardBot]) -> None:
        try:
            loaded = await within_budget(
                interaction,
                self.service.channel_game(interaction.channel_id or 0, finished_too=True),
                thinking=True,
            )
        except NoGame:
            await reply(interaction, _("No game has been played in this channel yet."))
            return
        if loaded.state is None:
            await reply(interaction, _("The game in this channel has not started yet."))
            return
        i18n.set_language(await public_language(interaction))  # the sheet is shown to all
        view = loaded.game.view(loaded.state, None)
        panel = UIS[loaded.row.game].scores(view, names_of(loaded))
        await answer(interaction, update=False, embed=to_discord.embed(panel))

    @app_commands.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=n) for n, g in sorted(GAMES.items())]
    )
    async def rules(self, interaction: discord.Interaction[CardBot], game: str) -> None:
        ui = UIS.get(game)
        if ui is None:
            await reply(interaction, _("I don't know that game."))
            return
        await interaction.response.send_message(embed=to_discord.embed(ui.rules()), ephemeral=True)
