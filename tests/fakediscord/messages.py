"""Creating, editing and deleting stored messages from the bodies the bot sends."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .models import FLAG_EPHEMERAL, FLAG_LOADING, JSON, StoredMessage, now_iso

if TYPE_CHECKING:
    from .records import InteractionRecord
    from .server import FakeDiscord

MENTION = re.compile(r"<@!?(\d+)>")

# Message types.
DEFAULT = 0
REPLY = 19
CHAT_INPUT_COMMAND = 20


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart body (``files[n]``)."""

    index: int
    filename: str
    content_type: str
    content: bytes
    field: str = ""  # the part's name: "files[0]", "file"


def _embeds(raw: Any) -> list[JSON]:
    embeds = []
    for embed in raw or []:
        item = copy.deepcopy(embed)
        item.setdefault("type", "rich")
        embeds.append(item)
    return embeds


def _mentions(fake: FakeDiscord, content: str) -> list[JSON]:
    found = []
    for uid in dict.fromkeys(int(m) for m in MENTION.findall(content)):
        user = fake.users.get(uid)
        if user is not None:
            found.append(user.payload())
    return found


def _attachments(
    fake: FakeDiscord, payload: JSON, files: list[UploadedFile], existing: list[JSON]
) -> list[JSON]:
    new_by_index: dict[int, JSON] = {}
    for upload in files:
        att_id = fake.ids.next()
        fake.attachments[att_id] = upload.content
        url = f"{fake.url}/attachments/{att_id}/{upload.filename}"
        new_by_index[upload.index] = {
            "id": str(att_id),
            "filename": upload.filename,
            "size": len(upload.content),
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
        }
    if payload.get("attachments") is None:
        return [*existing, *new_by_index.values()]
    kept: list[JSON] = []
    old = {str(a["id"]): a for a in existing}
    for ref in payload["attachments"]:
        ref_id = str(ref.get("id"))
        if ref_id in old:
            kept.append(old[ref_id])
        elif ref_id.isdigit() and int(ref_id) in new_by_index:
            item = new_by_index.pop(int(ref_id))
            if ref.get("description"):
                item["description"] = ref["description"]
            kept.append(item)
    return [*kept, *new_by_index.values()]


def refuse_empty(data: JSON) -> None:
    """Discord's answer to a message that would show nothing (no content, embed, component,
    attachment, sticker or poll), sent or left by an edit: 400, code 50006."""
    from .router import HttpError  # the router reads this module's UploadedFile

    shown = ("content", "embeds", "components", "attachments", "sticker_items", "poll")
    if not any(data.get(key) for key in shown):
        raise HttpError(400, 50006, "Cannot send an empty message")


def create_message(
    fake: FakeDiscord,
    channel_id: int,
    payload: JSON,
    *,
    files: list[UploadedFile] | None = None,
    ephemeral_to: int | None = None,
    interaction: InteractionRecord | None = None,
    msg_type: int | None = None,
    extra_flags: int = 0,
) -> StoredMessage:
    """Store a new bot message built from a create-message body and return it."""
    channel = fake.channels[channel_id]
    mid = fake.ids.next()
    content = str(payload.get("content") or "")
    flags = int(payload.get("flags") or 0) | extra_flags
    flags = flags | FLAG_EPHEMERAL if ephemeral_to is not None else flags & ~FLAG_EPHEMERAL
    reference = payload.get("message_reference")
    if msg_type is None:
        msg_type = REPLY if reference else DEFAULT
    data: JSON = {
        "id": str(mid),
        "channel_id": str(channel_id),
        "type": msg_type,
        "author": fake.bot_user.payload(),
        "content": content,
        "embeds": _embeds(payload.get("embeds")),
        "components": copy.deepcopy(payload.get("components") or []),
        "attachments": _attachments(fake, payload, files or [], []),
        "flags": flags,
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(payload.get("tts", False)),
        "mention_everyone": False,
        "mentions": _mentions(fake, content),
        "mention_roles": [],
        "mention_channels": [],
        "pinned": False,
        "sticker_items": [],
    }
    if not flags & FLAG_LOADING:  # a deferred answer's "thinking" message is empty
        refuse_empty(data)
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    if payload.get("nonce") is not None:
        data["nonce"] = payload["nonce"]
    if reference:
        data["message_reference"] = {
            "type": 0,
            "message_id": str(reference.get("message_id")),
            "channel_id": str(reference.get("channel_id") or channel_id),
        }
    if interaction is not None:
        user = fake.users[interaction.user_id].payload()
        data["webhook_id"] = str(fake.application_id)
        data["application_id"] = str(fake.application_id)
        data["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": interaction.payload["type"],
            "user": user,
            "authorizing_integration_owners": {},
        }
        name = interaction.payload.get("data", {}).get("name")
        if name:
            data["interaction_metadata"]["name"] = name
    stored = StoredMessage(
        id=mid,
        channel_id=channel_id,
        data=data,
        ephemeral_to=ephemeral_to,
        interaction_id=None if interaction is None else interaction.id,
    )
    stored.write(data)
    fake.stored[mid] = stored
    fake.channel_messages.setdefault(channel_id, []).append(mid)
    fake.message_event("MESSAGE_CREATE", stored)
    fake.notify()
    return stored


def edit_message(
    fake: FakeDiscord,
    stored: StoredMessage,
    payload: JSON,
    files: list[UploadedFile] | None = None,
) -> StoredMessage:
    """Apply an edit body (only the keys present change) and keep the old version."""
    data = copy.deepcopy(stored.data)
    if "content" in payload:
        data["content"] = str(payload["content"] or "")
        data["mentions"] = _mentions(fake, data["content"])
    if "embeds" in payload:
        data["embeds"] = _embeds(payload["embeds"])
    if "components" in payload:
        data["components"] = copy.deepcopy(payload["components"] or [])
    if payload.get("flags") is not None:
        keep = int(data["flags"]) & FLAG_EPHEMERAL
        data["flags"] = (int(payload["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING)) | keep
    if "attachments" in payload or files:
        data["attachments"] = _attachments(fake, payload, files or [], data["attachments"])
    refuse_empty(data)
    was_loading = bool(int(data["flags"]) & FLAG_LOADING)
    data["flags"] = int(data["flags"]) & ~FLAG_LOADING
    if not was_loading:
        data["edited_timestamp"] = now_iso()
    stored.write(data)
    fake.message_event("MESSAGE_UPDATE", stored)
    fake.notify()
    return stored


def delete_message(fake: FakeDiscord, stored: StoredMessage) -> None:
    stored.deleted = True
    fake.message_event("MESSAGE_DELETE", stored)
    fake.notify()
