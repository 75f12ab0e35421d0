"""A local live table without Discord: ``make web`` (``python -m tools.web``).

Starts the test suite's fake Discord and a real bot process against it with its web server
on (``WEB_PORT``, 8787 unless ``PORT`` says otherwise), makes a server with a #games channel,
three players (ana, ben, cleo) and one Activity instance ("local") for that channel, and
prints a page address per player. The page, opened without Discord's frame parameters, signs
in through the SDK's mock with the code ``mock:<user_id>``, which this fake accepts; several
tabs with different ``user_id`` play each other (and computers). The database is
``data/web.db``; Ctrl-C stops everything. Build the page first (``make page``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET
from tests.fakediscord.endpoint import wait_ok
from tests.fakediscord.process import BotProcess

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
PLAYERS = ("ana", "ben", "cleo")
INSTANCE = "local"


def page_urls(port: int, channel: int, users: dict[str, int]) -> list[str]:
    base = f"http://127.0.0.1:{port}/?instance_id={INSTANCE}&channel_id={channel}"
    return [f"{name}: {base}&user_id={user}" for name, user in users.items()]


async def serve(port: int) -> None:
    fake = FakeDiscord(token=DEFAULT_TOKEN)
    fake.activities.accept_mock_codes = True
    await fake.start()
    guild = fake.add_guild("Local table")
    channel = fake.add_channel(guild, "games")
    users = {name: fake.add_user(name, manage_guild=name == PLAYERS[0]) for name in PLAYERS}
    fake.activities.add_instance(channel, list(users.values()), INSTANCE)
    DATA.mkdir(exist_ok=True)
    bot = BotProcess(fake, DATA / "web.log")
    env = {
        "DATABASE_PATH": str(DATA / "web.db"),
        "WEB_PORT": str(port),
        "DISCORD_CLIENT_ID": str(fake.application_id),
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
    }
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await bot.start(env=env)
        await wait_ok(port)
        lines = [
            f"The live table runs on http://127.0.0.1:{port}/ (bot log: {bot.log_path}).",
            "Open one tab per player:",
            *(f"  {line}" for line in page_urls(port, channel, users)),
            "Ctrl-C stops the bot and the fake Discord.",
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        await stop.wait()
    finally:
        with contextlib.suppress(Exception):
            await bot.stop()
        await fake.stop()


if __name__ == "__main__":
    asyncio.run(serve(int(os.environ.get("PORT", "8787"))))
