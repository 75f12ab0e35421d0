"""Short ephemeral answers, shared by every cog: the one place a service error becomes a reply
(:func:`answering_errors`, :func:`refuse`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from discordkit.rest import update_clicked
from discordkit.waiting import first_done
from i18n import N_, _
from service.errors import PlayError

log = logging.getLogger(__name__)

T = TypeVar("T")

# Translated where it is shown: reply(interaction, _(SORRY)).
SORRY = N_("Sorry, something went wrong on my side. Your game is safe; please try again.")
IN_A_SERVER = N_("Games are played in a server channel.")


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # a public "thinking..." answer would stay: it gives way to the private one
            await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)


async def refuse(interaction: discord.Interaction[Any], error: PlayError) -> None:
    """Tell the person why what they tried cannot happen: the service's error, translated
    here into the current language (the person's, set when the interaction came in)."""
    await reply(interaction, error.translated())


class Refusal:
    """The async context manager :func:`answering_errors` returns; true once it answered an
    error (the caller stops there). ``error`` is what it caught."""

    def __init__(self, interaction: discord.Interaction[Any], failure: str | None) -> None:
        self.interaction = interaction
        self.failure = failure
        self.error: Exception | None = None

    def __bool__(self) -> bool:
        return self.error is not None

    async def __aenter__(self) -> Refusal:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _tb: object
    ) -> bool:
        """True (the error is answered, the block left) for a PlayError, and with a
        ``failure`` for any other Exception; anything else goes on (a cancellation too)."""
        if isinstance(error, PlayError):
            self.error = error
            await refuse(self.interaction, error)
            return True
        if isinstance(error, Exception) and self.failure is not None:
            self.error = error
            log.error("%s failed", self.failure, exc_info=error)
            await reply(self.interaction, _(SORRY))
            return True
        return False


def answering_errors(
    interaction: discord.Interaction[Any], *, failure: str | None = None
) -> Refusal:
    """Answer a :class:`PlayError` raised in the block with :func:`refuse` (once, privately,
    whether or not the interaction was answered or deferred already) and leave the block.

    With ``failure`` (what the block was doing, for the log), any other exception is logged
    with its traceback and answered with :data:`SORRY`: for handlers whose work has no other
    boundary that would answer the person. The :class:`Refusal` turns true when the block
    was left so::

        async with answering_errors(interaction) as refused:
            loaded = await within_budget(interaction, work)
        if refused:
            return
    """
    return Refusal(interaction, failure)


ACK_BUDGET = 1.5  # seconds from a click or command being made to its deferral (Discord allows 3)
ANSWER_WINDOW = 3.0  # seconds Discord waits for an interaction's first answer


def waited(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created the interaction (its id's time), by this machine's clock.

    0 when the figure cannot be a wait: negative, or past Discord's window, where the
    machine's clock disagrees with Discord's (or the interaction is past answering anyway)."""
    age = time.time() - discord.utils.snowflake_time(interaction.id).timestamp()
    return age if 0.0 < age < ANSWER_WINDOW else 0.0


async def within_budget(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    thinking: bool = False,
    budget: float = ACK_BUDGET,
    deferring: Callable[[], None] | None = None,
) -> T:
    """Run ``work``; if the interaction would wait longer than ``budget`` for it, acknowledge
    the interaction first.

    Usually the work (one database transaction) is done long before the budget, and the
    answer goes out as the interaction's own response: one call, no defer followed by an
    edit. Under load the acknowledgement never waits on the database queue: past the budget
    the interaction is deferred (``ephemeral``/``thinking`` as given) and the caller's answer
    becomes an edit of the deferred response (see :func:`answer`). ``deferring`` is called
    just before the deferral is sent.

    The budget counts from the interaction's creation (:func:`waited`), as Discord's window
    does: an interaction that reached a busy process late is deferred sooner, at once when it
    is already past the budget.
    """
    task = asyncio.ensure_future(work)
    late = waited(interaction)
    if late >= budget:
        log.info(
            "interaction %s came %.1f s after it was made: deferred at once", interaction.id, late
        )
    else:
        await first_done(task, timeout=budget - late)
    if not task.done() and not interaction.response.is_done():
        if deferring is not None:
            deferring()
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        except discord.HTTPException as exc:
            log.warning("could not defer interaction %s: %s", interaction.id, exc)
    return await task


async def answer(interaction: discord.Interaction[Any], *, update: bool, **kwargs: Any) -> bool:
    """The interaction's answer: its response, or an edit of the deferred response; False
    (logged) if Discord refused it.

    ``update`` edits the message the component is on (a click); otherwise a new message.
    """
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        elif update:
            await update_clicked(interaction, **kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
        return False
    return True
