"""``POST /api/token``: the SDK's authorize code in, a session of the live table out."""

from __future__ import annotations

import logging

from aiohttp import web

from web.discord_api import DiscordApi, DiscordRefused, DiscordUnreachable
from web.sessions import Sessions

log = logging.getLogger(__name__)

MAX_BODY = 4096


class TokenEndpoint:
    def __init__(self, api: DiscordApi, sessions: Sessions) -> None:
        self.api = api
        self.sessions = sessions

    def routes(self) -> list[web.AbstractRouteDef]:
        return [web.post("/api/token", self.handle)]

    async def handle(self, request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return _error(413, "The request is too large.")
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not code or len(code) > 512:
            return _error(400, 'Send {"code": ...} from the SDK\'s authorize().')
        try:
            identity = await self.api.exchange(code)
        except DiscordRefused as exc:
            log.info("an authorize code was refused: %s", exc)
            return _error(401, "Discord did not accept that code; please open the table again.")
        except DiscordUnreachable as exc:
            log.warning("could not exchange an authorize code: %s", exc)
            return _error(502, "Discord cannot be reached right now; please try again.")
        session = self.sessions.issue(identity.user_id, identity.name)
        return web.json_response(
            {
                "access_token": identity.access_token,
                "session": session,
                "expires_in": int(self.sessions.seconds),
                "user": {"id": str(identity.user_id), "name": identity.name},
            }
        )


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
