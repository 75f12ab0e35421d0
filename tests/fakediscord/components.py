"""Reading message dicts the way a user sees them: buttons, selects and every visible text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
TEXT_DISPLAY = 10


@dataclass(frozen=True)
class Button:
    """A button as shown to a user; link buttons have ``custom_id`` None."""

    label: str
    custom_id: str | None
    disabled: bool
    style: int
    emoji: str | None


@dataclass(frozen=True)
class Select:
    """A select menu with its options as (label, value) pairs."""

    custom_id: str
    placeholder: str | None
    options: tuple[tuple[str, str], ...]
    disabled: bool
    min_values: int
    max_values: int
    component_type: int


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component in a component tree, depth first (rows, containers, sections, ...)."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def buttons(message: JSON) -> list[Button]:
    """All buttons of a message, in display order."""
    found: list[Button] = []
    for comp in walk_components(message.get("components") or []):
        if comp.get("type") != BUTTON:
            continue
        emoji = comp.get("emoji")
        found.append(
            Button(
                label=comp.get("label") or "",
                custom_id=comp.get("custom_id"),
                disabled=bool(comp.get("disabled", False)),
                style=int(comp.get("style", 1)),
                emoji=emoji.get("name") if isinstance(emoji, dict) else None,
            )
        )
    return found


def find_button(message: JSON, label: str) -> Button:
    """The button whose label equals ``label`` (or, failing that, contains it).

    Raises LookupError listing the labels present when there is none or more than one.
    """
    all_buttons = buttons(message)
    exact = [b for b in all_buttons if b.label == label]
    if len(exact) == 1:
        return exact[0]
    partial = [b for b in all_buttons if label in b.label]
    if not exact and len(partial) == 1:
        return partial[0]
    labels = [b.label for b in all_buttons]
    raise LookupError(f"no unique button {label!r} in message {message.get('id')}: {labels}")


def selects(message: JSON) -> list[Select]:
    """All select menus (any select type 3, 5-8) of a message."""
    found: list[Select] = []
    for comp in walk_components(message.get("components") or []):
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            continue
        options = tuple((o.get("label", ""), o.get("value", "")) for o in comp.get("options") or [])
        found.append(
            Select(
                custom_id=comp.get("custom_id", ""),
                placeholder=comp.get("placeholder"),
                options=options,
                disabled=bool(comp.get("disabled", False)),
                min_values=int(comp.get("min_values", 1)),
                max_values=int(comp.get("max_values", 1)),
                component_type=int(ctype),
            )
        )
    return found


def component_by_custom_id(message: JSON, custom_id: str) -> JSON | None:
    """The component dict carrying ``custom_id``, or None."""
    for comp in walk_components(message.get("components") or []):
        if comp.get("custom_id") == custom_id:
            return comp
    return None


def embed_texts(embed: JSON) -> list[str]:
    """Title, description, author, fields and footer of one embed."""
    texts: list[str] = []
    for key in ("title", "description"):
        if embed.get(key):
            texts.append(str(embed[key]))
    for key in ("author", "footer"):
        part = embed.get(key)
        if isinstance(part, dict):
            value = part.get("name") if key == "author" else part.get("text")
            if value:
                texts.append(str(value))
    for fld in embed.get("fields") or []:
        for key in ("name", "value"):
            if fld.get(key):
                texts.append(str(fld[key]))
    return texts


def component_texts(components: list[JSON]) -> list[str]:
    """Labels, placeholders, option texts and text displays of a component tree."""
    texts: list[str] = []
    for comp in walk_components(components):
        for key in ("label", "placeholder", "title", "value"):
            if comp.get(key) and isinstance(comp[key], str):
                texts.append(comp[key])
        if comp.get("type") == TEXT_DISPLAY and comp.get("content"):
            texts.append(str(comp["content"]))
        for option in comp.get("options") or []:
            for key in ("label", "description"):
                if option.get(key):
                    texts.append(str(option[key]))
    return texts


def message_texts(message: JSON) -> list[str]:
    """Every piece of text a user can read on a message (content, embeds, components)."""
    texts: list[str] = []
    if message.get("content"):
        texts.append(str(message["content"]))
    for embed in message.get("embeds") or []:
        texts.extend(embed_texts(embed))
    texts.extend(component_texts(message.get("components") or []))
    for attachment in message.get("attachments") or []:
        if attachment.get("filename"):
            texts.append(str(attachment["filename"]))
    return texts


def message_text(message: JSON) -> str:
    """``message_texts`` joined by newlines (handy for ``in`` assertions)."""
    return "\n".join(message_texts(message))
