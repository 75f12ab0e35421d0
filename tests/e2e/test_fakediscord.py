"""The fake Discord validated against a real discord.py process (tests/fakediscord/sample_bot.py).

Plus a few checks of the fake alone (no bot process) for what discord.py relies on.
"""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, find_button
from tests.fakediscord.forms import parse_multipart
from tests.fakediscord.process import BotProcess
from tests.fakediscord.rawclient import rest_call

SAMPLE_BOT = "tests/fakediscord/sample_bot.py"

# The fake's own tests: Discord's limits at their real length.
pytestmark = pytest.mark.real_time_limits


async def start_sample(fake: FakeDiscord, proc: BotProcess) -> None:
    await proc.start(SAMPLE_BOT, env={"DEMO_GUILD_ID": str(fake.guild_named("Test Server"))})


async def test_slash_buttons_ephemeral_defer_select_modal(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    await start_sample(fake, bot_process)
    guild, games = fake.guild_named("Test Server"), fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    assert {"demo start", "demo dm", "demo slow"} <= fake.command_paths(guild)

    rec = await fake.slash(alice, games, "demo start")
    reply = await rec.wait_response()
    assert reply.type == 4
    assert not reply.ephemeral
    assert reply.content == "Counter at 0"
    assert rec.ack_latency is not None
    assert 0 <= rec.ack_latency < 3
    table = reply.message_id
    assert table is not None
    assert [(b.label, b.custom_id, b.disabled) for b in fake.buttons(table)] == [
        ("Count 0", "demo:count:0", False),
        ("Peek", "demo:peek", False),
    ]
    posted = fake.messages(games)
    assert [m["content"] for m in posted] == ["Counter at 0"]
    assert posted[0]["type"] == 20
    assert posted[0]["author"]["id"] == str(fake.bot_user.id)

    click = await fake.click_button(bob, table, "Count 0")
    update = await click.wait_response()
    assert update.type == 7
    assert update.message_id == table
    current = fake.message(table)
    assert current is not None
    assert current["content"] == "Counter at 1"
    assert current["edited_timestamp"] is not None
    assert find_button(current, "Count 1").custom_id == "demo:count:1"
    assert [v["content"] for v in fake.message_versions(table)] == ["Counter at 0", "Counter at 1"]

    peek = await fake.click(bob, table, "demo:peek")
    secret = await peek.wait_response()
    assert secret.ephemeral
    assert secret.content == "Secret for bob: seven of hearts"
    assert any("Secret for bob" in t for t in fake.all_text_seen_by(bob))
    assert not any("Secret for" in t for t in fake.all_text_seen_by(alice))
    assert not any("Secret for" in t for t in fake.public_text())
    assert [m["content"] for m in fake.messages(games)] == ["Counter at 1"]

    slow = await fake.slash(alice, games, "demo slow")
    deferred = await slow.wait_response()
    assert deferred.type == 5
    assert deferred.deferred
    answer = await slow.wait_message()
    assert answer["content"] == "Slow answer ready"
    assert answer["id"] == str(deferred.message_id)
    assert fake.messages(games)[-1]["content"] == "Slow answer ready"

    pick = await fake.slash(alice, games, "demo pick")
    menu = (await pick.wait_response()).message_id
    assert menu is not None
    chosen = await fake.select(alice, menu, "demo:pick", ["spades"])
    assert (await chosen.wait_response()).type == 7
    picked = fake.message(menu)
    assert picked is not None
    assert picked["content"] == "Picked spades"
    assert picked["components"] == []

    ask = await fake.slash(alice, games, "demo ask")
    assert (await ask.wait_response()).type == 9
    submitted = await fake.submit_modal(alice, ask, {"demo:question": "Who deals?"})
    assert (await submitted.wait_response()).content == "You asked: Who deals?"

    card = await fake.slash(bob, games, "demo card")
    shown = await card.wait_response()
    assert shown.ephemeral
    message = shown.message()
    assert message is not None
    [attachment] = message["attachments"]
    assert attachment["filename"] == "card.png"
    assert fake.attachment_content(attachment) == b"card-bytes"
    table_image = await fake.wait_for(lambda: fake.messages(games)[-1]["attachments"])
    assert fake.attachment_content(table_image[0]) == b"table-bytes"

    assert (await (await fake.slash(alice, games, "demoadmin check")).wait_response()).content == (
        "manage_guild=True"
    )
    with pytest.raises(PermissionError):
        await fake.slash(bob, games, "demoadmin check")
    with pytest.raises(LookupError):
        await fake.slash(alice, games, "demo nothing")
    with pytest.raises(LookupError):
        await fake.click(alice, table, "demo:count:0")  # that button is gone
    assert all(0 <= latency < 3 for latency in fake.ack_latencies())
    assert fake.unknown_routes == []


async def test_dynamic_item_works_after_sigkill_and_restart(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    games, carol = fake.channel_named("games"), fake.user_named("carol")
    await start_sample(fake, bot_process)
    table = (await (await fake.slash(carol, games, "demo start")).wait_response()).message_id
    assert table is not None
    await (await fake.click(carol, table, "demo:count:0")).wait_response()

    bot_process.kill()
    await fake.wait_for(lambda: not fake.bot_connected, timeout=5)
    with pytest.raises(RuntimeError, match="not connected"):
        await fake.click(carol, table, "demo:count:1")
    await start_sample(fake, bot_process)
    assert fake.ready_count == 2

    after = await fake.click(carol, table, "demo:count:1")
    assert (await after.wait_response()).type == 7
    assert fake.buttons(table)[0].custom_id == "demo:count:2"

    await fake.disconnect_bot()
    await fake.wait_for(lambda: fake.resume_count == 1 and fake.bot_connected, timeout=10)
    resumed = await fake.click(carol, table, "demo:count:2")
    assert (await resumed.wait_response()).type == 7
    current = fake.message(table)
    assert current is not None
    assert current["content"] == "Counter at 3"
    assert fake.unknown_routes == []


async def test_closed_dms_give_403_50007(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    games, alice = fake.channel_named("games"), fake.user_named("alice")
    bob, dora = fake.user_named("bob"), fake.user_named("dora")
    await start_sample(fake, bot_process)

    to_dora = await fake.slash(alice, games, "demo dm", options={"user": dora})
    assert (await to_dora.wait_response()).ephemeral
    note = await to_dora.wait_message()
    assert note["content"] == "DMs closed for dora"
    assert int(note["flags"]) & 64
    assert fake.blocked_dm_attempts == [dora]
    dora_dm = fake.dm_channel_id(dora)
    assert dora_dm is not None
    refused = fake.requests_to("POST", f"^/channels/{dora_dm}/messages$")
    assert [r.status for r in refused] == [403]
    assert fake.dm_messages(dora) == []

    to_bob = await fake.slash(alice, games, "demo dm", options={"user": bob})
    assert (await to_bob.wait_message())["content"] == "DM sent to bob"
    [note_to_bob] = fake.dm_messages(bob)
    assert note_to_bob["content"] == "Hello bob, this is a private note"
    assert "guild_id" not in note_to_bob
    peek = await fake.click_button(bob, int(note_to_bob["id"]), "Peek")
    assert peek.payload["context"] == 1
    assert "member" not in peek.payload
    assert (await peek.wait_response()).content == "Secret for bob: seven of hearts"
    with pytest.raises(LookupError):
        await fake.click_button(alice, int(note_to_bob["id"]), "Peek")
    assert "Hello bob, this is a private note" in fake.all_text_seen_by(bob)
    assert "Hello bob, this is a private note" not in fake.all_text_seen_by(alice)
    assert "Hello bob, this is a private note" not in fake.public_text()
    assert fake.unknown_routes == []


async def test_fake_alone_json_content_type_and_unknown_routes(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{fake.url}/api/v10/users/@me") as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            assert json.loads(await resp.text())["id"] == str(fake.bot_user.id)
        async with session.get(f"{fake.url}/api/v10/no/such/route") as resp:
            assert resp.status == 404
        async with session.get(f"{fake.url}/api/v10/users/@me", headers={"Authorization": ""}) as r:
            assert r.status == 401
    assert fake.unknown_routes == ["GET /no/such/route"]
    assert [r.status for r in fake.requests] == [200, 404, 401]
    with pytest.raises(RuntimeError, match="not connected"):
        await fake.slash(fake.user_named("alice"), fake.channel_named("games"), "demo start")


async def test_an_enforced_nonce_returns_the_message_it_created(fake_discord: FakeDiscord) -> None:
    """As Discord: a create-message with a nonce seen from the same author in the last few
    minutes and ``enforce_nonce`` returns that message and creates none; without
    ``enforce_nonce`` a nonce changes nothing; a nonce over 25 characters is refused."""
    fake = fake_discord
    channel = fake.channel_named("games")
    path = f"/channels/{channel}/messages"
    body = {"content": "the result", "nonce": "n1", "enforce_nonce": True}
    first = await rest_call(fake, "POST", path, body)
    again = await rest_call(fake, "POST", path, body)
    assert first.status == again.status == 200
    assert again.body["id"] == first.body["id"] and fake.nonces.repeats == 1
    loose = {"content": "a line", "nonce": "n2"}
    one, two = [await rest_call(fake, "POST", path, loose) for _ in range(2)]
    assert one.body["id"] != two.body["id"]
    assert [m["content"] for m in fake.messages(channel)] == ["the result", "a line", "a line"]
    long = await rest_call(fake, "POST", path, {**body, "nonce": "x" * 26})
    assert long.status == 400 and long.body["code"] == 50035


async def test_a_message_with_files_is_read_as_discord_reads_it(fake_discord: FakeDiscord) -> None:
    """A multipart body, as discord.py sends it: ``payload_json`` and ``files[n]`` parts in any
    order, file bytes that hold line breaks and dashes kept byte for byte; a body cut short of
    its closing boundary, or without a boundary, is not read."""
    fake = fake_discord
    channel = fake.channel_named("games")
    url = f"{fake.url}/api/v10/channels/{channel}/messages"
    picture = b"\x89PNG\r\n\x1a\n\r\n--\r\n\r\n" + bytes(range(256)) * 40
    form = aiohttp.FormData()
    form.add_field("files[1]", b"second", filename="b.txt", content_type="text/plain")
    form.add_field(
        "payload_json", json.dumps({"content": "with files"}), content_type="application/json"
    )
    form.add_field("files[0]", picture, filename="hand.png", content_type="image/png")
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.post(url, data=form) as resp,
    ):
        assert resp.status == 200
        sent = await resp.json()
    assert sent["content"] == "with files"
    files = {a["filename"]: fake.attachments[int(a["id"])] for a in sent["attachments"]}
    assert files == {"hand.png": picture, "b.txt": b"second"}
    assert [m["content"] for m in fake.messages(channel)] == ["with files"]
    cut = b'--xyz\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{}'
    with pytest.raises(ValueError, match="closing boundary"):
        parse_multipart("multipart/form-data; boundary=xyz", cut)
    assert parse_multipart("multipart/form-data; boundary=xyz", cut + b"\r\n--xyz--") == ({}, [])
    with pytest.raises(ValueError, match="boundary"):
        parse_multipart("multipart/form-data", cut + b"\r\n--xyz--")


async def test_a_message_that_would_show_nothing_is_refused(fake_discord: FakeDiscord) -> None:
    """As Discord: a new message, or an edit that would leave one, with no content, embed,
    component or attachment is refused with 50006; an edit that keeps any of them is not."""
    fake = fake_discord
    channel = fake.channel_named("games")
    path = f"/channels/{channel}/messages"
    for empty in ({}, {"content": ""}, {"content": "", "embeds": [], "components": []}):
        refused = await rest_call(fake, "POST", path, empty)
        assert refused.status == 400 and refused.body["code"] == 50006, empty
    assert fake.messages(channel) == []
    posted = await rest_call(
        fake, "POST", path, {"content": "the table", "embeds": [{"title": "t"}]}
    )
    edit = f"{path}/{posted.body['id']}"
    kept = await rest_call(fake, "PATCH", edit, {"content": "", "components": []})
    assert kept.status == 200 and kept.body["embeds"][0]["title"] == "t"
    emptied = await rest_call(fake, "PATCH", edit, {"embeds": []})
    assert emptied.status == 400 and emptied.body["code"] == 50006
    assert [m["embeds"][0]["title"] for m in fake.messages(channel)] == ["t"]
