"""Grinch played end to end by users clicking buttons, against the real bot process."""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine import GAMES
from tests.e2e.agreement import assert_scores_agree
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    bot_env,
    channel_message_with_button,
    game_row,
    open_game,
    play_one_move,
    quiet,
)
from tests.fakediscord import FakeDiscord

NAMED_CARDS = {"O2a": "Cindy-Lou Who", "N1a": "Sing! Sing! Sing!"}


def _held_named_cards(db: Path) -> dict[int, set[str]]:
    """Replay the stored log: which seats ever held each uniquely named card."""
    row = game_row(db)
    import sqlite3

    with sqlite3.connect(db) as conn:
        actions = conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (row["id"],)
        ).fetchall()
        seats = conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (row["id"],))
        players = int(seats.fetchone()[0])
    game = GAMES["grinch"]
    state = game.new_game(players, row["seed"])
    held: dict[int, set[str]] = {s: set() for s in range(players)}

    def note(current: object) -> None:
        for seat in range(players):
            hand = game.view(current, seat)["hand"]
            for card in NAMED_CARDS:
                if card in hand:
                    held[seat].add(card)

    note(state)
    for seat, text in actions:
        state = game.apply(state, seat, game.parse_action(text))
        note(state)
    return held


async def test_full_game_three_humans_and_a_computer(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    await open_game(fake, channel, alice, [bob, carol], computers=1)

    # Everyone got a DM naming the server and channel, and the table is in the channel.
    for user in (alice, bob, carol):
        dms = fake.dm_messages(user)
        assert dms, "no hand DM"
        assert "Test Server" in dms[0]["content"] and f"<#{channel}>" in dms[0]["content"]
    table = channel_message_with_button(fake, channel, "My hand")
    assert "round 1/4" in table["embeds"][0]["title"]

    rng = random.Random(1)
    moves = 0
    while await play_one_move(fake, [alice, bob, carol], rng, hand_messages={}, next_move=True):
        moves += 1
        assert moves < 200
    await quiet(fake)  # the table and the result
    row = game_row(tmp_path / "bot.db")
    assert row["status"] == "finished"
    final = game_row(tmp_path / "bot.db")["snapshot"]
    outcome = GAMES["grinch"].outcome(GAMES["grinch"].from_json(final))
    assert outcome is not None
    public = "\n".join(fake.public_text())
    assert "Grinch Grow Your Heart — result" in public
    assert public.count("scored") >= 4  # one summary per round
    # The chart, /scores and the result give every player the same total.
    await assert_scores_agree(fake, tmp_path / "bot.db", channel, bob)
    # /scores shows the sheet with every total.
    rec = await fake.slash(bob, channel, "scores")
    sheet = (await rec.wait_response()).text()
    for total in outcome.totals:
        assert str(total) in sheet
    # Hidden cards: the uniquely named cards never appear in public, and only in the DMs
    # of players who held them.
    for name in NAMED_CARDS.values():
        assert name not in public
    held = _held_named_cards(tmp_path / "bot.db")
    for seat, user in enumerate((alice, bob, carol)):
        seen = "\n".join(
            t for m in fake.dm_messages(user) for t in [json.dumps(m, ensure_ascii=False)]
        )
        for card, name in NAMED_CARDS.items():
            if name in seen:
                assert card in held[seat], f"{name} leaked into seat {seat}'s DM"
    assert not fake.unknown_routes
    await quiet(fake)
