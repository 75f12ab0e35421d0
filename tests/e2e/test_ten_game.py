"""Ten played end to end by clicking: two humans and a computer, and a solo game.

The shared driver only clicks buttons; Ten also needs menus (buying, paying with cards), so
this file has its own small player that reads each DM like a hurried human would.
"""

from __future__ import annotations

import io
import random
import re
import time
from pathlib import Path
from typing import Any

from PIL import Image

from engine import GAMES
from tests.e2e.agreement import assert_scores_agree, result_message
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    bot_env,
    channel_message_with_button,
    game_row,
    move_accepted,
    newest_live_controls,
    open_game,
    quiet,
    seat_names,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import Button, Select, buttons, message_text

PHONE_PICTURE = 720  # px: Ten's channel pictures, shown 360 px wide on a phone

JSON = dict[str, Any]
NET = re.compile(r"\*\*net (-?\d+)\*\*")


def _choose(
    text: str, moves: list[Button], menus: list[Select], rng: random.Random, used: list[str]
) -> tuple[str, Button | Select, str]:
    """A hurried human's choice: ("click", button, "") or ("select", menu, value).

    The game is shuffled afresh each run, so the first chance to buy from the menu and the
    first chance to pay differently are always taken: both menus get used in every run.
    """
    by_label = {b.label: b for b in moves}
    menu = {(s.placeholder or "").split(" ")[0]: s for s in menus}
    draw = [b for b in moves if b.label.startswith("Draw")]
    if "Stop" in by_label or draw:
        net = NET.search(text)
        bold = net is None or (int(net.group(1)) < 6 and rng.random() < 0.9)
        if "Stop" in by_label and not (draw and bold):
            return "click", by_label["Stop"], ""
        return "click", draw[0], ""
    if "Pass" in by_label:
        if "Bid" in menu and rng.random() < 0.3:  # the bids are one menu beside Pass
            return "select", menu["Bid"], menu["Bid"].options[0][1]
        return "click", by_label["Pass"], ""
    if "Buy" in menu:
        if "Buy a card…" not in used:
            return "select", menu["Buy"], menu["Buy"].options[0][1]
        if "Pay" in menu and not any(u.startswith("Pay differently") for u in used):
            return "select", menu["Pay"], menu["Pay"].options[0][1]
        roll = rng.random()
        if roll < 0.5:
            return "select", menu["Buy"], menu["Buy"].options[0][1]
        if roll < 0.75 and "Pay" in menu:
            return "select", menu["Pay"], rng.choice(menu["Pay"].options)[1]
        return "click", by_label["No purchase"], ""
    if "Pay" in menu and rng.random() < 0.5:  # pay for a wild with cards
        return "select", menu["Pay"], rng.choice(menu["Pay"].options)[1]
    if moves:
        return "click", rng.choice(moves[:2]) if "Decline" not in by_label else moves[0], ""
    return "select", menus[0], menus[0].options[0][1]


async def _play_one(
    fake: FakeDiscord, users: list[int], rng: random.Random, used: list[str]
) -> str | None:
    """One user who may act does; returns the text of the DM acted on (None: nobody can)."""
    ready = [(user, found) for user in users if (found := newest_live_controls(fake, user))]
    if not ready:
        return None
    user, (message, moves, menus) = rng.choice(ready)
    seen = message_text(message)
    message_id = int(message["id"])
    versions = len(fake.message_versions(message_id))
    kind, control, value = _choose(seen, moves, menus, rng, used)
    if kind == "select":
        assert isinstance(control, Select)
        used.append(control.placeholder or "")
        rec = await fake.select(user, message_id, control.custom_id, [value])
    else:
        assert isinstance(control, Button)
        used.append(control.label)
        rec = await fake.click(user, message_id, control.custom_id or "")
    reply = await rec.wait_response()
    assert move_accepted(reply), reply
    # An accepted move redraws the message it was made on (the computer may think first).
    await fake.wait_for(
        lambda: len(fake.message_versions(message_id)) > versions or rec.followups(), timeout=15
    )
    await quiet(fake, idle=0.15, next_move=True)
    errors = [f.get("content") for f in rec.followups()]
    assert not errors, f"a live control was refused: {errors}"
    return seen


async def _play_to_the_end(
    fake: FakeDiscord, users: list[int], db: Path, seed: int
) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    prompts: list[str] = []
    used: list[str] = []
    while game_row(db)["status"] == "active":
        seen = await _play_one(fake, users, rng, used)
        assert seen is not None, "the game is active but nobody has a live control"
        prompts.append(seen)
        assert len(prompts) < 400
    await quiet(fake)  # the table and the result
    return prompts, used


def _files(message: dict[str, Any]) -> list[str]:
    return [str(a["filename"]) for a in message.get("attachments") or []]


def _result_text(fake: FakeDiscord, channel: int, title: str) -> str:
    found = [
        m
        for m in fake.messages(channel)
        if any(e.get("title") == title for e in m.get("embeds") or [])
        and all(b.label == "Play again" for b in buttons(m))  # the result's only button
    ]
    assert found, f"no {title!r} message"
    return message_text(found[-1])


async def test_full_game_two_humans_and_a_computer(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    started = time.monotonic()
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=1, game="ten", settle=0.05
    )

    table = channel_message_with_button(fake, channel, "My hand")
    assert table["embeds"][0]["title"] == "🔟 Ten — 3 players"
    assert "busts at 11" in message_text(table) or "a row busts at 11" in message_text(table)

    prompts, used = await _play_to_the_end(fake, [alice, bob], db, seed=3)
    said = "\n".join(prompts)
    for words in ("👉 **Draw**", "Take the numbers", "is up for auction", "Buy a card"):
        assert words in said, words
    assert "🛒 Market" in said and "Numbers" in said  # the table's essentials in the DM
    assert "Buy a card…" in used  # a menu was used, not only buttons
    assert any(u.startswith("Pay differently") for u in used)

    row = game_row(db)
    assert row["status"] == "finished"
    game = GAMES["ten"]
    outcome = game.outcome(game.from_json(row["snapshot"]))
    assert outcome is not None
    names = seat_names(db, row["id"])
    # A computer's name is followed by its level ("Robo Max 🤖 normal"): read without it.
    result = re.sub(" 🤖 (easy|normal|hard)", "", _result_text(fake, channel, "🏆 Ten — result"))
    winners = " and ".join(f"**{names[s]}**" for s in sorted(outcome.winners))
    verb = "wins" if len(outcome.winners) == 1 else "share the win"
    assert f"{winners} {verb}!" in result
    for seat, total in enumerate(outcome.totals):
        assert f"**{names[seat]}** — **{total}**" in result

    # In the channel, as in the other games: after each round a message with the table's
    # picture, and the final standings' picture with the result, each made for a phone.
    rounds = [m for m in fake.messages(channel) if _files(m) == ["round.png"]]
    titles = [str(m["embeds"][0].get("title")) for m in rounds]
    played = game.view(game.from_json(row["snapshot"]), None)["turns"] // 3
    assert titles == [f"🔟 Ten — round {n}" for n in range(1, len(titles) + 1)], titles
    assert len(titles) in (played - 1, played)  # the last round may end with the game
    end = result_message(fake, channel)
    assert _files(end) == ["round.png", "scores.png"]
    for message in [*rounds, end]:
        picture = next(a for a in message["attachments"] if a["filename"] == "round.png")
        with Image.open(io.BytesIO(fake.attachment_content(picture))) as image:
            assert image.width == PHONE_PICTURE, image.size

    public = "\n".join(fake.public_text())
    assert "Last turn" in public and "stopped and took" in public
    assert "👉" not in public  # the prompts stay in the DMs

    await assert_scores_agree(fake, db, channel, bob)
    rec = await fake.slash(bob, channel, "scores")
    sheet = (await rec.wait_response()).text()
    assert "Ten — scores" in sheet and "Orange" in sheet
    for total in outcome.totals:
        assert str(total) in sheet
    assert not fake.unknown_routes
    assert time.monotonic() - started < 60


async def test_solo_game(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    started = time.monotonic()
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice = fake.user_named("alice")
    await open_game(fake, channel, alice, [], computers=0, game="ten")
    table = channel_message_with_button(fake, channel, "My hand")
    assert table["embeds"][0]["title"] == "🔟 Ten — solo"
    assert "Solo target **20**" in message_text(table)

    prompts, _ = await _play_to_the_end(fake, [alice], db, seed=1)
    assert any("🌈" in p and "Decline" in p for p in prompts), "no wild was offered"
    row = game_row(db)
    game = GAMES["ten"]
    outcome = game.outcome(game.from_json(row["snapshot"]))
    assert outcome is not None
    result = _result_text(fake, channel, "🎯 Ten solo — result")
    score = outcome.totals[0]
    if outcome.details["won"]:
        assert f"**alice** scored **{score}**: target **20** reached" in result
    else:
        assert f"**alice** scored **{score}**: {20 - score} short of the **20**" in result
    assert "Rival turned over" in "\n".join(fake.public_text())

    await assert_scores_agree(fake, db, channel, alice)
    rec = await fake.slash(alice, channel, "scores")
    sheet = (await rec.wait_response()).text()
    assert f"final score {score}" in sheet
    assert time.monotonic() - started < 60
