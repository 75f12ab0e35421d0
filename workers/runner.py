"""Child processes that do the bot's heavy Python: drawing pictures, computers thinking.

Work of 10-150 ms of pure Python in a thread of the bot's process holds the interpreter lock
that the event loop needs, and every click of every game then waits for it. A child process
runs it beside the loop instead: the loop only sends the arguments and reads the answer.

:class:`ChildProcess` (the bot's side) starts ``python -m <module>`` on
:meth:`ChildProcess.start` (the bot calls it as it starts) or else at its first call, again
after it dies, and ends it on :meth:`ChildProcess.close`. The child's side is :func:`serve`:
it reads requests on stdin and writes answers on stdout, one at a time, each a frame: a
4-byte big-endian length, then a pickle. A request is ``(id, method, language, args, kwargs,
urgent)``, run in that language (the one current where :meth:`ChildProcess.call` was made);
``urgent`` says a person waits for the answer (a click's), and a child that keeps the requests
waiting for it (workers.drawing) takes such a request first; a request without it is not
urgent. The answer is ``(id, result, error)``. Pickles pass only between the bot and the
children it started. A child ends when its stdin closes — when the bot closes it, and when
the bot dies — so it never outlives the bot. Its log goes to stderr, the bot's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import os
import pickle
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import i18n

log = logging.getLogger(__name__)

HEADER_SIZE = 4
ROOT = Path(__file__).resolve().parents[1]  # the project: ``-m`` finds the modules from here
SECRETS = ("DISCORD_TOKEN", "DATABASE_URL", "DATABASE_PASSWORD")  # no child needs them
CLOSE_WAIT = 2.0  # seconds a child gets to finish after its input closes
CALL_TIMEOUT = 20.0  # seconds before a call is given up and its child replaced
COLLECTOR_THRESHOLDS = (2_500, 20, 20)  # a child's, as the bot's own (runtime.lifecycle)

Handlers = Mapping[str, Callable[..., Any]]


class ChildFailed(Exception):
    """A call got no result. ``crashed``: the child died, hung or could not start (the call
    itself may be fine elsewhere); otherwise the handler raised, and the text says what."""

    def __init__(self, text: str, *, crashed: bool) -> None:
        super().__init__(text)
        self.crashed = crashed


# -- the child's side ----------------------------------------------------------------------


def frame(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(HEADER_SIZE, "big") + data


def _read_frame(source: BinaryIO) -> Any | None:
    """The next message, or None at the end of the input."""
    head = source.read(HEADER_SIZE)
    if len(head) < HEADER_SIZE:
        return None
    size = int.from_bytes(head, "big")
    data = source.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # written by the bot that started us


def answer(handlers: Handlers, request: Any) -> tuple[int, Any, str | None]:
    """Run one request; a failure is the answer's error text, never the child's end."""
    request_id, method, language, args, kwargs = request[:5]
    try:
        handler = handlers.get(method)
        if handler is None:
            raise ValueError(f"no method {method!r}")
        with i18n.using(language):
            result = handler(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the bot is told, and logs it
        return request_id, None, f"{type(exc).__name__}: {exc}"
    return request_id, result, None


def serve(handlers: Handlers, source: BinaryIO, sink: BinaryIO) -> None:
    """Answer requests until the input ends."""
    while (request := _read_frame(source)) is not None:
        sink.write(frame(answer(handlers, request)))
        sink.flush()


def tune_collector() -> None:
    """Set the cyclic collector for a child's life, once it has loaded what it keeps: that
    (modules, fonts, the engine's tables) moved out of the collector's way, and a first
    generation of 2,500 objects (:data:`COLLECTOR_THRESHOLDS`). A picture makes a few
    thousand short-lived objects: with Python's 700 the collector ran several times a
    picture, about a tenth of its time."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def run_child(handlers: Handlers) -> int:
    """A child's ``main``: serve stdin until it closes."""
    # Ctrl-C in a terminal reaches the whole process group: the bot stops, then closes us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    tune_collector()
    try:
        serve(handlers, sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the bot died meanwhile: nobody to answer, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    return 0


# -- the bot's side ------------------------------------------------------------------------


@dataclass(slots=True)
class _Child:
    """One child process and the calls it owes."""

    process: asyncio.subprocess.Process
    pending: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None
    ended: bool = False  # its output ended: nothing asked of it now would be answered

    @property
    def alive(self) -> bool:
        return not self.ended and self.process.returncode is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def read(self) -> None:
        """Hand each answer to its caller; when the child ends, fail what it still owed."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                size = int.from_bytes(await stdout.readexactly(HEADER_SIZE), "big")
                request_id, result, error = pickle.loads(await stdout.readexactly(size))
                waiting = self.pending.pop(request_id, None)
                if waiting is None or waiting.done():
                    continue  # its caller gave up
                if error is None:
                    waiting.set_result(result)
                else:
                    waiting.set_exception(ChildFailed(error, crashed=False))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the child ended
        finally:
            self.ended = True
            for waiting in self.pending.values():
                if not waiting.done():
                    waiting.set_exception(ChildFailed("the process stopped", crashed=True))
            self.pending.clear()
            with contextlib.suppress(ProcessLookupError):
                await self.process.wait()


class ChildProcess:
    """Calls into ``python -m <module>`` (see the module's docstring)."""

    def __init__(
        self,
        module: str,
        *,
        command: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``env``: variables the child gets besides the bot's own (its secrets left out)."""
        self._command = list(command or (sys.executable, "-m", module))
        self._env = dict(env or {})
        self._child: _Child | None = None
        self._starting = asyncio.Lock()
        self._ids = itertools.count(1)
        self._closed = False
        self.started = 0  # processes started so far (a restart after a death counts)

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (tests, benchmarks)."""
        child = self._child
        return child.process.pid if child is not None and child.alive else None

    async def start(self) -> None:
        """Start the child ahead of the first call, so that call does not wait for its imports.

        A child that cannot start is logged; the first call tries again.
        """
        try:
            await self._running()
        except ChildFailed as exc:
            log.error("%s", exc)

    async def call(self, method: str, *args: Any, urgent: bool = False, **kwargs: Any) -> Any:
        """``method(*args, **kwargs)`` in the child; raises ChildFailed. ``urgent``: a person
        waits for the answer (see the module's docstring)."""
        request = (method, i18n.current(), args, kwargs, urgent)
        for attempt in range(2):  # a child found dead on writing is started anew, once
            if self._closed:
                raise ChildFailed("the bot is stopping", crashed=True)
            child = await self._running()
            request_id = next(self._ids)
            done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            child.pending[request_id] = done
            stdin = child.process.stdin
            assert stdin is not None
            try:
                stdin.write(frame((request_id, *request)))
                async with asyncio.timeout(CALL_TIMEOUT):  # wait_for would make a task
                    await stdin.drain()
            except (ConnectionError, RuntimeError, TimeoutError) as exc:
                child.pending.pop(request_id, None)
                child.kill()
                if self._child is child:
                    self._child = None
                if attempt:
                    raise ChildFailed("the process stopped", crashed=True) from exc
                continue
            try:
                async with asyncio.timeout(CALL_TIMEOUT):
                    return await done
            except TimeoutError as exc:  # stuck: the next call gets a new child
                log.error("%s did not answer in %.0f s", self._command[-1], CALL_TIMEOUT)
                child.kill()
                raise ChildFailed("the process did not answer", crashed=True) from exc
            finally:
                child.pending.pop(request_id, None)
        raise ChildFailed("the process stopped", crashed=True)

    async def _running(self) -> _Child:
        async with self._starting:
            if self._child is not None and self._child.alive:
                return self._child
            if self._child is not None:  # dead, or found dead on writing: make sure
                self._child.kill()
            env = {k: v for k, v in os.environ.items() if k not in SECRETS} | self._env
            try:
                process = await asyncio.create_subprocess_exec(
                    *self._command,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    cwd=ROOT,
                    env=env,
                )
            except OSError as exc:
                raise ChildFailed(f"cannot start {self._command[-1]}: {exc}", crashed=True) from exc
            if self.started:
                log.warning("%s stopped; started a new one", self._command[-1])
            self.started += 1
            child = self._child = _Child(process)
            child.reader = asyncio.get_running_loop().create_task(
                child.read(), name=f"child-reader-{process.pid}"
            )
            return child

    async def close(self) -> None:
        """End the child: its input closes, it finishes and exits (or is killed)."""
        self._closed = True
        child, self._child = self._child, None
        if child is None:
            return
        if child.process.stdin is not None:
            child.process.stdin.close()
        try:
            await asyncio.wait_for(child.process.wait(), CLOSE_WAIT)
        except TimeoutError:
            child.kill()
        if child.reader is not None:
            await child.reader
