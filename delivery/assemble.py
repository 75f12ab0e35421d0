"""The write path put together: the publisher and the move desk, each built with its parts.

The parts are built first, in the order they need each other, and handed to whoever uses
them; nothing is wired by setting attributes afterwards. The desk and the publisher share
what the desk's answers and the publisher's jobs must agree on: who is looking at their DMs,
which clicks are being answered, the deferred clicks, and what has been drawn of each game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from delivery.answering import Answering
from delivery.attachments import Attachments, always
from delivery.clicked import ClickedHands
from delivery.hands import Hands
from delivery.marks import BUSY_WAIT, RenderedMarks
from delivery.moves import MoveDesk
from delivery.onpage import OnPage
from delivery.pacing import Pacer
from delivery.peers import SharedView
from delivery.pending import PendingClicks
from delivery.publisher import Parts, Publisher
from delivery.shown import People
from delivery.speaking import Speaking
from presentation.drawing.painters import InThread
from service.games import GameService
from service.languages import Languages
from service.reports import Loaded


@dataclass(frozen=True, slots=True)
class Delivery:
    publisher: Publisher
    desk: MoveDesk


def assemble(
    bot: discord.Client,
    service: GameService,
    *,
    pacer: Pacer | None = None,
    attachments: Attachments | None = None,
    languages: Languages | None = None,
    pending: PendingClicks | None = None,
    result_view: Callable[[Loaded], discord.ui.View | None] | None = None,
    live_button: bool = False,
) -> Delivery:
    """The publisher and the desk of one bot. ``pending``: where deferred clicks are kept
    (default: nowhere); ``result_view``: the buttons under a finished game's result;
    ``live_button``: tables offer "Open the table"."""
    pacer = pacer or Pacer()
    attachments = attachments or Attachments(InThread(), always)
    # The pictures and the messages of a move read the same views: one memo of them.
    people, views, shared = People(), attachments.views, SharedView(service)
    parts = Parts(
        speaking=Speaking(bot, languages),
        pacer=pacer,
        attachments=attachments,
        people=people,
        views=views,
        hands=Hands(
            bot,
            service,
            pacer,
            people,
            attachments,
            views,
            catch_up=shared.refresh,
            # With the live table on, a player whose page is open gets no DM hand edits.
            on_page=OnPage(service.showing, service.changes) if live_button else None,
        ),
        answering=Answering(),
        # On a shared store a write of marks is a transaction of its own: they wait for a
        # pause in the drawing (delivery/marks.py).
        marks=RenderedMarks(
            service.showing, busy_wait=BUSY_WAIT if service.showing.shared else 0.0
        ),
        shared=shared,
        pending=pending or PendingClicks(),
    )
    publisher = Publisher(bot, service, parts, result_view=result_view, live_button=live_button)
    clicked = ClickedHands(publisher.games, parts.hands, parts.marks, publisher)
    desk = MoveDesk(
        service,
        publisher,
        clicked,
        people=people,
        answering=parts.answering,
        pending=parts.pending,
    )
    return Delivery(publisher, desk)
