"""Which Discord gateway shards this process runs, and whether it syncs the slash commands.

Without SHARD_COUNT the bot is one unsharded process (a plain ``commands.Bot``). With it, the
process is an ``AutoShardedBot`` over SHARD_IDS (default: every shard), and several processes
share one PostgreSQL database, each running its own range of shards.

Slash commands are synced by the process that runs shard 0 only (an unsharded bot counts as
shard 0). Exactly one live session can hold shard 0 (a second IDENTIFY replaces the first),
every valid deployment has one, and it needs no extra setting that two processes could both
get wrong: so a deployment of N processes makes one sync call per start, not N.
"""

from __future__ import annotations

from typing import Any

import discord

from settings import Settings


def sharded(settings: Settings) -> bool:
    return settings.shard_count is not None


def shard_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for ``AutoShardedBot`` (empty when unsharded)."""
    if settings.shard_count is None:
        return {}
    options: dict[str, Any] = {"shard_count": settings.shard_count}
    if settings.shard_ids is not None:
        options["shard_ids"] = list(settings.shard_ids)
    return options


def runs_shard_zero(settings: Settings) -> bool:
    return settings.shard_ids is None or 0 in settings.shard_ids


def syncs_commands(settings: Settings) -> bool:
    """Whether this process syncs the slash commands (the one running shard 0; never a
    worker, which runs no shard)."""
    return settings.gateway and runs_shard_zero(settings)


def leased_shards(settings: Settings) -> tuple[int, tuple[int, ...]] | None:
    """(SHARD_COUNT, the shards this process runs): what it must hold alone (leasing.py). An
    unsharded bot is shard 0 of 1, which overlaps every shard of any count; a worker runs no
    shard (None)."""
    if not settings.gateway:
        return None
    if settings.shard_count is None:
        return 1, (0,)
    ids = settings.shard_ids if settings.shard_ids is not None else range(settings.shard_count)
    return settings.shard_count, tuple(ids)


def describe(settings: Settings) -> str:
    if not settings.gateway:
        return "worker, no gateway"
    if settings.shard_count is None:
        return "unsharded"
    ids = settings.shard_ids if settings.shard_ids is not None else range(settings.shard_count)
    return f"shards {','.join(map(str, ids))} of {settings.shard_count}"


def all_shards_open(client: discord.AutoShardedClient) -> bool:
    """Every shard of this process has a live gateway connection."""
    shards = client.shards
    return bool(shards) and all(not shard.is_closed() for shard in shards.values())
