"""The REST request pipeline of the fake: routing, then what Discord does before and after a route.

For every request under ``/api/v10``: match a route template, check the token, the Cloudflare
ban (too many invalid requests), the rate limits (``ratelimit.py``), injected faults
(``faults.py``; an injected 10008 deletes the message it names), run the handler, add the
rate-limit headers, then record the request and count it in ``FakeDiscord.stats``. The route
handlers themselves live in ``rest.py`` and ``callbacks.py``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import UNKNOWN_MESSAGE
from .forms import parse_multipart
from .messages import UploadedFile
from .models import JSON
from .ratelimit import BOT, Decision
from .records import RecordedRequest

if TYPE_CHECKING:
    from .server import FakeDiscord


class HttpError(Exception):
    """An error answer in Discord's shape: ``{"code": ..., "message": ...}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def not_found(code: int, what: str) -> HttpError:
    return HttpError(404, code, f"Unknown {what}")


@dataclass
class Ctx:
    """One parsed request: route parameters, JSON body (or payload_json), uploaded files."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile] = field(default_factory=list)
    authorization: str = ""  # the Authorization header (a bearer token for /users/@me)
    caller: str = BOT  # whose limits the request counts against (``caller_of``)

    def int_param(self, name: str) -> int:
        return int(self.params[name])

    @property
    def json(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}


Result = tuple[int, Any]
Handler = Callable[[Ctx], Awaitable[Result]]

# Placeholders of route templates that are not numeric ids.
_PLACEHOLDERS = {
    "interaction_token": r"[^/]+",
    "emoji": r"[^/]+",
    "reaction_user": r"[^/]+",
    "message": r"@original|\d+",
    "instance_id": r"[^/]+",
}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# The activities' attachment upload takes any user's bearer token too (discord-api-spec).
ATTACHMENT_PATH = re.compile(r"/applications/\d+/attachment")


@dataclass(frozen=True)
class Route:
    """One route: ``template`` uses Discord's names, e.g. ``/channels/{channel_id}/messages``."""

    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler

    @property
    def kind(self) -> str:
        """``"POST /channels/{channel_id}/messages"``: how requests are counted and limited."""
        return f"{self.method} {self.template}"


def caller_of(authorization: str, remote: str | None) -> str:
    """Whose global limit a request counts against: the bot's token, a user's bearer token,
    or, without an Authorization header, the client's address (Discord's "Global Rate Limit":
    "If no authorization header is provided, then the limit is applied to the IP address")."""
    if authorization.startswith("Bot "):
        return BOT
    if authorization.startswith("Bearer "):
        return "bearer:" + authorization[len("Bearer ") :]
    return f"ip:{remote or ''}"


def compile_template(template: str) -> re.Pattern[str]:
    """``/channels/{channel_id}`` -> a regex with a named group per placeholder."""
    parts: list[str] = []
    last = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last : match.start()]))
        name = match.group(1)
        pattern = _PLACEHOLDERS.get(name, r"\d+")
        parts.append(f"(?P<{name}>{pattern})")
        last = match.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts))


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """A response whose Content-Type is exactly ``application/json`` (discord.py needs that).

    Every answer carries ``Via`` as Discord's (behind Google's front end) do: discord.py takes a
    429 without it for a Cloudflare ban.
    """
    extra = {"Via": "1.1 google", **(headers or {})}
    if status == 204:
        return web.Response(status=204, headers=extra)
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **extra},
    )


def banned_response() -> web.Response:
    """What Cloudflare answers a banned client: a 429 in plain text, without ``Via``."""
    return web.Response(status=429, text="error code: 1015", content_type="text/plain")


async def parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    # The media type from the header as it is: aiohttp's ``request.content_type`` parses it
    # through the email package, about 0.2 ms for each new multipart boundary.
    raw_type = request.headers.get("Content-Type", "")
    media_type = raw_type.partition(";")[0].strip().lower()
    if media_type == "application/x-www-form-urlencoded":  # OAuth2's token route
        return {k: str(v) for k, v in (await request.post()).items()}, []
    if media_type.startswith("multipart/"):
        return parse_multipart(raw_type, await request.read())
    raw_text = await request.text()
    if not raw_text:
        return None, []
    return json.loads(raw_text), []


class Router:
    """Matches requests to routes and runs the pipeline around the handlers."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.routes: list[Route] = []

    def _add(self, method: str, template: str, handler: Handler) -> None:
        self.routes.append(Route(method, template, compile_template(template), handler))

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            if route.method != method:
                continue
            found = route.regex.fullmatch(path)
            if found is not None:
                return route, {k: v for k, v in found.groupdict().items() if v is not None}
        return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"].rstrip("/")
        return await self._dispatch(request, path)

    async def handle_outside_api(self, request: web.Request) -> web.StreamResponse:
        return await self._dispatch(request, request.path, known=False)

    def channel_of(self, params: dict[str, str]) -> int | None:
        """The channel a request acts in: its path's, or its interaction's for webhooks."""
        if "channel_id" in params:
            return int(params["channel_id"])
        token = params.get("interaction_token")
        rec = None if token is None else self.fake.interactions_by_token.get(token)
        return None if rec is None else rec.channel_id

    async def _dispatch(
        self, request: web.Request, path: str, *, known: bool = True
    ) -> web.StreamResponse:
        fake = self.fake
        try:
            body, files = await parse_body(request)
        except (ValueError, UnicodeDecodeError):
            body, files = None, []
        ctx = Ctx(request.method, path, {}, dict(request.query), body, files)
        ctx.authorization = request.headers.get("Authorization", "")
        ctx.caller = caller_of(ctx.authorization, request.remote)
        found = self.match(request.method, path) if known else None
        kind = "" if found is None else found[0].kind
        headers: dict[str, str] = {}
        payload: Any = None
        if fake.rate_limits.banned():
            fake.rate_limits.count_ban(kind, path)
            self._record(ctx, kind, 429)
            return banned_response()
        if found is None:
            fake.unknown_routes.append(f"{request.method} {path}")
            status, payload = 404, {"message": "404: Not Found", "code": 0}
        elif not self._authorised(request, path):
            status, payload = 401, {"message": "401: Unauthorized", "code": 0}
        else:
            route, ctx.params = found
            status, payload, headers = await self._run(route, ctx)
        self._record(ctx, kind, status)
        fake.notify()
        return json_response(status, payload, headers)

    async def _run(self, route: Route, ctx: Ctx) -> tuple[int, Any, dict[str, str]]:
        """Limits, faults, then the handler; returns status, body and rate-limit headers."""
        fake = self.fake
        decision: Decision = fake.rate_limits.check(route.kind, ctx.params, ctx.caller)
        if decision.refused is not None:
            hit = decision.refused
            fake.rate_limits.count_429(hit, route.kind, ctx.path)
            return 429, hit.body(), decision.headers()
        fault = fake.faults.take(route.method, route.template, ctx.params, self.channel_of)
        if fault is not None:
            if fault.error.status == 429:
                hit = fault.hit(fake.rate_limits.clock())
                fake.rate_limits.count_429(hit, route.kind, ctx.path)
                return 429, hit.body(), {**decision.headers(), **hit.headers()}
            if fault.error == UNKNOWN_MESSAGE:
                self._gone(ctx.params.get("message_id"))
            return fault.error.status, fault.error.body(), decision.headers()
        try:
            status, payload = await route.handler(ctx)
        except HttpError as err:
            status, payload = err.status, {"message": err.message, "code": err.code}
        return status, payload, decision.headers()

    def _gone(self, message_id: str | None) -> None:
        """An injected "Unknown Message" for a message the fake holds: on Discord that message
        no longer exists, so it is deleted here too (MESSAGE_DELETE sent), or its buttons would
        stay clickable where no player could see them."""
        if message_id is not None and int(message_id) in self.fake.stored:
            self.fake.delete_message(int(message_id))

    def _record(self, ctx: Ctx, kind: str, status: int) -> None:
        fake = self.fake
        fake.rate_limits.record(kind, status)
        fake.requests.append(
            RecordedRequest(
                method=ctx.method,
                path=ctx.path,
                query=ctx.query,
                json=ctx.body,
                status=status,
                at=time.monotonic(),
                files=tuple(f.filename for f in ctx.files),
                kind=kind,
            )
        )

    def _authorised(self, request: web.Request, path: str) -> bool:
        if path.startswith(("/webhooks/", "/interactions/", "/oauth2/token")):
            return True
        bearer_routes = path == "/users/@me" or ATTACHMENT_PATH.fullmatch(path) is not None
        if bearer_routes and self.fake.activities.bearer_user(
            request.headers.get("Authorization", "")
        ):
            return True
        return request.headers.get("Authorization") == f"Bot {self.fake.token}"
