"""``POST /api/token``: the SDK's authorize code in, a session of the live table out.

A code of the wrong shape is a 400 and is never sent; past its address's limit a client is
answered 429, and while the web edge's ceiling is reached or Discord asks it to wait, 503;
both with ``Retry-After`` and without asking Discord (web/guard.py)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from aiohttp import web

from web.clients import Clients
from web.discord_api import DiscordApi, DiscordRefused, DiscordUnreachable, is_code
from web.guard import Busy, Per
from web.limits import address_key
from web.server import read_capped
from web.sessions import Sessions

log = logging.getLogger(__name__)

MAX_BODY = 4096


@dataclass(eq=False)
class TokenEndpoint:
    api: DiscordApi
    sessions: Sessions
    clients: Clients = field(default_factory=Clients)

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.post("/api/token", self.handle)]

    async def handle(self, request: web.Request) -> web.Response:
        address = self.clients.address(request)
        guard = self.api.guard
        raw = await read_capped(request, MAX_BODY)  # 413 past it (web/server.py logs it)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not is_code(code):
            guard.refused(address, "a sign-in", "no authorize code")
            return _error(400, 'Send {"code": ...} from the SDK\'s authorize().')
        try:
            guard.check(Per.SIGN_IN_ADDRESS, address_key(address))
            identity = await self.api.exchange(code)
        except Busy as exc:
            guard.refused(address, "a sign-in", exc.reason)
            status = 429 if exc.yours else 503
            answer = _error(status, "Too many sign-ins right now; please try again shortly.")
            answer.headers["Retry-After"] = str(exc.seconds)
            return answer
        except DiscordRefused as exc:
            guard.refused(address, "a sign-in", f"Discord refused the code ({exc})")
            return _error(401, "Discord did not accept that code; please open the table again.")
        except DiscordUnreachable as exc:
            log.warning("could not exchange an authorize code from %s: %s", address, exc)
            return _error(502, "Discord cannot be reached right now; please try again.")
        session = self.sessions.issue(identity.user_id, identity.name)
        return web.json_response(
            {
                "access_token": identity.access_token,
                "session": session,
                "expires_in": int(self.sessions.seconds),
                "user": {
                    "id": str(identity.user_id),
                    "name": identity.name,
                    "locale": identity.locale,
                },
            }
        )


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
