"""Who draws the pictures: a process of its own for the bot, a thread for tests and tools.

Drawing a hand or a table is 10-40 ms of Python and Pillow. In a thread of the bot's process
it holds the interpreter lock the event loop needs: when many games began at once (every
player's first hand has a picture) each turn of the loop waited behind the drawing, and
clicks were answered in 60-250 ms instead of a few. :class:`DrawingProcess` draws in a child
process instead (``cogs.ui.pictures.worker``), so the loop only sends a view and receives
PNG bytes. The child is started at the first picture and again after it dies; it ends when
the bot closes it or dies itself. Each picture is drawn in the language current where
:meth:`Painter.draw` was called.

A picture that cannot be drawn raises :class:`PictureFailed`; callers send their message
without it (see cogs.attachments).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import i18n
from cogs.ui.pictures.api import Pictures
from cogs.ui.pictures.worker import HEADER, frame

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]  # the project: ``-m`` finds the worker from here
WORKER = (sys.executable, "-m", "cogs.ui.pictures.worker")
SECRETS = ("DISCORD_TOKEN", "DATABASE_URL")  # the drawing process needs neither
CLOSE_WAIT = 2.0  # seconds the process gets to finish after its input closes
DRAW_TIMEOUT = 20.0  # seconds before a picture is given up and its process restarted


class PictureFailed(Exception):
    """The picture could not be drawn; the message goes out without it."""


class Painter(Protocol):
    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        """PNG bytes from ``Pictures.<method>(*args, **kwargs)``; raises PictureFailed."""
        ...

    async def close(self) -> None: ...


class InThread:
    """Draws in a worker thread of this process (tests, tools, a bot without processes)."""

    def __init__(self, pictures: Pictures | None = None) -> None:
        self.pictures = pictures or Pictures()

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        draw = getattr(self.pictures, method)
        try:  # the thread runs in a copy of this context: the current language too
            png: bytes | None = await asyncio.to_thread(draw, *args, **kwargs)
        except Exception as exc:
            raise PictureFailed(f"{type(exc).__name__}: {exc}") from exc
        return png

    async def close(self) -> None:
        return None


@dataclass(slots=True)
class _Child:
    """One drawing process and the pictures asked of it."""

    process: asyncio.subprocess.Process
    pending: dict[int, asyncio.Future[bytes | None]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None
    ended: bool = False  # its output ended: nothing asked of it now would be answered

    @property
    def alive(self) -> bool:
        return not self.ended and self.process.returncode is None

    async def read(self) -> None:
        """Hand each answer to its caller; when the process ends, fail what it still owed."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                (size,) = HEADER.unpack(await stdout.readexactly(HEADER.size))
                answer = pickle.loads(await stdout.readexactly(size))  # from our own child
                request_id, png, error = answer
                waiting = self.pending.pop(request_id, None)
                if waiting is None or waiting.done():
                    continue  # its caller gave up (a cancelled send)
                if error is None:
                    waiting.set_result(png)
                else:
                    waiting.set_exception(PictureFailed(error))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the process ended
        finally:
            self.ended = True
            for waiting in self.pending.values():
                if not waiting.done():
                    waiting.set_exception(PictureFailed("the drawing process stopped"))
            self.pending.clear()
            with contextlib.suppress(ProcessLookupError):
                await self.process.wait()


class DrawingProcess:
    """Draws in a child process (see the module's docstring)."""

    def __init__(self, command: Sequence[str] = WORKER) -> None:
        self._command = list(command)
        self._child: _Child | None = None
        self._starting = asyncio.Lock()
        self._ids = itertools.count(1)
        self._closed = False
        self.started = 0  # processes started so far (a restart after a death counts)

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        request = (method, i18n.current(), args, kwargs)
        for attempt in range(2):  # a process found dead on writing is started anew, once
            if self._closed:
                raise PictureFailed("the bot is stopping")
            child = await self._running()
            request_id = next(self._ids)
            done: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
            child.pending[request_id] = done
            stdin = child.process.stdin
            assert stdin is not None
            try:
                stdin.write(frame((request_id, *request)))
                await asyncio.wait_for(stdin.drain(), DRAW_TIMEOUT)
            except (ConnectionError, RuntimeError, TimeoutError) as exc:
                with contextlib.suppress(ProcessLookupError):
                    child.process.kill()
                child.pending.pop(request_id, None)
                if self._child is child:
                    self._child = None
                if attempt:
                    raise PictureFailed("the drawing process stopped") from exc
                continue
            try:
                return await asyncio.wait_for(done, DRAW_TIMEOUT)
            except TimeoutError as exc:  # stuck: the next picture gets a new process
                log.error("the drawing process did not answer in %.0f s", DRAW_TIMEOUT)
                with contextlib.suppress(ProcessLookupError):
                    child.process.kill()
                raise PictureFailed("the drawing process did not answer") from exc
            finally:
                child.pending.pop(request_id, None)
        raise PictureFailed("the drawing process stopped")

    async def _running(self) -> _Child:
        async with self._starting:
            if self._child is not None and self._child.alive:
                return self._child
            if self._child is not None:  # dead, or found dead on writing: reap it
                with contextlib.suppress(ProcessLookupError):
                    self._child.process.kill()
            env = {k: v for k, v in os.environ.items() if k not in SECRETS}
            try:
                process = await asyncio.create_subprocess_exec(
                    *self._command,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    cwd=ROOT,
                    env=env,
                )
            except OSError as exc:
                raise PictureFailed(f"cannot start the drawing process: {exc}") from exc
            if self.started:
                log.warning("the drawing process stopped; started a new one")
            self.started += 1
            child = self._child = _Child(process)
            child.reader = asyncio.get_running_loop().create_task(
                child.read(), name="pictures-reader"
            )
            return child

    @property
    def pid(self) -> int | None:
        """The drawing process's id while it runs (tests, benchmarks)."""
        child = self._child
        return child.process.pid if child is not None and child.alive else None

    async def close(self) -> None:
        """End the drawing process: its input closes, it finishes and exits (or is killed)."""
        self._closed = True
        child, self._child = self._child, None
        if child is None:
            return
        if child.process.stdin is not None:
            child.process.stdin.close()
        try:
            await asyncio.wait_for(child.process.wait(), CLOSE_WAIT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                child.process.kill()
        if child.reader is not None:
            await child.reader
