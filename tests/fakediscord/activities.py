"""Activities in the fake: OAuth2 codes and tokens, ``GET /users/@me`` with a bearer token,
activity instances (``GET /applications/{app}/activity-instances/{instance}``), and the
activities' attachment upload (``POST /applications/{app}/attachment``: what a share dialog's
``mediaUrl`` is made from).

Test control calls (on ``fake.activities``)::

    code = fake.activities.issue_code(alice)            # what the SDK's authorize() returns
    instance = fake.activities.add_instance(channel, [alice, bob])
    fake.activities.join(instance, carol)
    fake.activities.accept_mock_codes = True            # "mock:<user id>" codes (make web)
    fake.activities.uploads                             # every accepted upload (Upload)

An interaction answered with a launch-activity response (type 12) starts an instance in the
interaction's channel with its user (or adds the user to the channel's instance).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .models import JSON

if TYPE_CHECKING:
    from .router import Ctx, Result
    from .server import FakeDiscord

CLIENT_SECRET = "fake-client-secret"  # the application's OAuth2 secret in the fake
# Discord's limit on an uploaded file (its docs' "Uploading Files": 10 MiB without boosts).
MAX_UPLOAD = 10 * 1024 * 1024


@dataclass
class Upload:
    """One accepted ``POST /applications/{app}/attachment``."""

    id: int
    filename: str
    content_type: str
    content: bytes
    caller: str  # whose token: "bot" or "bearer:<token>"
    url: str


@dataclass
class Instance:
    id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)
    launch_id: str = field(default_factory=lambda: str(secrets.randbits(60)))


class Activities:
    """The fake's OAuth2 and activity-instance state."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.client_secret = CLIENT_SECRET
        self.codes: dict[str, int] = {}  # code -> user, each usable once
        self.tokens: dict[str, int] = {}  # bearer token -> user
        self.instances: dict[str, Instance] = {}
        self.accept_mock_codes = False
        self.exchanges = 0  # codes exchanged (tests count them)
        self.uploads: list[Upload] = []

    # -- test control ----------------------------------------------------------------------

    def issue_code(self, user_id: int) -> str:
        code = secrets.token_urlsafe(12)
        self.codes[code] = user_id
        return code

    def add_instance(
        self, channel_id: int, users: list[int], instance_id: str | None = None
    ) -> str:
        channel = self.fake.channels[channel_id]
        instance = Instance(
            instance_id or f"i-{secrets.token_hex(6)}", channel_id, channel.guild_id, list(users)
        )
        self.instances[instance.id] = instance
        return instance.id

    def join(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def launched(self, channel_id: int, user_id: int) -> str:
        """A launch-activity response in ``channel_id``: the channel's instance, joined."""
        for instance in self.instances.values():
            if instance.channel_id == channel_id:
                self.join(instance.id, user_id)
                return instance.id
        return self.add_instance(channel_id, [user_id])

    def instance_of(self, channel_id: int) -> str | None:
        return next((i.id for i in self.instances.values() if i.channel_id == channel_id), None)

    # -- routes ----------------------------------------------------------------------------

    async def token(self, ctx: Ctx) -> Result:
        from .router import HttpError

        form = ctx.json
        if (
            str(form.get("client_id")) != str(self.fake.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            raise HttpError(401, 0, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            raise HttpError(400, 0, "unsupported_grant_type")
        code = str(form.get("code") or "")
        user_id = self.codes.pop(code, None)
        if user_id is None and self.accept_mock_codes and code.startswith("mock:"):
            user_id = self._mock_user(code[len("mock:") :])
        if user_id is None:
            raise HttpError(400, 0, "invalid_grant")
        self.exchanges += 1
        access = secrets.token_urlsafe(18)
        self.tokens[access] = user_id
        body: JSON = {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 604800,
            "refresh_token": secrets.token_urlsafe(18),
            "scope": "identify",
        }
        return 200, body

    def _mock_user(self, text: str) -> int | None:
        """``mock:<id>``: that user, created (as ``user<id>``) if the fake has none yet."""
        if not text.isdigit():
            return None
        user_id = int(text)
        if user_id not in self.fake.users:
            from .models import FakeUser

            self.fake.users[user_id] = FakeUser(id=user_id, name=f"user{user_id}")
        return user_id

    def bearer_user(self, authorization: str) -> int | None:
        if not authorization.startswith("Bearer "):
            return None
        return self.tokens.get(authorization[len("Bearer ") :])

    async def instance(self, ctx: Ctx) -> Result:
        from .router import not_found

        found = self.instances.get(ctx.params["instance_id"])
        if found is None or ctx.int_param("application_id") != self.fake.application_id:
            raise not_found(10115, "Activity Instance")
        body: JSON = {
            "application_id": str(self.fake.application_id),
            "instance_id": found.id,
            "launch_id": found.launch_id,
            "location": {
                "id": f"gc-{found.guild_id}-{found.channel_id}",
                "kind": "gc",
                "channel_id": str(found.channel_id),
                "guild_id": None if found.guild_id is None else str(found.guild_id),
            },
            "users": [str(u) for u in found.users],
        }
        return 200, body

    async def upload(self, ctx: Ctx) -> Result:
        """As the spec (discord-api-spec, ``upload_application_attachment``) has it: a
        ``multipart/form-data`` body whose ``file`` part is required, for this application;
        answered with ``{"attachment": {...}}``, the attachment's ``url`` on Discord's CDN."""
        from .router import HttpError, not_found

        if ctx.int_param("application_id") != self.fake.application_id:
            raise not_found(10002, "Application")
        files = [f for f in ctx.files if f.field == "file"]
        if len(files) != 1:
            raise HttpError(400, 50035, "Invalid Form Body")  # file: BASE_TYPE_REQUIRED
        file = files[0]
        if len(file.content) > MAX_UPLOAD:
            raise HttpError(413, 40005, "Request entity too large")
        attachment_id = self.fake.ids.next()
        app = self.fake.application_id
        place = f"ephemeral-attachments/{app}/{attachment_id}/{file.filename}"
        signed = f"?ex={secrets.token_hex(4)}&is={secrets.token_hex(4)}&hm={secrets.token_hex(32)}&"
        url = f"https://cdn.discordapp.com/{place}{signed}"
        self.uploads.append(
            Upload(attachment_id, file.filename, file.content_type, file.content, ctx.caller, url)
        )
        body: JSON = {
            "id": str(attachment_id),
            "filename": file.filename,
            "size": len(file.content),
            "url": url,
            "proxy_url": f"https://media.discordapp.net/{place}{signed}",
            "content_type": file.content_type,
            "ephemeral": True,
        }
        size = _png_size(file.content)
        if size is not None:
            body["width"], body["height"] = size
        return 200, {"attachment": body}


def _png_size(content: bytes) -> tuple[int, int] | None:
    """A PNG's width and height (its IHDR chunk), or None for anything else."""
    if len(content) < 24 or not content.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    return int.from_bytes(content[16:20], "big"), int.from_bytes(content[20:24], "big")
