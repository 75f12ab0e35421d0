"""``GET /api/config``: the client id the page signs in with, and nothing secret."""

from __future__ import annotations

import aiohttp

from web.config import ConfigEndpoint
from web.server import WebServer


async def test_the_page_reads_the_client_id_and_no_secret() -> None:
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(ConfigEndpoint("123456").routes())
    await server.start()
    try:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{server.bound_port}/api/config") as response,
        ):
            assert response.status == 200
            assert await response.json() == {"client_id": "123456"}
    finally:
        await server.stop()
