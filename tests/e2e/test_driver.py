"""The e2e helpers read a click's answer as the bot gave it (a wrong reading makes the
exactly-once checks count moves the bot never saved, or miss ones it did)."""

from __future__ import annotations

import pytest

from tests.e2e.driver import (
    DEFERRED_UPDATE,
    OLD_CONTROL,
    UPDATE_MESSAGE,
    answered,
    move_accepted,
)
from tests.fakediscord import FakeDiscord, InteractionRecord, Reply

HAND = 5  # the clicked message's id


def click_answered_with(
    kind: int, monkeypatch: pytest.MonkeyPatch, content: str = ""
) -> tuple[FakeDiscord, InteractionRecord, list[dict[str, str]]]:
    """A fake whose clicked hand has one version, and a click answered with ``kind``
    (a message with ``content``)."""
    fake = FakeDiscord()
    versions = [{"content": "your hand"}]
    monkeypatch.setattr(fake, "message_versions", lambda message_id: versions)
    rec = InteractionRecord(
        id=1, token="t", kind="component", user_id=2, channel_id=3, guild_id=None, payload={}
    )
    data = {"content": content} if content else {}
    rec.response = Reply(type=kind, data=data, ephemeral=False, message_id=HAND, interaction=rec)
    return fake, rec, versions


def test_a_deferred_click_is_answered_by_its_own_edit_not_by_a_redraw_of_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, rec, versions = click_answered_with(DEFERRED_UPDATE, monkeypatch)
    assert rec.response is not None
    assert not answered(fake, rec, HAND, 1)
    versions.append({"content": "your hand after a timeout played for you"})  # the publisher
    assert not answered(fake, rec, HAND, 1)  # ... which says nothing of this click
    rec.edits.append({"content": f"{OLD_CONTROL}\nyour hand"})  # the click's own answer
    assert answered(fake, rec, HAND, 1)
    assert not move_accepted(rec.response)


def test_an_immediate_update_is_answered_once_the_hand_is_redrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, rec, versions = click_answered_with(UPDATE_MESSAGE, monkeypatch)
    assert rec.response is not None
    assert not answered(fake, rec, HAND, 1)
    versions.append({"content": "your hand after the move"})
    assert answered(fake, rec, HAND, 1)
    assert move_accepted(rec.response)


def test_an_older_hand_marked_out_of_date_is_no_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer to a click on an older hand DM that kept its buttons: an update of it,
    which is not an accepted move (the exactly-once checks would count it as played)."""
    text = "⬆️ This hand is out of date: your current hand is in a newer message below."
    _fake, rec, _versions = click_answered_with(UPDATE_MESSAGE, monkeypatch, text)
    assert rec.response is not None
    assert not move_accepted(rec.response)


async def test_a_wait_that_times_out_says_how_the_click_was_acknowledged() -> None:
    rec = InteractionRecord(
        id=1, token="t", kind="component", user_id=2, channel_id=3, guild_id=None, payload={}
    )
    with pytest.raises(TimeoutError, match=r"not seen in 0\.01 s \(not acknowledged\)"):
        await rec.wait_output(timeout=0.01)
    rec.acked_at = rec.sent_at + 1.5
    rec.response = Reply(
        type=DEFERRED_UPDATE, data={}, ephemeral=False, message_id=HAND, interaction=rec
    )
    with pytest.raises(TimeoutError, match=r"\(deferred after 1\.5 s, 0 output\(s\)\)"):
        await rec.wait_output(timeout=0.01)
