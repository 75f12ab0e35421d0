"""A player who leaves a running game keeps a result of their own, and every screen says who
took the seat.

alice and bob play Grinch; once a round is scored alice leaves (`/grinch leave`) and a computer
plays her seat to the end. Her /stats count her own total when she left, not the computer's
final one, and the rating places her last; /scores and /history say the computer took her
seat; the replay shows alice in her seat from step 0 and the computer "(took alice's seat)" at
the end; the export keeps when she left and with what total; the pictures (the chart's
names) say whose seat the computer took.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from engine import GAMES
from tests.e2e.agreement import chart_data, result_message
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    alice_and_bob_playing,
    find_button,
    game_row,
    play_one_move,
    play_to_the_end,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons

TOOK = "(took alice's seat)"


async def _leave(fake: FakeDiscord, user: int, channel: int) -> None:
    """`/grinch leave`, then its confirm button."""
    rec = await fake.slash(user, channel, "grinch leave", {})
    ask = await rec.wait_message()
    (button,) = [b.custom_id or "" for b in buttons(ask)]
    await (await fake.click(user, int(ask["id"]), button)).wait_response()


def _one(db: Path, sql: str, *args: object) -> tuple[object, ...]:
    with sqlite3.connect(db) as conn:
        row = conn.execute(sql, args).fetchone()
    assert row is not None, sql
    return tuple(row)


def _totals_after(db: Path, steps: int) -> list[int]:
    """The spectator's totals after the first ``steps`` moves of the newest game."""
    row = game_row(db)
    with sqlite3.connect(db) as conn:
        actions = conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (row["id"],)
        ).fetchall()
    game = GAMES["grinch"]
    state = game.new_game(2, row["seed"])
    for seat, text in actions[:steps]:
        state = game.apply(state, seat, game.parse_action(text))
    return [int(t) for t in game.view(state, None)["totals"]]


async def test_a_leaver_keeps_their_own_result_and_every_screen_names_the_seat(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    channel, alice, bob = await alice_and_bob_playing(
        fake, bot_process, tmp_path, computers=0, settle=0.05
    )
    rng = random.Random("leaver")
    while not any("scored" in t for t in fake.public_text()):  # one round is over
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={}, next_move=True)
    await quiet(fake)
    await _leave(fake, alice, channel)
    await quiet(fake)
    game_id = int(game_row(db)["id"])
    step, left_total, computer = _one(
        db, "SELECT left_step, left_total, name FROM seats WHERE left_user_id = ?", alice
    )
    assert isinstance(step, int) and step > 0
    assert left_total == _totals_after(db, step)[0] and isinstance(left_total, int)
    await play_to_the_end(fake, [bob], random.Random(9), db, channel=channel)
    assert game_row(db)["status"] == "finished"
    (final,) = _one(db, "SELECT total FROM results WHERE game_id = ? AND seat = 0", game_id)
    assert final != left_total  # the computer scored on after she left
    # The pictures name the seat's computer with whose seat it took (the chart says so).
    chart = chart_data(fake, result_message(fake, channel))
    assert chart["names"][0] == f"{computer} {TOOK}", chart["names"]

    # /stats: her own total when she left; the rating places her last.
    rec = await fake.slash(alice, channel, "stats", {})
    await rec.wait_response()
    stats = (await rec.wait_message()).get("embeds")
    text = json.dumps(stats, ensure_ascii=False)
    assert f"average score {left_total}.0 · best {left_total}" in text, text
    (place,) = _one(db, "SELECT place FROM rating_history WHERE user_id = ?", alice)
    assert place == 2

    # /scores and /history say whose seat the computer played.
    rec = await fake.slash(bob, channel, "scores", {})
    assert TOOK in (await rec.wait_response()).text()
    rec = await fake.slash(bob, channel, "history", {})
    listing = await rec.wait_message()
    assert TOOK in json.dumps(listing.get("embeds"), ensure_ascii=False)

    # The replay: alice in her seat at the start, the computer for her at the end.
    opened = await fake.click(
        bob, int(listing["id"]), find_button(listing, "Open 1").custom_id or ""
    )
    replay = await opened.wait_message()
    first = json.dumps(replay["embeds"], ensure_ascii=False)
    assert "step 0 of" in first and "alice" in first and str(computer) not in first, first
    replay_id = int(replay["id"])
    current = fake.message(replay_id) or replay
    click = await fake.click(bob, replay_id, find_button(current, "Last").custom_id or "")
    await click.wait_response()
    await quiet(fake)
    last = fake.message(replay_id) or {}
    assert TOOK in json.dumps(last.get("embeds"), ensure_ascii=False)

    # The export keeps when she left and with what total.
    click = await fake.click(bob, replay_id, find_button(last, "Export").custom_id or "")
    exported = await click.wait_message()
    data = json.loads(fake.attachment_content(exported["attachments"][0]))
    left = data["players"][0]["left"]
    assert left == {"name": "alice", "user_id": alice, "step": step, "total": left_total}
