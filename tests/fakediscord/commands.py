"""Application commands in the fake: the global and guild command routes, and the Entry Point
command Discord creates when an app enables Activities.

What Discord checks and the fake does too (Discord's application-commands reference):

- an app has at most one ``PRIMARY_ENTRY_POINT`` (type 4) command, and only as a global one;
- ``handler`` (1 ``APP_HANDLER``, 2 ``DISCORD_LAUNCH_ACTIVITY``) only on a type-4 command, and a
  type-4 command only for an app with Activities on; ``options`` only on chat commands;
- a bulk overwrite (PUT) of the global commands that would drop the existing Entry Point
  command is refused with 400, code 50240 (:data:`ENTRY_POINT_REQUIRED`); deleting it on its
  own is allowed;
- an ``id`` in a bulk overwrite names the existing command it updates (its id stays);
- a GET answers the localization dictionaries only with ``?with_localizations=true``.

Test control::

    launch = fake.enable_activities()      # as the portal's switch: the default "Launch" command
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .faults import ENTRY_POINT_REQUIRED
from .models import JSON
from .router import HttpError, not_found

if TYPE_CHECKING:
    from .router import Ctx, Result
    from .server import FakeDiscord

CHAT_INPUT = 1
PRIMARY_ENTRY_POINT = 4
HANDLERS = (1, 2)  # APP_HANDLER, DISCORD_LAUNCH_ACTIVITY
DISCORD_LAUNCH_ACTIVITY = 2
EMBEDDED = 1 << 17  # the application flag of an app with an Activity

# The Entry Point command Discord creates when Activities are switched on (the reference's
# "Default Entry Point command"): named launch, launched by Discord itself, usable wherever the
# app is installed. Its description is the fake's choice (the reference does not give one).
DEFAULT_ENTRY_POINT: JSON = {
    "type": PRIMARY_ENTRY_POINT,
    "name": "launch",
    "description": "Launch the activity",
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
    "dm_permission": True,
    "default_member_permissions": None,
    "nsfw": False,
}

LOCALIZATIONS = ("name_localizations", "description_localizations")


def invalid(why: str) -> HttpError:
    """Discord's answer to a command it does not accept (the fake names the reason)."""
    return HttpError(400, 50035, f"Invalid Form Body: {why}")


def without_localizations(command: JSON) -> JSON:
    """A command as a GET without ``with_localizations`` answers it: no dictionaries."""
    trimmed = {k: v for k, v in command.items() if k not in LOCALIZATIONS}
    if command.get("options"):
        trimmed["options"] = [without_localizations(o) for o in command["options"]]
    return trimmed


class Commands:
    """The application commands of the fake's one application, by scope (None: global)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.activities_enabled = False

    def register(self, add: Any) -> None:
        """Add the command routes with ``add(method, template, handler)``."""
        for scope in ("", "/guilds/{guild_id}"):
            base = f"/applications/{{application_id}}{scope}/commands"
            add("GET", base, self.get_commands)
            add("PUT", base, self.put_commands)
            add("POST", base, self.post_command)
            add("GET", f"{base}/{{command_id}}", self.get_command)
            add("PATCH", f"{base}/{{command_id}}", self.patch_command)
            add("DELETE", f"{base}/{{command_id}}", self.delete_command)

    # -- test control ------------------------------------------------------------------------

    def enable_activities(self, **fields: Any) -> JSON:
        """Switch Activities on as the Developer Portal does: the app gets the EMBEDDED flag
        and Discord's default Entry Point command (``fields`` change its defaults, e.g.
        ``handler=1`` or ``name_localizations={...}``). Returns the stored command."""
        self.activities_enabled = True
        command = self.stored(None, {**DEFAULT_ENTRY_POINT, **fields})
        self.fake.commands[None] = [*self.fake.commands.get(None, []), command]
        self.fake.notify()
        return command

    def entry_point(self) -> JSON | None:
        """The app's Entry Point command, if it has one."""
        found = [c for c in self.fake.commands.get(None, []) if c["type"] == PRIMARY_ENTRY_POINT]
        return found[0] if found else None

    # -- storing -------------------------------------------------------------------------------

    def check(self, scope: int | None, command: JSON) -> None:
        """Refuse what Discord refuses in one command."""
        kind = int(command.get("type") or CHAT_INPUT)
        name = command.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            raise invalid("name must be 1-32 characters")
        handler = command.get("handler")
        if kind == PRIMARY_ENTRY_POINT:
            if scope is not None:
                raise invalid("an Entry Point command cannot be a guild command")
            if not self.activities_enabled:
                raise invalid("an Entry Point command needs Activities enabled")
            if command.get("options"):
                raise invalid("options are only for chat commands")
        elif handler is not None:
            raise invalid("handler is only for Entry Point commands")
        if handler is not None and handler not in HANDLERS:
            raise invalid(f"handler {handler!r} is not a handler type")

    def stored(self, scope: int | None, command: JSON) -> JSON:
        """``command`` as Discord stores and answers it: with its id (the one named in the
        request when it is this scope's, else the one its name and type had), the app's id
        and a new version."""
        fake = self.fake
        kind = int(command.get("type") or CHAT_INPUT)
        key = (scope, str(command["name"]), kind)
        existing = {c["id"] for c in fake.commands.get(scope, [])}
        named = command.get("id")
        if named is not None and str(named) in existing:
            fake.command_ids[key] = int(named)
        cmd_id = fake.command_ids.setdefault(key, fake.ids.next())
        defaults: JSON = {"description": "", "default_member_permissions": None, "nsfw": False}
        if kind != PRIMARY_ENTRY_POINT:
            defaults["options"] = []
        item: JSON = {
            **defaults,
            **command,
            "type": kind,
            "id": str(cmd_id),
            "application_id": str(fake.application_id),
            "version": str(fake.ids.next()),
        }
        permissions = item["default_member_permissions"]
        if permissions is not None:  # asked for as an integer or a string, answered as a string
            item["default_member_permissions"] = str(int(permissions))
        if scope is not None:
            item["guild_id"] = str(scope)
        return item

    # -- routes ----------------------------------------------------------------------------

    def _scope(self, ctx: Ctx) -> int | None:
        if int(ctx.params["application_id"]) != self.fake.application_id:
            raise not_found(10002, "Application")
        return int(ctx.params["guild_id"]) if "guild_id" in ctx.params else None

    async def get_commands(self, ctx: Ctx) -> Result:
        commands = self.fake.commands.get(self._scope(ctx), [])
        if ctx.query.get("with_localizations", "").lower() in ("true", "1"):
            return 200, commands
        return 200, [without_localizations(c) for c in commands]

    async def put_commands(self, ctx: Ctx) -> Result:
        scope = self._scope(ctx)
        body: list[JSON] = ctx.body if isinstance(ctx.body, list) else []
        for command in body:
            self.check(scope, command)
        entry_points = [c for c in body if c.get("type") == PRIMARY_ENTRY_POINT]
        if len(entry_points) > 1:
            raise invalid("an app can have one Entry Point command")
        if scope is None and not entry_points and self.entry_point() is not None:
            error = ENTRY_POINT_REQUIRED
            raise HttpError(error.status, error.code, error.message)
        self.fake.commands[scope] = [self.stored(scope, c) for c in body]
        self.fake.notify()
        return 200, self.fake.commands[scope]

    async def post_command(self, ctx: Ctx) -> Result:
        scope = self._scope(ctx)
        self.check(scope, ctx.json)
        item = self.stored(scope, ctx.json)
        current = self.entry_point() if scope is None else None
        if item["type"] == PRIMARY_ENTRY_POINT and current and current["id"] != item["id"]:
            raise invalid("an app can have one Entry Point command")
        existing = [c for c in self.fake.commands.get(scope, []) if c["id"] != item["id"]]
        self.fake.commands[scope] = [*existing, item]
        return 201, item

    def _find(self, ctx: Ctx) -> tuple[int | None, JSON]:
        scope = self._scope(ctx)
        for command in self.fake.commands.get(scope, []):
            if command["id"] == ctx.params["command_id"]:
                return scope, command
        raise not_found(10063, "application command")

    async def get_command(self, ctx: Ctx) -> Result:
        return 200, self._find(ctx)[1]

    async def patch_command(self, ctx: Ctx) -> Result:
        scope, command = self._find(ctx)
        changes = {k: v for k, v in ctx.json.items() if k not in ("id", "application_id", "type")}
        self.check(scope, {**command, **changes})
        command.update(changes)
        return 200, command

    async def delete_command(self, ctx: Ctx) -> Result:
        scope, command = self._find(ctx)
        self.fake.commands[scope] = [c for c in self.fake.commands[scope] if c is not command]
        return 204, None
