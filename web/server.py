"""One aiohttp server in the bot process, on the bot's event loop.

Off unless WEB_PORT is set. Features add their routes before :meth:`WebServer.start` (the
bot's set-up does that); ``GET /health`` is always there, for a load balancer's checks: 200
while the bot can serve, 503 while it is starting or stopping.

Every door is limited here, whatever the route:

- **Bodies**: at most ``max_body`` bytes (:data:`MAX_BODY`, the largest a route takes) on
  any route, whether the length is declared or the body is chunked; a route reads its own
  smaller limit with :func:`read_capped`. A body over the limit is answered 413 as soon as
  its declared length or its first bytes past the limit say so, and the connection is closed
  without reading the rest. A body that does not arrive within :data:`BODY_SECONDS` is
  answered 408.
- **Slow and idle clients**: a connection whose request headers are not complete within
  ``idle_seconds`` (:data:`IDLE_SECONDS`) of its opening or of the previous answer is closed,
  so is a keep-alive connection idle that long. aiohttp's keep-alive timer does both: it
  starts when the connection opens, and closes the connection while no whole request has
  arrived (tests/e2e/test_web_edge.py checks it on the real process).
- **Headers** of every answer (web/headers.py): the Content-Security-Policy, ``nosniff``,
  the Referrer-Policy, and a Server header without a version.
- **Requests that are not HTTP** (garbage, an over-long line or header): aiohttp answers
  400 and closes; its ERROR line with a traceback becomes one WARNING line
  (:class:`MalformedRequests`), so a stranger cannot fill the log with errors.

Refusals are logged as WARNING lines with the client's address (web/clients.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler

from web.clients import Clients
from web.headers import SERVER, security_headers

log = logging.getLogger(__name__)

Ready = Callable[[], bool]

MAX_BODY = 128 * 1024  # bytes: the largest body any route takes (an interaction from Discord)
BODY_SECONDS = 10.0  # a body must arrive within this once its headers have
IDLE_SECONDS = 10.0  # request headers due within this; an idle keep-alive closed after it


async def read_capped(request: web.BaseRequest, limit: int, seconds: float = BODY_SECONDS) -> bytes:
    """The request's body, at most ``limit`` bytes whatever its encoding (a Content-Length or
    chunks). Raises 413 (``HTTPRequestEntityTooLarge``) when the declared length or the first
    ``limit + 1`` bytes read are over ``limit``, without reading further (the web server then
    closes the connection), and 408 (``HTTPRequestTimeout``) when the body has not arrived
    within ``seconds``."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=declared)
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            while len(body) <= limit:
                chunk = await request.content.read(limit + 1 - len(body))
                if not chunk:
                    return bytes(body)
                body.extend(chunk)
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=len(body))


class MalformedRequests(logging.Filter):
    """On aiohttp's server log: a request it could not parse is logged as one line (WARNING
    at most) with the peer's address and aiohttp's reason, not as an ERROR with a traceback.
    Every other record passes unchanged (a handler's crash stays an ERROR with its
    traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            reason = " ".join(str(exc.message).split())[:200]
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else None
            record.msg = "refused a malformed request from %s: %s"
            record.args = (peer or "unknown", reason)
            record.levelno = min(record.levelno, logging.WARNING)  # never raised
            record.levelname = logging.getLevelName(record.levelno)
            record.exc_info = record.exc_text = None
        return True


PROTOCOL_LOG = logging.getLogger("aiohttp.server")  # where aiohttp logs a connection's errors


class WebServer:
    """The aiohttp application and its runner; ``ready`` says whether /health answers 200.

    ``clients`` reads a request's address for the log; ``client_id`` (the application's,
    when the live table is on) names Discord's proxy origin in the page's policy."""

    def __init__(
        self,
        host: str,
        port: int,
        ready: Ready,
        *,
        clients: Clients | None = None,
        client_id: str | None = None,
        idle_seconds: float = IDLE_SECONDS,
        max_body: int = MAX_BODY,
    ) -> None:
        self.host = host
        self.port = port
        self.clients = clients or Clients()
        self.idle_seconds = idle_seconds
        self.max_body = max_body
        self._headers = security_headers(client_id)
        self.app = web.Application(client_max_size=max_body, middlewares=[self._limits])
        self.app.on_response_prepare.append(self._set_headers)
        self.app.router.add_get("/health", self._health)
        self._ready = ready
        self._runner: web.AppRunner | None = None

    def add_routes(self, routes: list[web.AbstractRouteDef]) -> None:
        """Routes of a feature; only before :meth:`start`."""
        self.app.add_routes(routes)

    @property
    def bound_port(self) -> int | None:
        """The port listened on (WEB_PORT=0 picks a free one, for tests); None before start."""
        if self._runner is None:
            return None
        for site in self._runner.sites:
            server = getattr(site, "_server", None)
            sockets = getattr(server, "sockets", None) or []
            for sock in sockets:
                return int(sock.getsockname()[1])
        return None

    async def start(self) -> None:
        # lingering_time=0: a body a handler left unread (a refused one) is never drained;
        # the connection is closed after the answer instead.
        if not any(isinstance(f, MalformedRequests) for f in PROTOCOL_LOG.filters):
            PROTOCOL_LOG.addFilter(MalformedRequests())
        runner = web.AppRunner(
            self.app,
            access_log=None,
            handle_signals=False,
            keepalive_timeout=self.idle_seconds,
            lingering_time=0,
        )
        await runner.setup()
        await web.TCPSite(runner, self.host, self.port).start()
        self._runner = runner
        log.info("web server on http://%s:%s", self.host, self.bound_port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, _request: web.Request) -> web.Response:
        if self._ready():
            return web.json_response({"ok": True})
        return web.json_response({"ok": False}, status=503)

    @web.middleware
    async def _limits(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        declared = request.content_length
        try:
            if declared is not None and declared > self.max_body:
                raise web.HTTPRequestEntityTooLarge(max_size=self.max_body, actual_size=declared)
            return await handler(request)
        except (web.HTTPRequestEntityTooLarge, web.HTTPRequestTimeout) as refused:
            log.warning(
                "refused %s %s from %s: %s",
                request.method,
                request.path,
                self.clients.address(request),
                "body too large" if refused.status == 413 else "body too slow",
            )
            answer = web.Response(status=refused.status, text=refused.reason)
            answer.force_close()
            return answer

    async def _set_headers(self, _request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Server"] = SERVER
        for name, value in self._headers.items():
            response.headers.setdefault(name, value)
