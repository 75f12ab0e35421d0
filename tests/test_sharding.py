"""SHARD_COUNT / SHARD_IDS: validated into Settings, an AutoShardedBot over those shards, one
process syncing the commands; without them the bot is the plain unsharded Bot."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot import CardBot, ShardedCardBot, build_bot
from db.opening import open_store
from runtime import sharding
from settings import Settings, SettingsError, http_only
from tests.test_startup import assert_one_line_failure, run_bot

BASE = {"DISCORD_TOKEN": "t"}


def settings(**env: str) -> Settings:
    return Settings.from_env({**BASE, **env})


@pytest.mark.parametrize(
    ("env", "count", "ids"),
    [
        ({}, None, None),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,1"}, 2, (0, 1)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": " 2 "}, 4, (2,)),
        ({"SHARD_COUNT": "3"}, 3, None),
    ],
)
def test_shard_settings(env: dict[str, str], count: int | None, ids: tuple[int, ...]) -> None:
    chosen = settings(**env)
    assert (chosen.shard_count, chosen.shard_ids) == (count, ids)


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "different shards"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ],
)
def test_bad_shard_settings_are_named(env: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        settings(**env)


@pytest.mark.process
def test_a_bad_shard_setting_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    env = {**BASE, "DATABASE_PATH": str(tmp_path / "bot.db"), "SHARD_COUNT": "2"}
    done = run_bot(tmp_path, {**env, "SHARD_IDS": "5"})
    assert_one_line_failure(done.stdout + done.stderr, done.returncode, "SHARD_IDS")


def test_only_the_process_running_shard_zero_syncs_commands() -> None:
    assert sharding.syncs_commands(settings())
    assert sharding.syncs_commands(settings(SHARD_COUNT="2"))
    assert sharding.syncs_commands(settings(SHARD_COUNT="4", SHARD_IDS="1,0"))
    assert not sharding.syncs_commands(settings(SHARD_COUNT="4", SHARD_IDS="2,3"))


async def test_bot_class_follows_the_settings(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "bot.db")
    try:
        plain = build_bot(settings(), store)
        assert type(plain) is CardBot
        assert not isinstance(plain, commands.AutoShardedBot)
        assert plain.shard_count is None
        sharded = build_bot(settings(SHARD_COUNT="4", SHARD_IDS="2,3"), store)
        assert isinstance(sharded, ShardedCardBot)
        assert isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
        assert sharded.shard_text == "shards 2,3 of 4"
    finally:
        await store.close()


def test_the_shards_a_process_leases() -> None:
    """What a gateway process must hold alone (runtime/leasing.py): its shards; an unsharded bot is
    shard 0 of 1; a worker runs no shard, so it leases none."""
    assert sharding.leased_shards(settings()) == (1, (0,))
    assert sharding.leased_shards(settings(SHARD_COUNT="3")) == (3, (0, 1, 2))
    assert sharding.leased_shards(settings(SHARD_COUNT="4", SHARD_IDS="3,1")) == (4, (3, 1))
    http = {"INTERACTIONS": "http", "DISCORD_PUBLIC_KEY": "ab" * 32, "WEB_PORT": "0"}
    assert sharding.leased_shards(http_only(settings(**http, SHARD_COUNT="2"))) is None
