"""A tiny discord.py bot used only to validate the fake Discord (it is not the product).

Commands (synced to the guild DEMO_GUILD_ID if set, else globally):
- ``/demo start``: public message with a restart-proof counter button (a DynamicItem whose
  custom_id ``demo:count:<n>`` carries the state) and a "Peek" button (ephemeral answer);
  a counter click edits the message in place (callback type 7).
- ``/demo slow``: deferred reply, then a followup.
- ``/demo dm user``: DMs the user; a closed DM (403, code 50007) is reported ephemerally.
- ``/demo pick``: a select menu; choosing edits the message.
- ``/demo ask``: a modal; submitting answers with what was typed.
- ``/demo card``: an ephemeral reply with a file, then a channel message with a file.
- ``/demoadmin check`` (default permission Manage Server): tells the member's permission.
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


demo_admin = app_commands.Group(
    name="demoadmin",
    description="Manager-only demo commands",
    default_permissions=discord.Permissions(manage_guild=True),
)


@demo_admin.command(name="check", description="Show the Manage Server permission")
async def demo_admin_check(interaction: discord.Interaction[Any]) -> None:
    allowed = interaction.permissions.manage_guild
    await interaction.response.send_message(f"manage_guild={allowed}", ephemeral=True)


class SampleBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter, Peek)
        self.add_view(PickView())
        self.tree.add_command(demo)
        self.tree.add_command(demo_admin)
        guild_id = os.environ.get("DEMO_GUILD_ID")
        if guild_id:
            guild = discord.Object(id=int(guild_id))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))


async def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    async with SampleBot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
