"""One aiohttp server in the bot process, on the bot's event loop.

Off unless WEB_PORT is set. Features add their routes before :meth:`WebServer.start` (the
bot's set-up does that); ``GET /health`` is always there, for a load balancer's checks: 200
while the bot can serve, 503 while it is starting or stopping.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiohttp import web

log = logging.getLogger(__name__)

Ready = Callable[[], bool]


class WebServer:
    """The aiohttp application and its runner; ``ready`` says whether /health answers 200."""

    def __init__(self, host: str, port: int, ready: Ready) -> None:
        self.host = host
        self.port = port
        self.app = web.Application()
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
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
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
