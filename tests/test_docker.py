"""The Docker image: what goes into it, how it is built, and (where Docker runs) that it works.

The first tests read the Dockerfile and .dockerignore and need no Docker. The last one builds
the image and runs it against the fake Discord; it is skipped, saying why, when ``docker
info`` fails (no Docker engine on the machine).
"""

from __future__ import annotations

import asyncio
import fnmatch
import re
import shutil
import subprocess
import sys
import time
import tomllib
import uuid
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
IMAGE_DATABASE = "/data/bot.db"


def ignore_patterns() -> list[tuple[str, bool]]:
    """(pattern, is_exception) from .dockerignore, in order."""
    patterns = []
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            patterns.append((line.removeprefix("!"), line.startswith("!")))
    return patterns


def excluded(path: str, patterns: list[tuple[str, bool]]) -> bool:
    """Docker's rule, enough for our patterns: the last matching pattern wins; a pattern
    matches the path or any folder above it; ``**/`` matches at any depth."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for pattern, exception in patterns:
        deep = pattern.removeprefix("**/")
        for prefix in prefixes:
            name = prefix.rsplit("/", 1)[-1]
            if fnmatch.fnmatchcase(prefix, pattern) or (
                pattern.startswith("**/") and fnmatch.fnmatchcase(name, deep)
            ):
                result = not exception
                break
    return result


def context_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [path for path in listed if (ROOT / path).is_file()]


def test_the_build_context_has_the_code_and_nothing_private() -> None:
    patterns = ignore_patterns()
    for secret in (".env", ".venv/bin/python", ".venv-newest/x", "data/bot.db", ".git/HEAD"):
        assert excluded(secret, patterns), secret
    assert excluded("engine/__pycache__/x.pyc", patterns)
    for built in ("build/lib/bot.py", "cardtable.egg-info/PKG-INFO", "dist/x.whl"):
        assert excluded(built, patterns), built  # a local `pip install .` stays out
    assert not excluded(".env.example", patterns)
    sent = [p for p in context_files() if not excluded(p, patterns)]
    assert not [p for p in sent if p.startswith(("tests/", "bench/", ".ci/"))]
    needed_files = (
        "bot.py",
        "settings.py",
        "runtime/launcher.py",
        "runtime/lifecycle.py",
        "runtime/heartbeat.py",
    )
    for needed in (*needed_files, "pyproject.toml"):
        assert needed in sent
    for package in ("engine", "cogs", "service", "db"):
        assert any(p.startswith(f"{package}/") and p.endswith(".py") for p in sent), package
    assert any(p.startswith("db/migrations/") and p.endswith(".sql") for p in sent)


def instructions() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.strip() for line in joined.splitlines() if line.strip()[:1] not in ("", "#")]


def test_the_image_installs_pyprojects_dependencies_not_a_retyped_list() -> None:
    steps = instructions()
    install = next(i for i, step in enumerate(steps) if "pip install" in step)
    assert "pip install --constraint requirements.lock --requirement" in steps[install]
    assert "tomllib" in steps[install] and '["project"]["dependencies"]' in steps[install]
    for dependency in ("discord.py", "aiosqlite", "python-dotenv"):
        assert dependency not in DOCKERFILE


def test_the_dependency_layer_has_only_pyproject_and_the_lock() -> None:
    """A README or code edit does not install every package again; the project itself is not
    built (no build/ or *.egg-info in the image)."""
    steps = instructions()
    install = next(i for i, step in enumerate(steps) if "pip install" in step)
    copies = [step for step in steps[:install] if step.startswith(("COPY", "ADD"))]
    assert copies == ["COPY pyproject.toml requirements.lock ./"]
    assert "README" not in " ".join(steps[: install + 1])
    assert not re.search(r"pip install[^&]* \.(\s|$)", DOCKERFILE)  # no `pip install .`
    assert not any("setup.py" in step or " -e " in step for step in steps)


def test_the_dependency_list_the_image_reads_is_pyprojects(tmp_path: Path) -> None:
    """The image's own snippet, run here on pyproject.toml."""
    snippet = re.search(r"python -c '([^']+)' > /tmp/requirements\.txt", DOCKERFILE)
    assert snippet is not None
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    listed = subprocess.run(
        [sys.executable, "-c", snippet.group(1)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    with (ROOT / "pyproject.toml").open("rb") as file:
        assert listed == tomllib.load(file)["project"]["dependencies"]
    assert any(line.startswith("discord.py") for line in listed)


def test_the_base_image_is_a_patch_release_and_says_where_its_digest_goes() -> None:
    base = re.search(r"^ARG PYTHON_IMAGE=(\S+)$", DOCKERFILE, re.M)
    assert base is not None
    assert re.fullmatch(r"python:3\.\d+\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?", base.group(1))
    tag = base.group(1).split("@")[0]
    assert f"#   ARG PYTHON_IMAGE={tag}@sha256:" in DOCKERFILE


def test_the_user_and_group_ids_are_fixed() -> None:
    steps = instructions()
    assert any(re.search(r"\bgroupadd\b.*--gid 10001 bot\b", step) for step in steps)
    assert any(re.search(r"\buseradd\b.*--uid 10001 --gid 10001\b.* bot$", step) for step in steps)
    assert re.search(r"^USER 10001:10001$", DOCKERFILE, re.M)


def test_the_image_runs_unprivileged_with_the_database_on_the_volume() -> None:
    assert f"DATABASE_PATH={IMAGE_DATABASE}" in DOCKERFILE
    assert re.search(r"^WORKDIR /data$", DOCKERFILE, re.M)  # relative paths land on it
    assert 'VOLUME ["/data"]' in DOCKERFILE
    assert "chown 10001:10001 /data" in DOCKERFILE
    assert re.search(r'CMD \["python", "/app/bot.py", "health"\]', DOCKERFILE)
    assert "CARDTABLE_ENV_FILE= " in DOCKERFILE  # the image reads no .env of its own
    example = (ROOT / ".env.example").read_text()
    assert not re.search(r"^DATABASE_PATH=", example, re.M)


def test_a_bot_that_cannot_start_waits_instead_of_being_restarted_forever() -> None:
    """``--restart unless-stopped`` restarts whatever exits; ON_CANNOT_START=wait keeps a bot
    with a refused token (exit code 2 when stopped) from exiting (runtime/lifecycle.py)."""
    assert re.search(r"^\s+ON_CANNOT_START=wait$", DOCKERFILE, re.M)


def docker_unavailable() -> str | None:
    docker = shutil.which("docker")
    if docker is None:
        return "docker is not installed"
    info = subprocess.run([docker, "info"], capture_output=True, text=True, check=False)
    if info.returncode != 0:
        last = (info.stderr.strip().splitlines() or ["no output"])[-1]
        return f"`docker info` failed, no Docker engine here: {last}"
    return None


def docker(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.process
async def test_the_image_runs_against_the_fake_discord_and_stops_cleanly(tmp_path: Path) -> None:
    reason = docker_unavailable()
    if reason is not None:
        pytest.skip(reason)
    tag = f"cardtable-test:{uuid.uuid4().hex[:12]}"
    name = f"cardtable-test-{uuid.uuid4().hex[:12]}"
    volume = f"cardtable-test-{uuid.uuid4().hex[:12]}"
    built = await asyncio.to_thread(docker, "build", "-t", tag, str(ROOT))
    assert built.returncode == 0, built.stderr[-4000:]
    inside = docker("run", "--rm", tag, "sh", "-c", "id -u; id -g; ls -a /app")
    assert inside.returncode == 0, inside.stderr
    uid, gid, *app = inside.stdout.split()
    assert (uid, gid) == ("10001", "10001")
    assert "bot.py" in app and "build" not in app
    assert not [name for name in app if name.endswith(".egg-info")]
    fake = FakeDiscord()
    await fake.start()
    env_file = tmp_path / "env"  # what an old .env says: a relative path, and its own token
    env_file.write_text(f"DISCORD_TOKEN={fake.token}\nDATABASE_PATH=data/bot.db\n")
    try:
        run = docker(
            "run", "-d", "--name", name, "--network", "host",
            "--env-file", str(env_file),
            "-e", f"FAKE_DISCORD_URL={fake.url}", "-e", "PYTHONPATH=/site",
            "-v", f"{ROOT / 'tests' / 'fakediscord' / 'site'}:/site:ro",
            "-v", f"{volume}:/data", tag,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        await fake.wait_ready(timeout=60)
        deadline = time.monotonic() + 30
        while (health := docker("exec", name, "python", "/app/bot.py", "health")).returncode:
            assert time.monotonic() < deadline, health.stderr
            await asyncio.sleep(1)
        listing = docker("exec", name, "ls", "/data/data")
        assert "bot.db" in listing.stdout  # on the volume although .env said data/bot.db
        started = time.monotonic()
        stopped = await asyncio.to_thread(docker, "stop", "--time", "10", name)
        assert stopped.returncode == 0, stopped.stderr
        assert time.monotonic() - started < 9  # not killed after the 10 s grace
        code = docker("inspect", "--format", "{{.State.ExitCode}}", name)
        assert code.stdout.strip() == "0", docker("logs", name).stderr
    finally:
        docker("rm", "-f", name)
        docker("volume", "rm", "-f", volume)
        docker("rmi", "-f", tag)
        await fake.stop()
