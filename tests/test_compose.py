"""compose.yaml, read without Docker: PostgreSQL and two bot processes over the shards of one
SHARD_COUNT, each healthy only when its own check says so, every service with only the
variables it needs, the database and each bot's /data on named volumes; with the "http"
profile, stateless workers behind HAProxy."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from settings import Settings
from tests.e2e.balancer import haproxy

ROOT = Path(__file__).resolve().parents[1]
AWKWARD = "p@ss:w/o?r#d%20 x"  # every character that cuts a URL, and a space


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def bots(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: s for n, s in compose["services"].items() if n.startswith("bot")}


def interpolated(value: str, dotenv: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` and ``${NAME:?error}`` with ``dotenv`` as .env."""

    def one(match: re.Match[str]) -> str:
        name, kind, rest = match.group(1), match.group(2), match.group(3)
        if dotenv.get(name):
            return dotenv[name]
        if kind == ":?":
            raise AssertionError(f"compose would stop: {rest}")
        return rest

    return re.sub(r"\$\{(\w+)(:-|:\?)([^}]*)\}", one, value)


def bot_environment(service: dict[str, Any], dotenv: dict[str, str]) -> dict[str, str]:
    return {k: interpolated(str(v), dotenv) for k, v in service["environment"].items()}


def test_postgres_keeps_its_data_on_a_named_volume_and_says_when_ready(
    compose: dict[str, Any],
) -> None:
    postgres = compose["services"]["postgres"]
    assert postgres["image"].startswith("postgres:") and postgres["image"].count(".") >= 1
    volume, _, where = postgres["volumes"][0].partition(":")
    assert where == "/var/lib/postgresql/data"
    assert volume in compose["volumes"]
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    env = postgres["environment"]
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")  # never a default


def test_two_bots_share_the_database_and_split_the_shards(compose: dict[str, Any]) -> None:
    services = bots(compose)
    assert len(services) == 2
    counts, ids, urls = set(), [], set()
    for service in services.values():
        env = service["environment"]
        urls.add(env["DATABASE_URL"])
        counts.add(env["SHARD_COUNT"])
        ids.append(env["SHARD_IDS"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["build"] == "."
        # Docker restarts it after a crash and at every start of Docker; an outage or a
        # refused token does not make it exit (runtime/lifecycle.py, the image's ON_CANNOT_START).
        assert service["restart"] == "unless-stopped"
    assert urls == {"postgresql://cardtable@postgres:5432/cardtable"}  # no password in it
    assert len(counts) == 1
    shards = sorted(int(i) for text in ids for i in text.split(","))
    assert shards == list(range(int(counts.pop())))  # every shard exactly once


def test_each_bot_is_a_valid_sharded_settings_set(compose: dict[str, Any]) -> None:
    """The environment each bot gets from a .env with a password that cuts URLs is accepted
    by Settings, and the URL it connects with carries that password intact."""
    dotenv = {"DISCORD_TOKEN": "t", "POSTGRES_PASSWORD": AWKWARD}
    seen: set[int] = set()
    for service in bots(compose).values():
        settings = Settings.from_env(bot_environment(service, dotenv))
        assert settings.database_url is not None
        url = urlsplit(settings.database_url)
        assert (url.username, url.hostname, url.port, url.path) == (
            "cardtable",
            "postgres",
            5432,
            "/cardtable",
        )
        assert url.password is not None and unquote(url.password) == AWKWARD
        assert settings.turn_timeout == 300 and settings.log_level == "INFO"  # empty: default
        assert settings.shard_count == 2
        assert settings.shard_ids is not None
        seen.update(settings.shard_ids)
    assert seen == {0, 1}


def test_the_bots_get_their_settings_not_postgres_password(compose: dict[str, Any]) -> None:
    """No env_file (it would hand every variable in .env to every service): the bots get the
    password as DATABASE_PASSWORD, nothing named POSTGRES_PASSWORD."""
    for name, service in bots(compose).items():
        assert "env_file" not in service, name
        env = service["environment"]
        assert "POSTGRES_PASSWORD" not in env, name
        assert env["DATABASE_PASSWORD"] == "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"
        passed = bot_environment(service, {"DISCORD_TOKEN": "t", "POSTGRES_PASSWORD": "pw"})
        assert [k for k, v in passed.items() if "pw" in v] == ["DATABASE_PASSWORD"], name


# The web edge's settings: only the workers behind the balancer serve HTTP.
WEB_ONLY = {
    "WEB_PORT",
    "DISCORD_PUBLIC_KEY",
    "LIVE_SESSION_MINUTES",
    "TRUSTED_PROXIES",
}


def test_every_setting_of_the_bot_reaches_the_bots(compose: dict[str, Any]) -> None:
    """Each variable settings.py reads, set in .env, reaches every bot and the workers, but
    those the image sets (an empty value from compose would override them), the tests' own,
    and the web edge's, which only the workers get."""
    source = (ROOT / "settings.py").read_text()
    read = set(re.findall(r'"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"', source))
    assert {"DISCORD_TOKEN", "TURN_TIMEOUT_SECONDS", "DATABASE_PASSWORD"} <= read
    assert read >= WEB_ONLY
    image_sets = {"DATABASE_PATH", "ON_CANNOT_START", "CARDTABLE_ENV_FILE", "WEB_HOST"}
    tests_only = {"RATE_LIMIT_SCALE"}
    dotenv = {name: f"from-dotenv-{name}" for name in (*read, "POSTGRES_PASSWORD")}
    services = {**bots(compose), "worker": compose["services"]["worker"]}
    for name, service in services.items():
        env = service["environment"]
        shards = {"SHARD_IDS"} if name == "worker" else set()  # a worker runs no shard
        for setting in sorted(read - image_sets - tests_only - WEB_ONLY - shards):
            assert setting in env, f"{name} does not get {setting}"
        for setting in image_sets:
            assert setting not in env, f"{name} would override the image's {setting}"
        for setting in WEB_ONLY:
            assert (setting in env) == (name == "worker"), f"{name} and {setting}"
        passed = bot_environment(service, dotenv)
        for setting in ("DISCORD_TOKEN", "DEV_GUILD_ID", "TURN_TIMEOUT_SECONDS", "LOG_LEVEL"):
            assert passed[setting] == f"from-dotenv-{setting}", setting
    worker = bot_environment(compose["services"]["worker"], dotenv)
    for setting in ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET", "DISCORD_PUBLIC_KEY"):
        assert worker[setting] == f"from-dotenv-{setting}", setting


def test_each_bot_keeps_its_data_on_a_named_volume_of_its_own(compose: dict[str, Any]) -> None:
    names = set()
    for name, service in bots(compose).items():
        (volume,) = service["volumes"]
        source, _, target = volume.partition(":")
        assert target == "/data", name
        assert source in compose["volumes"], name  # named, not an anonymous volume
        names.add(source)
    assert len(names) == len(bots(compose))  # each its own heartbeat file


def test_bots_have_the_health_check_and_time_to_stop(compose: dict[str, Any]) -> None:
    for service in bots(compose).values():
        check = service["healthcheck"]
        assert check["test"] == ["CMD", "python", "/app/bot.py", "health"]
        assert check["start_period"] and check["interval"]
        assert int(service["stop_grace_period"].rstrip("s")) >= 10


def test_the_http_profile_puts_workers_behind_haproxy(compose: dict[str, Any]) -> None:
    """`--profile http --scale worker=N`: stateless workers over HTTP only, and a pinned
    HAProxy whose configuration finds them by Docker's DNS and checks their /health."""
    worker, balancer = compose["services"]["worker"], compose["services"]["balancer"]
    assert worker["profiles"] == balancer["profiles"] == ["http"]
    assert worker["command"][-1] == "worker"
    assert worker["environment"]["INTERACTIONS"] == "http"
    assert "container_name" not in worker and "ports" not in worker  # it must scale
    assert "volumes" not in worker and worker["tmpfs"] == ["/data:uid=10001,gid=10001"]
    assert re.fullmatch(r"haproxy:\d+\.\d+\.\d+", balancer["image"])
    (mount,) = balancer["volumes"]
    source, target = mount.split(":")[:2]
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"
    config = (ROOT / source).read_text()
    port = worker["environment"]["WEB_PORT"]
    assert f"server-template worker 16 worker:{port} check" in config
    assert "option httpchk GET /health" in config
    assert re.search(r"retry-on conn-failure$", config, re.MULTILINE)  # never a retry of a
    # request a worker received
    for name, service in bots(compose).items():
        assert service["environment"]["INTERACTIONS"] == "gateway", name


def test_the_balancers_configuration_is_valid_haproxy() -> None:
    checked = subprocess.run(
        [haproxy(), "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def haproxy_config() -> str:
    return (ROOT / "deploy" / "haproxy.cfg").read_text()


def seconds(text: str) -> float:
    value, unit = re.fullmatch(r"(\d+)(ms|s|m)?", text).groups()  # type: ignore[union-attr]
    return float(value) * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 0.001}[unit]


def haproxy_timeouts() -> dict[str, float]:
    return {
        name: seconds(value)
        for name, value in re.findall(r"^\s+timeout (\S+) (\S+)$", haproxy_config(), re.MULTILINE)
    }


def test_the_balancer_listens_on_this_machines_loopback_only(compose: dict[str, Any]) -> None:
    """Plain HTTP never reaches another machine: a TLS proxy goes in front (README.md)."""
    (published,) = compose["services"]["balancer"]["ports"]
    assert published == "127.0.0.1:8080:8080"
    for name, service in compose["services"].items():
        if name != "balancer":
            assert "ports" not in service, name


def test_the_web_edge_is_served_by_the_workers_only(compose: dict[str, Any]) -> None:
    """The shard bots serve no HTTP; the workers serve interactions and, with its
    credentials in .env, the live table, and believe X-Forwarded-For from the compose network
    only (the balancer and the TLS proxy reach them from there)."""
    dotenv = {
        "DISCORD_TOKEN": "t",
        "POSTGRES_PASSWORD": "pw",
        "DISCORD_PUBLIC_KEY": "ab" * 32,
        "DISCORD_CLIENT_ID": "123",
        "DISCORD_CLIENT_SECRET": "s",
    }
    for name, service in bots(compose).items():
        settings = Settings.from_env(bot_environment(service, dotenv))
        assert settings.web_port is None and not settings.activity, name
        assert settings.offers_activity, name  # their tables' button opens the workers' table
    worker = Settings.from_env(
        {**bot_environment(compose["services"]["worker"], dotenv), "WEB_HOST": "0.0.0.0"}
    )
    assert worker.activity and worker.interactions == "http" and worker.web_port == 8080
    (subnet,) = (c["subnet"] for c in compose["networks"]["default"]["ipam"]["config"])
    assert worker.trusted_proxies == (subnet,)


def test_the_balancer_routes_and_times_out_as_the_edge_needs() -> None:
    config = haproxy_config()
    timeouts = haproxy_timeouts()
    # A websocket stays open across the live table's heartbeat (web/live.py), with room.
    beat = re.search(r"heartbeat=(\d+(?:\.\d+)?)", (ROOT / "web" / "live.py").read_text())
    assert beat is not None
    assert timeouts["tunnel"] >= 2 * float(beat.group(1))
    # Slow clients are cut at the door, idle ones closed.
    assert timeouts["http-request"] <= 10 and timeouts["http-keep-alive"] <= 10
    # A dead worker: every retry to another worker, at once, and it is taken out.
    assert "option redispatch 1" in config and timeouts["connect"] <= 1
    assert "on-error mark-down" in config and "observe layer4" in config
    # No request on a connection a worker closes as idle (web/server.py's IDLE_SECONDS).
    assert "option http-server-close" in config
    # Who the client is: set by the balancer.
    assert "option forwardfor" in config
    # Balanced by game (interactions), by instance (the live table's sockets), else address.
    assert "url_param(instance) if { path /api/live }" in config
    assert "req.body,regsub(^.*custom_id" in config and "if { path /interactions }" in config
    assert "balance hash var(txn.key)" in config and "hash-type consistent" in config
