"""Discord's interactions over HTTP: ``POST /interactions`` (INTERACTIONS=http).

With an Interactions Endpoint URL set in the Developer Portal, Discord stops sending
interactions on the gateway and POSTs each one to that URL instead, signed with the
application's Ed25519 key: the signature (``X-Signature-Ed25519``, hex) covers the
timestamp (``X-Signature-Timestamp``) followed by the raw body. So any process behind a load
balancer can serve any click.

A request is acted on only when its body is at most :data:`MAX_BODY` bytes (else 413, the rest
unread), its signature checks out, its timestamp (Unix seconds, digits only) is within
:data:`MAX_SKEW` of now, and its interaction id has not been seen by this process within that
window; anything else is answered 401 and logged with the client's address, never
dispatched. ``PING`` (type 1), which Discord sends when the URL is saved, is answered with
``PONG``. Every other interaction is handed to the same handlers as a gateway one (the command
tree, the controls), which answer it through the callback endpoint as they always do; the POST
itself is answered ``202`` with no body, as Discord asks of a request whose answer goes
through the callback.

Several workers on one PostgreSQL database also share what they were given (``shared``,
db/interactions.py), so a replay sent to another worker is refused the same way. If the
database cannot answer, or has not answered within :data:`SHARED_SECONDS` (Discord's 3 s
for the answer run from its POST), the worker goes on with its own memory: a replayed click
still carries the game step it was made for, so the move is refused as stale like any double
click, and Discord refuses a second answer to one interaction.

For that same reason a click on a move control (``step_guarded``: its custom id carries the
clicker's step, discordkit/clicks.py) is never asked of the shared memory: wherever a replay
of it lands, the game has moved past that step (or is moving past it: the second of two
writes at one version changes nothing, db/play.py), so it is refused as a stale click. The
move is the busiest interaction, and the shared memory's question is a write transaction on
the database; commands and every other button, which a game step does not guard, are asked.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from web.clients import Clients
from web.server import MAX_BODY, read_capped

log = logging.getLogger(__name__)

MAX_SKEW = 300.0  # seconds a request's signed timestamp may be from this machine's clock
SHARED_SECONDS = 0.5  # the longest the shared memory is waited for before the 202
TIMESTAMP = re.compile(r"[0-9]{1,12}")  # Unix seconds, as Discord sends them
PING = 1
PONG = {"type": 1}

Dispatch = Callable[[dict[str, Any]], None]
Clock = Callable[[], float]
# An interaction id -> whether no process on the database was given it before.
SharedSeen = Callable[[str], Awaitable[bool]]
# An interaction's payload -> whether the game refuses it a second time by itself.
StepGuarded = Callable[[dict[str, Any]], bool]


class Verifier:
    """Checks a request's Ed25519 signature and the age of its timestamp."""

    def __init__(self, public_key: str, clock: Clock = time.time) -> None:
        self._key = VerifyKey(bytes.fromhex(public_key))
        self._clock = clock

    def refusal(self, signature: str | None, timestamp: str | None, body: bytes) -> str | None:
        """Why the request is refused, or None when it is Discord's and fresh."""
        if not signature or not timestamp:
            return "no signature headers"
        try:
            signed = bytes.fromhex(signature)
            self._key.verify(timestamp.encode() + body, signed)
        except (ValueError, BadSignatureError):
            return "bad signature"
        if not TIMESTAMP.fullmatch(timestamp):
            return "bad timestamp"
        sent = int(timestamp)
        if abs(self._clock() - sent) > MAX_SKEW:
            return f"stale timestamp ({self._clock() - sent:.0f} s old)"
        return None


class Seen:
    """Interaction ids this process was given within the last :data:`MAX_SKEW` seconds (an
    older request is refused by its timestamp anyway, so the memory stays that window's)."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._ids: OrderedDict[str, float] = OrderedDict()
        self._clock = clock

    def first_time(self, interaction_id: str) -> bool:
        now = self._clock()
        while self._ids:
            oldest, at = next(iter(self._ids.items()))
            if now - at <= MAX_SKEW:
                break
            del self._ids[oldest]
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = now
        return True

    def __len__(self) -> int:
        return len(self._ids)


class InteractionsEndpoint:
    """``POST /interactions``: verified, deduplicated, then ``dispatch``ed."""

    def __init__(
        self,
        public_key: str,
        dispatch: Dispatch,
        clock: Clock = time.time,
        *,
        shared: SharedSeen | None = None,
        shared_seconds: float = SHARED_SECONDS,
        step_guarded: StepGuarded | None = None,
        clients: Clients | None = None,
    ) -> None:
        """``shared``: the memory of every worker on the database (None: this process's own),
        waited for at most ``shared_seconds``, for every interaction but those
        ``step_guarded`` says the game refuses twice by itself; ``clients`` reads the address
        a refusal logs."""
        self.verifier = Verifier(public_key, clock)
        self.seen = Seen()
        self._dispatch = dispatch
        self._shared = shared
        self._shared_seconds = shared_seconds
        self._step_guarded = step_guarded or (lambda _data: False)
        self._clients = clients or Clients()
        self._late: set[asyncio.Future[bool]] = set()  # shared answers still on their way

    async def _first_time(self, interaction_id: str, *, ask_shared: bool) -> bool:
        if not self.seen.first_time(interaction_id):
            return False
        if self._shared is None or not ask_shared:
            return True
        # The question goes on after the timeout (shielded), so the id is still recorded
        # for the other workers; only this request stops waiting for it.
        asked = asyncio.ensure_future(self._shared(interaction_id))
        try:
            return await asyncio.wait_for(asyncio.shield(asked), self._shared_seconds)
        except TimeoutError:
            self._late.add(asked)
            asked.add_done_callback(self._settled)
            log.warning(
                "the database did not say within %.1f s whether interaction %s was seen by "
                "another worker: going on with this process's memory",
                self._shared_seconds,
                interaction_id,
            )
            return True
        except Exception:
            log.warning(
                "the database did not say whether interaction %s was seen by another worker: "
                "going on with this process's memory",
                interaction_id,
                exc_info=True,
            )
            return True

    def _settled(self, asked: asyncio.Future[bool]) -> None:
        self._late.discard(asked)
        if not asked.cancelled() and asked.exception() is not None:
            log.debug("a late answer of the shared memory failed", exc_info=asked.exception())

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.post("/interactions", self.handle)]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        client = self._clients.address(request)
        body = await read_capped(request, MAX_BODY)
        refusal = self.verifier.refusal(
            request.headers.get("X-Signature-Ed25519"),
            request.headers.get("X-Signature-Timestamp"),
            body,
        )
        if refusal is not None:
            log.warning("refused a POST /interactions from %s: %s", client, refusal)
            return web.Response(status=401, text="invalid request signature")
        try:
            data = json.loads(body)
            kind = data["type"]
        except (ValueError, TypeError, KeyError):
            log.warning("refused a signed POST /interactions from %s: not an interaction", client)
            return web.Response(status=400, text="not an interaction")
        if kind == PING:
            return web.json_response(PONG)
        ask_shared = not self._step_guarded(data)
        if not await self._first_time(str(data.get("id")), ask_shared=ask_shared):
            log.warning("refused a replayed interaction %s from %s", data.get("id"), client)
            return web.Response(status=401, text="interaction already received")
        try:
            self._dispatch(data)
        except Exception:
            log.exception("an interaction POSTed by Discord could not be read: %s", data.get("id"))
            return web.Response(status=500)
        return web.Response(status=202)
