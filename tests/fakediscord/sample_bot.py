"""A tiny discord.py bot used only to validate the fake Discord (it is not the product).

Commands (synced to the guilds DEMO_GUILD_ID, comma-separated, if set, else globally):
- ``/demo start``: public message with a restart-proof counter button (a DynamicItem whose
  custom_id ``demo:count:<n>`` carries the state) and a "Peek" button (ephemeral answer);
  a counter click edits the message in place (callback type 7).
- ``/demo slow``: deferred reply, then a followup.
- ``/demo dm user``: DMs the user; a closed DM (403, code 50007) is reported ephemerally.
- ``/demo pick``: a select menu; choosing edits the message.
- ``/demo ask``: a modal; submitting answers with what was typed.
- ``/demo card``: an ephemeral reply with a file, then a channel message with a file.
- ``/demo burst count``: sends ``count`` channel messages at once (rate-limit tests).
- ``/demo where``: tells which process (SAMPLE_NAME) and shard answered; the DM of ``/demo dm``
  has a "Where" button doing the same.
- ``/demoadmin check`` (default permission Manage Server): tells the member's permission.

Sharding: SHARD_COUNT with SHARD_IDS (e.g. ``1`` or ``0,1``) runs those shards; one id is a
plain ``Bot(shard_id=..., shard_count=...)``, several an ``AutoShardedBot``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("sample_bot")

CLOSED_DMS = 50007


def table_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(count))
    view.add_item(Peek())
    return view


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<n>\d+)"):
    """A counter button whose whole state is in its custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {count}",
                style=discord.ButtonStyle.primary,
                custom_id=f"demo:count:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        count = self.count + 1
        await interaction.response.edit_message(
            content=f"Counter at {count}", view=table_view(count)
        )


class Peek(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:peek"):
    """Answers with a private (ephemeral) message."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Peek", custom_id="demo:peek"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Peek:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"Secret for {interaction.user.name}: seven of hearts", ephemeral=True
        )


def where_text(interaction: discord.Interaction[Any]) -> str:
    """Which process and which of its shards received the interaction."""
    name = os.environ.get("SAMPLE_NAME", "sample")
    shard = interaction.guild.shard_id if interaction.guild is not None else 0
    return f"answered by {name} on shard {shard}"


class Where(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:where"):
    """Answers with the process and shard that received the click."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Where", custom_id="demo:where"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Where:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(where_text(interaction), ephemeral=True)


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Hearts", "Spades")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"Picked {select.values[0]}", view=None)


class AskModal(discord.ui.Modal, title="Ask the demo"):
    question: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Question", custom_id="demo:question"
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"You asked: {self.question.value}")


demo = app_commands.Group(name="demo", description="Demo commands for the fake Discord")


@demo.command(name="start", description="Post the demo table")
async def demo_start(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("Counter at 0", view=table_view(0))


@demo.command(name="slow", description="A deferred answer")
async def demo_slow(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.2)
    await interaction.followup.send("Slow answer ready")


@demo.command(name="dm", description="Send a DM to a member")
@app_commands.describe(user="Who gets the DM")
async def demo_dm(interaction: discord.Interaction[Any], user: discord.Member) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        view = discord.ui.View(timeout=None)
        view.add_item(Peek())
        view.add_item(Where())
        await user.send(f"Hello {user.name}, this is a private note", view=view)
    except discord.Forbidden as exc:
        if exc.code != CLOSED_DMS:
            raise
        await interaction.followup.send(f"DMs closed for {user.name}", ephemeral=True)
        return
    await interaction.followup.send(f"DM sent to {user.name}", ephemeral=True)


@demo.command(name="pick", description="A select menu")
async def demo_pick(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("Pick one", view=PickView())


@demo.command(name="ask", description="A modal")
async def demo_ask(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(AskModal())


@demo.command(name="card", description="Replies with files")
async def demo_card(interaction: discord.Interaction[Any]) -> None:
    card = discord.File(io.BytesIO(b"card-bytes"), filename="card.png")
    await interaction.response.send_message("Your card", file=card, ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    table = discord.File(io.BytesIO(b"table-bytes"), filename="table.png")
    await channel.send("Table image", file=table)


@demo.command(name="burst", description="Send several channel messages at once")
async def demo_burst(interaction: discord.Interaction[Any], count: int) -> None:
    await interaction.response.send_message(f"Sending {count}", ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    await asyncio.gather(*(channel.send(f"burst {i}") for i in range(count)))


@demo.command(name="where", description="Which process and shard answers")
async def demo_where(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(where_text(interaction), ephemeral=True)


demo_admin = app_commands.Group(
    name="demoadmin",
    description="Manager-only demo commands",
    default_permissions=discord.Permissions(manage_guild=True),
)


@demo_admin.command(name="check", description="Show the Manage Server permission")
async def demo_admin_check(interaction: discord.Interaction[Any]) -> None:
    allowed = interaction.permissions.manage_guild
    await interaction.response.send_message(f"manage_guild={allowed}", ephemeral=True)


async def set_up(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """What both sample bots (plain and auto-sharded) do at start."""
    bot.add_dynamic_items(Counter, Peek, Where)
    bot.add_view(PickView())
    bot.tree.add_command(demo)
    bot.tree.add_command(demo_admin)
    guild_ids = [int(g) for g in os.environ.get("DEMO_GUILD_ID", "").split(",") if g]
    for guild_id in guild_ids:
        guild = discord.Object(id=guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)
    if not guild_ids:
        await bot.tree.sync()


class SampleBot(commands.Bot):
    async def setup_hook(self) -> None:
        await set_up(self)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))


class ShardedSampleBot(commands.AutoShardedBot):
    async def setup_hook(self) -> None:
        await set_up(self)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shards: the fake has no IDENTIFY concurrency limit."""

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s), shards %s", self.user, len(self.guilds), self.shards)


def make_bot() -> commands.Bot | commands.AutoShardedBot:
    options: dict[str, Any] = {
        "command_prefix": commands.when_mentioned,
        "intents": discord.Intents.default(),
    }
    count = os.environ.get("SHARD_COUNT")
    if not count:
        return SampleBot(**options)
    options["shard_count"] = int(count)
    ids = [int(i) for i in os.environ.get("SHARD_IDS", "").split(",") if i]
    if len(ids) == 1:
        return SampleBot(shard_id=ids[0], **options)
    if ids:
        options["shard_ids"] = ids
    return ShardedSampleBot(**options)


async def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    async with make_bot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
