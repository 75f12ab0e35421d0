"""The drawing process: ``python -m cogs.ui.pictures.worker``, started by
:class:`cogs.ui.pictures.painters.DrawingProcess`.

It reads requests on stdin and writes the PNGs on stdout, one at a time, each a frame: a
4-byte big-endian length, then a pickle. A request is ``(id, method, language, args,
kwargs)`` for a :class:`Pictures` method; the answer ``(id, png, error)``. Pickles pass only
between the bot and the process it started. The process ends when its stdin closes: when the
bot closes it, and when the bot dies, so it never outlives the bot. Its log goes to stderr,
the bot's own.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import struct
import sys
from typing import Any, BinaryIO

import i18n
from cogs.ui.pictures.api import Pictures

log = logging.getLogger(__name__)

HEADER = struct.Struct("!I")
METHODS = frozenset({"hand", "table", "summary", "chart", "card"})


def frame(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def _read_frame(source: BinaryIO) -> Any | None:
    """The next message, or None at the end of the input."""
    head = source.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data = source.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # written by the bot that started us


def answer(pictures: Pictures, request: Any) -> tuple[int, bytes | None, str | None]:
    """Draw one request; a failure is the answer's error text, never the process's end."""
    request_id, method, language, args, kwargs = request
    try:
        if method not in METHODS:
            raise ValueError(f"no picture method {method!r}")
        with i18n.using(language):
            png = getattr(pictures, method)(*args, **kwargs)
    except Exception as exc:  # told to the bot, which logs it
        log.debug("could not draw %s", method, exc_info=True)
        return request_id, None, f"{type(exc).__name__}: {exc}"
    return request_id, png, None


def serve(source: BinaryIO, sink: BinaryIO, pictures: Pictures | None = None) -> None:
    """Answer requests until the input ends."""
    pictures = pictures or Pictures()
    while (request := _read_frame(source)) is not None:
        sink.write(frame(answer(pictures, request)))
        sink.flush()


def main() -> int:
    # Ctrl-C in a terminal reaches the whole process group: the bot stops, then closes us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the bot died while we drew: nobody to answer, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    return 0


if __name__ == "__main__":
    sys.exit(main())
