"""Gnoming A Round played end to end: two humans and a computer, by clicking in their DMs."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from engine import GAMES
from tests.e2e.agreement import assert_scores_agree
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    channel_message_with_button,
    game_row,
    move_accepted,
    newest_live_controls,
    quiet,
    seat_names,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons, message_text

JSON = dict[str, Any]
FACE_DOWN = "🂠"


async def _play_one(fake: FakeDiscord, users: list[int], rng: random.Random) -> str | None:
    """A user who may act picks like a hurried human: mostly turning up face-down cards.

    Returns the text of the message clicked on (None when nobody can act).
    """
    ready = [(user, found) for user in users if (found := newest_live_controls(fake, user))]
    if not ready:
        return None
    user, (message, moves, menus) = rng.choice(ready)
    seen = message_text(message)
    if menus:
        menu = rng.choice(menus)
        _, value = rng.choice(menu.options)
        rec = await fake.select(user, int(message["id"]), menu.custom_id, [value])
    else:
        backs = [b for b in moves if b.label == FACE_DOWN]
        pick = rng.choice(backs) if backs and rng.random() < 0.85 else rng.choice(moves)
        rec = await fake.click(user, int(message["id"]), pick.custom_id or "")
    reply = await rec.wait_response()
    assert move_accepted(reply), reply
    await quiet(fake, idle=0.2, next_move=True)
    errors = [f.get("content") for f in rec.followups()]
    assert not errors, f"a live control was refused: {errors}"
    return seen


async def test_full_game_two_humans_and_a_computer(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    started = time.monotonic()
    fake = fake_discord
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=1, game="gnome"
    )

    # Each human got a DM with the grid (9 face-down buttons) and the two opening menus.
    for user in (alice, bob):
        message, moves, menus = newest_live_controls(fake, user) or ({}, [], [])
        assert "Test Server" in message["content"] and f"<#{channel}>" in message["content"]
        grid = [b for b in buttons(message) if b.label == FACE_DOWN]
        assert len(grid) == 9 and all(b.disabled for b in grid) and not moves
        assert [len(m.options) for m in menus] == [21, 15]
        assert "two cards to turn face up" in message_text(message)
    table = channel_message_with_button(fake, channel, "My hand")
    assert "round 1/3" in table["embeds"][0]["title"]

    rng = random.Random(4)
    prompts: list[str] = []
    db = tmp_path / "bot.db"
    while game_row(db)["status"] == "active":
        seen = await _play_one(fake, [alice, bob], rng)
        assert seen is not None, "the game is active but nobody has a live control"
        prompts.append(seen)
        assert len(prompts) < 400
    await quiet(fake)  # the table and the result
    # The DMs said what to do at each step.
    said = "\n".join(prompts)
    for text in ("Draw from the deck", "You hold **", "Tap a card of your grid", "Discard on"):
        assert text in said, text

    row = game_row(db)
    assert row["status"] == "finished"
    game = GAMES["gnome"]
    outcome = game.outcome(game.from_json(row["snapshot"]))
    assert outcome is not None
    public = "\n".join(fake.public_text())
    for n in (1, 2, 3):
        assert f"Round {n} scored" in public
    result = message_text(
        next(
            m
            for m in fake.messages(channel)
            if any(e.get("title") == "🏆 Gnoming A Round — result" for e in m.get("embeds") or [])
        )
    )
    assert "Lowest total after three rounds wins." in result
    result = re.sub(" 🤖 (easy|normal|hard)", "", result)  # a computer's name and its level
    names = seat_names(db, row["id"])
    won = " and ".join(names[s] for s in sorted(outcome.winners))
    verb = "wins" if len(outcome.winners) == 1 else "share the win"
    assert f"**{won}** {verb}!" in result
    ranked = sorted(range(len(names)), key=lambda s: (outcome.totals[s], s))
    for seat in ranked:
        assert f"**{names[seat]}** — {outcome.totals[seat]}" in result
    positions = [result.index(f"**{names[seat]}** — ") for seat in ranked]
    assert positions == sorted(positions), (result, outcome)  # lowest total first
    assert "You hold" not in public  # private prompts stay in the DMs

    await assert_scores_agree(fake, tmp_path / "bot.db", channel, bob)
    rec = await fake.slash(bob, channel, "scores")
    sheet = (await rec.wait_response()).text()
    assert "Round 3" in sheet and "Lowest total wins." in sheet
    for total in outcome.totals:
        assert str(total) in sheet
    assert not fake.unknown_routes
    await quiet(fake)
    assert time.monotonic() - started < 90
