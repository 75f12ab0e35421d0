"""Drawing in a child process: :class:`DrawingProcess` is the bot's painter, and
``python -m workers.drawing`` the child it starts (see workers.runner for how they talk).

The bot starts the child as it starts (the first picture would otherwise wait for the child's
imports), and again after it dies; it ends when the bot closes it or dies itself.

Between requests, while none waits, the child draws card faces ahead
(presentation.drawing.warm): the whole box of each game it drew a picture of, at the sizes and
in the languages asked. Then it makes the captions of the hands likely to come next
(:class:`CaptionsAhead`): a caption no picture has shown yet is made by the hand that first
shows it, and that hand is often one a click's answer waits for (a Hearts trick's winner
leading the next).
It reads its input itself, unbuffered, so it knows whether a request waits before each step
it takes ahead: a request waits for one step at most. Before each picture it reads all the
input that waits, and draws an urgent request (one a click's answer waits for: the clicker's
own hand) before the others: a hand for a paced DM edit, a table or a round's summary then
waits a picture longer, where a click's answer would have waited for all of them. Urgent
requests come one per click at most; on a bot so busy that they never stop, the others wait,
and a message that waits for one past its limit (delivery.hands) goes without it."""

from __future__ import annotations

import logging
import os
import pickle
import select
import signal
import sys
from collections import deque
from collections.abc import Sequence
from typing import Any, BinaryIO

import i18n
from engine.base import View
from presentation.drawing.api import Pictures, card_sizes
from presentation.drawing.painters import PictureFailed
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from workers.runner import (
    HEADER_SIZE,
    ChildFailed,
    ChildProcess,
    Handlers,
    answer,
    frame,
    tune_collector,
)

WORKER_MODULE = "workers.drawing"
# Freed image memory Pillow keeps for the next image (its default keeps none): each picture
# allocates a canvas of about half a megabyte and a few smaller images, and memory fresh from
# the system costs a page fault per 4 kB on first touch. At most this many blocks are kept,
# each the size of an image drawn (a few MB in all).
BLOCKS_KEPT = 16
HANDS_AHEAD = 4  # hands drawn lately whose next captions wait to be made (the newest first)


def handlers(pictures: Pictures) -> Handlers:
    """What the bot may ask: :class:`Pictures`'s drawing methods."""
    return {
        "hand": pictures.hand,
        "table": pictures.table,
        "summary": pictures.summary,
        "chart": pictures.chart,
        "card": pictures.card,
    }


log = logging.getLogger(__name__)

READ_SIZE = 1 << 16
URGENT = 5  # a request's field that says a person waits for it (workers.runner)


class Requests:
    """The requests read so far, cut into frames (workers.runner's: a 4-byte length, then
    a pickle), and taken urgent ones first."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._urgent: deque[Any] = deque()
        self._others: deque[Any] = deque()

    def feed(self, data: bytes) -> None:
        self._data += data
        while (request := self._cut()) is not None:
            urgent = len(request) > URGENT and request[URGENT]
            (self._urgent if urgent else self._others).append(request)

    def take(self) -> Any | None:
        """The oldest urgent request read whole, else the oldest other, taken out; None while
        none is all here."""
        if self._urgent:
            return self._urgent.popleft()
        return self._others.popleft() if self._others else None

    def _cut(self) -> Any | None:
        data = self._data
        if len(data) < HEADER_SIZE:
            return None
        end = HEADER_SIZE + int.from_bytes(data[:HEADER_SIZE], "big")
        if len(data) < end:
            return None
        request = pickle.loads(data[HEADER_SIZE:end])  # written by the bot that started us
        del data[:end]
        return request


class CaptionsAhead:
    """The hands drawn lately whose likely next pictures' captions are still to make
    (:meth:`Pictures.ahead`), the newest first: at most :data:`HANDS_AHEAD` wait, older
    ones are dropped (their games have moved on)."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self._todo: deque[tuple[str, View, Sequence[str]]] = deque(maxlen=HANDS_AHEAD)

    @property
    def pending(self) -> bool:
        return bool(self._todo)

    def note(self, request: Any) -> None:
        """A request answered: a hand's view and names are kept for :meth:`step`."""
        _, method, language, args, kwargs = request[:URGENT]
        if method == "hand" and len(args) == 2 and not kwargs:
            self._todo.append((language, args[0], args[1]))

    def step(self) -> None:
        """Make the captions that may follow the newest hand kept."""
        language, view, names = self._todo.pop()
        with i18n.using(language):
            self.pictures.ahead(view, names)


def waiting(source: int) -> bool:
    """Whether input waits to be read on ``source`` (or it ended)."""
    return bool(select.select([source], [], [], 0)[0])


def serve(
    pictures: Pictures,
    source: int,
    sink: BinaryIO,
    warming: Warming | None,
    captions: CaptionsAhead | None = None,
) -> None:
    """Answer requests, urgent ones first, until the input ends; while none waits, draw
    faces ahead, then make the captions of the hands likely next."""
    methods = handlers(pictures)
    requests = Requests()
    ended = False
    while True:
        while not ended and waiting(source):  # all that waits, so an urgent one goes first
            data = os.read(source, READ_SIZE)
            ended = not data
            requests.feed(data)
        while (request := requests.take()) is not None:
            reply = answer(methods, request)
            sink.write(frame(reply))
            sink.flush()
            if captions is not None and reply[2] is None:
                captions.note(request)
            if not ended and waiting(source):
                break  # read what came meanwhile before the next
        if warming is not None:
            try:
                warming.plan()
                if warming.pending and not waiting(source):
                    warming.step()
                    continue
            except Exception:  # an extra: the pictures are drawn when asked, as without it
                log.exception("drawing faces ahead failed; no more are drawn ahead")
                warming = None
        if captions is not None and captions.pending and not waiting(source):
            try:
                captions.step()
            except Exception:  # an extra, as the faces are
                log.exception("making captions ahead failed; no more are made ahead")
                captions = None
            continue
        if ended:
            return
        data = os.read(source, READ_SIZE)
        ended = not data
        requests.feed(data)


def run() -> int:
    """The child's ``main`` (workers.runner.run_child's, reading its input unbuffered)."""
    # Ctrl-C in a terminal reaches the whole process group: the bot stops, then closes us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        pictures = Pictures()
        assert isinstance(pictures.faces, Parts)
        tune_collector()
        warming = Warming(pictures.faces, card_sizes)
        captions = CaptionsAhead(pictures)
        serve(pictures, sys.stdin.fileno(), sys.stdout.buffer, warming, captions)
    except BrokenPipeError:  # the bot died meanwhile: nobody to answer, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    return 0


class DrawingProcess:
    """Draws in a child process (see the module's docstring and workers.runner)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.child = ChildProcess(
            WORKER_MODULE, command=command, env={"PILLOW_BLOCKS_MAX": str(BLOCKS_KEPT)}
        )

    async def draw(
        self, method: str, *args: Any, urgent: bool = False, **kwargs: Any
    ) -> bytes | None:
        try:
            png: bytes | None = await self.child.call(method, *args, urgent=urgent, **kwargs)
        except ChildFailed as exc:
            raise PictureFailed(str(exc)) from exc
        return png

    async def start(self) -> None:
        """Start drawing ahead of the first picture (workers.runner)."""
        await self.child.start()

    async def close(self) -> None:
        await self.child.close()


if __name__ == "__main__":
    sys.exit(run())
