"""2-Player Hearts: the one action, playing a card: text ``"p.<card>"`` (``"p.10H"``)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import CodedAction
from engine.hearts2p.cards import CARD_INDEX


@dataclass(frozen=True, slots=True)
class Play(CodedAction):
    """Play one card from one's own hand."""

    code = "p"
    card: str


def parse_action_text(text: str) -> Play | None:
    """The action written as ``text``, or None if it is not a card play."""
    if not isinstance(text, str) or not text.startswith("p.") or text[2:] not in CARD_INDEX:
        return None
    return Play(text[2:])
