"""2-Player Hearts end to end: a challenge accepted, one declined, and a whole game against the
computer."""

from __future__ import annotations

import random
from pathlib import Path

import i18n
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    bot_env,
    find_button,
    game_row,
    open_game,
    play_one_move,
    play_to_the_end,
    quiet,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons


async def test_challenge_accepted_then_only_legal_cards_are_enabled(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.1
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    rec = await fake.slash(alice, channel, "hearts start", {"opponent": bob})
    reply = await rec.wait_response()
    lobby = reply.message()
    assert lobby is not None and f"<@{bob}>" in lobby["content"]
    labels = [b.label for b in buttons(lobby)]
    assert labels == ["Accept", "Decline"]
    said = str(lobby["embeds"][0].get("description"))  # the text names the buttons shown
    assert "**Accept**" in said and "**Decline**" in said and "Join" not in said, said
    # Only the challenged player can accept.
    wrong = await fake.click(carol, int(lobby["id"]), find_button(lobby, "Accept").custom_id or "")
    await wrong.wait_response()
    await quiet(fake)
    assert [t for t in wrong.texts() if t] == ["This challenge is for someone else."]
    ok = await fake.click(bob, int(lobby["id"]), find_button(lobby, "Accept").custom_id or "")
    await ok.wait_response()
    await quiet(fake)
    assert game_row(db)["status"] == "active"
    # The player to act has exactly one enabled card in trick 1 (the opening club).
    enabled = {
        u: [b for m in fake.dm_messages(u)[-1:] for b in buttons(m) if not b.disabled]
        for u in (alice, bob)
    }
    leader = alice if enabled[alice] else bob
    assert len(enabled[leader]) == 1 and enabled[leader][0].label.endswith("♣")
    other = bob if leader == alice else alice
    assert enabled[other] == []
    disabled = [b for b in buttons(fake.dm_messages(leader)[-1]) if b.disabled]
    assert len(disabled) == 12  # the rest of the 13-card hand is shown, not playable
    rng = random.Random(2)
    before = action_count(db)
    for _ in range(6):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert action_count(db) == before + 6
    table_text = "\n".join(str(m.get("embeds")) for m in fake.messages(channel))
    assert "Last trick" in table_text


async def test_challenge_declined_says_so_and_pings_in_the_challenged_persons_language(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    chose = await fake.slash(bob, channel, "language", {"language": "ro"})
    await chose.wait_response()
    rec = await fake.slash(alice, channel, "hearts start", {"opponent": bob})
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    # The ping speaks to Bob: in his Romanian; the lobby itself is the server's (English).
    with i18n.using("ro"):
        assert lobby["content"] == i18n._("{mention}, you are challenged!", mention=f"<@{bob}>")
    assert lobby["content"] != f"<@{bob}>, you are challenged!"
    assert [b.label for b in buttons(lobby)] == ["Accept", "Decline"]
    no = await fake.click(bob, int(lobby["id"]), find_button(lobby, "Decline").custom_id or "")
    await no.wait_response()
    await quiet(fake)
    assert game_row(db)["status"] == "cancelled"
    after = fake.message(int(lobby["id"]))
    assert after is not None
    said = str(after["embeds"][0].get("description"))
    assert after["content"] == "🛑 bob declined the challenge.", after["content"]
    assert "✖️ bob — declined the challenge" in said, said
    assert "waiting for" not in said and "closed this lobby" not in said, said
    assert buttons(after) == []


async def test_whole_game_against_the_computer(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    fake.click_settle = 0.05
    await bot_process.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice = fake.user_named("alice")
    await open_game(fake, channel, alice, [], computers=1, game="hearts")
    await play_to_the_end(fake, [alice], random.Random(5), db, channel=channel, limit=600)
    assert game_row(db)["status"] == "finished"
    public = "\n".join(fake.public_text())
    assert "2-Player Hearts — result" in public
    assert "Dead cards" in public  # revealed in every hand summary
    rec = await fake.slash(alice, channel, "scores")
    sheet = (await rec.wait_response()).text()
    assert "Hand 1" in sheet and "lowest wins" in sheet
