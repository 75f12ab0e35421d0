"""Interaction callbacks (POST /interactions/{id}/{token}/callback) and the interaction webhook
routes used for followups and for editing the original response."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .messages import CHAT_INPUT_COMMAND, REPLY, create_message, delete_message, edit_message
from .models import FLAG_EPHEMERAL, FLAG_LOADING, JSON, StoredMessage
from .records import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    LAUNCH_ACTIVITY,
    MODAL,
    PONG,
    UPDATE_MESSAGE,
    InteractionRecord,
    Output,
    Reply,
)

if TYPE_CHECKING:
    from .rest import RestApi
    from .router import Ctx, Result


def register(api: RestApi) -> None:
    """Add the interaction and webhook routes to ``api``."""
    from .router import HttpError, not_found

    fake = api.fake
    hook = "/webhooks/{application_id}/{interaction_token}"
    target = "/messages/{message}"

    def record_for(ctx: Ctx) -> InteractionRecord:
        rec = fake.interactions_by_token.get(ctx.params["interaction_token"])
        if rec is None or int(ctx.params["application_id"]) != fake.application_id:
            raise not_found(10015, "Webhook")
        return rec

    def target_of(ctx: Ctx, rec: InteractionRecord) -> StoredMessage:
        wanted = ctx.params["message"]
        mid = rec.original_message_id if wanted == "@original" else int(wanted)
        allowed = {rec.original_message_id, *rec.followup_ids}
        stored = None if mid is None or mid not in allowed else fake.stored.get(mid)
        if stored is None or stored.deleted:
            raise not_found(10008, "Message")
        return stored

    async def callback(ctx: Ctx) -> Result:
        rec = fake.interactions.get(int(ctx.params["interaction_id"]))
        if rec is None or rec.token != ctx.params["interaction_token"]:
            raise not_found(10062, "interaction")
        body = ctx.json
        if rec.response is not None:
            raise HttpError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - rec.sent_at > fake.ack_deadline:
            rec.late_callbacks.append(body)
            rec.notify()
            raise not_found(10062, "interaction")
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        is_component = rec.source_message_id is not None
        if ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and not is_component:
            raise HttpError(400, 50035, "Invalid Form Body: update needs a component message")
        allowed = (PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, 6, 7, MODAL, LAUNCH_ACTIVITY)
        if ctype not in allowed:
            raise HttpError(400, 50035, f"Invalid Form Body: callback type {ctype}")
        rec.acked_at = time.monotonic()
        ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        message: JSON | None = None
        if ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            stored = create_message(
                fake,
                rec.channel_id,
                {} if ctype == DEFERRED_CHANNEL_MESSAGE else data,
                files=ctx.files,
                ephemeral_to=rec.user_id if ephemeral else None,
                interaction=rec,
                msg_type=REPLY if is_component else CHAT_INPUT_COMMAND,
                extra_flags=FLAG_LOADING if ctype == DEFERRED_CHANNEL_MESSAGE else 0,
            )
            rec.original_message_id = stored.id
            message = stored.data
            if ctype == CHANNEL_MESSAGE:
                rec.outputs.append(Output("reply", stored.id, stored.data))
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            assert rec.source_message_id is not None
            rec.original_message_id = rec.source_message_id
            source = fake.stored[rec.source_message_id]
            ephemeral = source.ephemeral_to is not None
            if ctype == UPDATE_MESSAGE:
                edit_message(fake, source, data, ctx.files)
                rec.outputs.append(Output("update", source.id, source.data))
                message = source.data
        elif ctype == MODAL:
            rec.outputs.append(Output("modal", None, data))
        elif ctype == LAUNCH_ACTIVITY:
            launched = fake.activities.launched(rec.channel_id, rec.user_id)
            rec.outputs.append(Output("activity", None, {"instance_id": launched}))
        rec.response = Reply(
            type=ctype,
            data=data,
            ephemeral=ephemeral,
            message_id=rec.original_message_id,
            interaction=rec,
        )
        rec.notify()
        fake.notify()
        answer: JSON = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.payload["type"],
                "response_message_loading": ctype == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ephemeral,
            }
        }
        if ctype == LAUNCH_ACTIVITY:
            instance = fake.activities.instance_of(rec.channel_id)
            answer["resource"] = {"type": ctype, "activity_instance": {"id": instance}}
            answer["interaction"]["activity_instance_id"] = instance
        if rec.original_message_id is not None and ctype not in (MODAL, LAUNCH_ACTIVITY):
            answer["interaction"]["response_message_id"] = str(rec.original_message_id)
        if message is not None:
            answer["resource"] = {"type": ctype, "message": message}
        if ctx.query.get("with_response", "").lower() not in ("1", "true"):
            return 204, None  # as Discord: the callback's answer only when asked for
        return 200, answer

    async def followup(ctx: Ctx) -> Result:
        rec = record_for(ctx)
        if rec.response is None:
            raise not_found(10015, "Webhook")
        payload = ctx.json
        original = None
        if rec.original_message_id is not None:
            original = fake.stored.get(rec.original_message_id)
        if (
            original is not None
            and not original.deleted
            and int(original.data["flags"]) & FLAG_LOADING
        ):
            stored = edit_message(fake, original, payload, ctx.files)
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
            stored = create_message(
                fake,
                rec.channel_id,
                payload,
                files=ctx.files,
                ephemeral_to=rec.user_id if ephemeral else None,
                interaction=rec,
            )
        rec.followup_ids.append(stored.id)
        rec.outputs.append(Output("followup", stored.id, stored.data))
        rec.notify()
        return 200, stored.data

    async def get_hook_message(ctx: Ctx) -> Result:
        rec = record_for(ctx)
        return 200, target_of(ctx, rec).data

    async def patch_hook_message(ctx: Ctx) -> Result:
        rec = record_for(ctx)
        stored = edit_message(fake, target_of(ctx, rec), ctx.json, ctx.files)
        rec.edits.append(ctx.json)
        rec.outputs.append(Output("edit", stored.id, stored.data))
        rec.notify()
        return 200, stored.data

    async def delete_hook_message(ctx: Ctx) -> Result:
        rec = record_for(ctx)
        delete_message(fake, target_of(ctx, rec))
        rec.notify()
        return 204, None

    api._add("POST", "/interactions/{interaction_id}/{interaction_token}/callback", callback)
    api._add("POST", hook, followup)
    api._add("GET", hook + target, get_hook_message)
    api._add("PATCH", hook + target, patch_hook_message)
    api._add("DELETE", hook + target, delete_hook_message)
