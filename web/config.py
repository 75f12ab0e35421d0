"""``GET /api/config``: what the table page needs before it can sign in inside Discord (the
application's client id, which the SDK's constructor and ``authorize`` take). Public: the
client id is no secret; the client secret never leaves the backend."""

from __future__ import annotations

from aiohttp import web


class ConfigEndpoint:
    def __init__(self, client_id: str) -> None:
        self.client_id = client_id

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.get("/api/config", self.handle)]

    async def handle(self, _request: web.Request) -> web.Response:
        return web.json_response({"client_id": self.client_id})
