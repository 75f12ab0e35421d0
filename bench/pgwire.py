"""Counting what the bot asks PostgreSQL: a TCP proxy that reads the wire protocol as it passes.

The bot processes connect to the proxy instead of the server; every byte is forwarded as it
is, and on the way the proxy reads the message headers of both directions (protocol 3, no
TLS: the local server has ``ssl = off``, so asyncpg's SSLRequest is answered ``N``):

- every ReadyForQuery the server sends ends one round trip (a Sync of the extended protocol,
  or a simple Query): the client waited for it;
- its transaction status says what the round trip was: back to idle from inside a
  transaction block is the end of an explicit transaction (``COMMIT`` or ``ROLLBACK``, told
  apart by the CommandComplete before it); idle to idle is a statement in a transaction of
  its own (autocommit);
- each Bind names a prepared statement, whose text the Parse before it gave, and each simple
  Query carries its text: executions per statement, the way pg_stat_statements counts them
  (without needing it in ``shared_preload_libraries``, which takes a server restart).

Server-side CPU is not here (see ``bench.pgside``). Use: ``bench.workers``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

SSL_REQUEST = 80877103
GSS_REQUEST = 80877104
CANCEL_REQUEST = 80877102
_SPACES = re.compile(r"\s+")
STATEMENT_CHARS = 72  # a statement's text is shortened to this for the counts


def statement_key(text: str) -> str:
    """A statement's text as the counts show it: whitespace folded, shortened."""
    folded = _SPACES.sub(" ", text).strip()
    return folded if len(folded) <= STATEMENT_CHARS else folded[: STATEMENT_CHARS - 3] + "..."


@dataclass(slots=True)
class WireCounts:
    """What every connection through the proxy did, added up."""

    round_trips: int = 0
    commits: int = 0  # explicit transactions that ended in COMMIT
    rollbacks: int = 0
    autocommit: int = 0  # round trips outside any transaction block
    connections: int = 0
    unreadable: int = 0  # connections whose bytes could not be read (TLS): forwarded only
    statements: Counter[str] = field(default_factory=Counter)

    def copy(self) -> WireCounts:
        return WireCounts(
            self.round_trips, self.commits, self.rollbacks, self.autocommit,
            self.connections, self.unreadable, Counter(self.statements),
        )  # fmt: skip

    def minus(self, earlier: WireCounts) -> WireCounts:
        """The counts since ``earlier`` (a copy taken then)."""
        return WireCounts(
            self.round_trips - earlier.round_trips,
            self.commits - earlier.commits,
            self.rollbacks - earlier.rollbacks,
            self.autocommit - earlier.autocommit,
            self.connections - earlier.connections,
            self.unreadable - earlier.unreadable,
            self.statements - earlier.statements,
        )


class Conversation:
    """One connection's two byte streams, read message by message into ``counts``."""

    def __init__(self, counts: WireCounts) -> None:
        self.counts = counts
        self._client = bytearray()
        self._server = bytearray()
        self._client_started = False  # the untyped startup packets are behind us
        self._ssl_answer_due = False  # the server's one-byte answer to an SSLRequest
        self._unreadable = False
        self._prepared: dict[str, str] = {}  # statement name -> its text
        self._status = b"I"
        self._ready_seen = False  # the first ReadyForQuery ends the startup, no query's
        self._last_tag = ""

    def from_client(self, data: bytes) -> None:
        if self._unreadable:
            return
        self._client += data
        while True:
            if not self._client_started:
                if len(self._client) < 8:
                    return
                length, code = struct.unpack("!ii", self._client[:8])
                if len(self._client) < length:
                    return
                del self._client[:length]
                if code == SSL_REQUEST:
                    self._ssl_answer_due = True
                elif code not in (GSS_REQUEST, CANCEL_REQUEST):
                    self._client_started = True  # the StartupMessage
                continue
            if len(self._client) < 5:
                return
            kind = bytes(self._client[0:1])
            (length,) = struct.unpack("!i", self._client[1:5])
            if len(self._client) < 1 + length:
                return
            body = bytes(self._client[5 : 1 + length])
            del self._client[: 1 + length]
            self._client_message(kind, body)

    def _client_message(self, kind: bytes, body: bytes) -> None:
        if kind == b"P":
            name, query = body.split(b"\0", 2)[:2]
            self._prepared[name.decode()] = statement_key(query.decode(errors="replace"))
        elif kind == b"B":
            statement = body.split(b"\0", 2)[1].decode()
            self.counts.statements[self._prepared.get(statement, "?")] += 1
        elif kind == b"Q":
            simple = body.split(b"\0", 1)[0].decode(errors="replace")
            self.counts.statements[statement_key(simple)] += 1

    def from_server(self, data: bytes) -> None:
        if self._unreadable:
            return
        self._server += data
        if self._ssl_answer_due and self._server:
            answer = self._server[0:1]
            del self._server[:1]
            self._ssl_answer_due = False
            if answer != b"N":
                self._unreadable = True
                self.counts.unreadable += 1
                return
        while len(self._server) >= 5:
            kind = bytes(self._server[0:1])
            (length,) = struct.unpack("!i", self._server[1:5])
            if len(self._server) < 1 + length:
                return
            body = bytes(self._server[5 : 1 + length])
            del self._server[: 1 + length]
            self._server_message(kind, body)

    def _server_message(self, kind: bytes, body: bytes) -> None:
        if kind == b"C":
            self._last_tag = body.rstrip(b"\0").decode(errors="replace")
        elif kind == b"Z":
            status = body[:1]
            if not self._ready_seen:
                self._ready_seen = True
                self.counts.connections += 1
            else:
                self.counts.round_trips += 1
                if status == b"I" and self._status == b"I":
                    self.counts.autocommit += 1
                elif status == b"I":
                    if self._last_tag == "COMMIT":
                        self.counts.commits += 1
                    else:
                        self.counts.rollbacks += 1
            self._status = status


class CountingProxy:
    """Listens on 127.0.0.1 (a free port); every connection is forwarded to ``target``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.counts = WireCounts()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        talk = Conversation(self.counts)
        pumps = [
            asyncio.ensure_future(_pump(reader, up_writer, talk.from_client)),
            asyncio.ensure_future(_pump(up_reader, writer, talk.from_server)),
        ]
        self._tasks.update(pumps)
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
                self._tasks.discard(pump)
            for w in (writer, up_writer):
                w.close()


async def _pump(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, read: Callable[[bytes], None]
) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            read(data)
            writer.write(data)
            await writer.drain()
