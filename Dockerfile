# The bot in a slim image. Settings come from the environment (docker run --env-file .env);
# the database lives on the /data volume. See "Docker" in README.md.
#
# The base image is pinned to a Python patch release. A tag can still be pushed again (Debian
# security updates); to build on exactly the same bytes every time, add the digest of the
# multi-platform index, the "Digest:" that `docker buildx imagetools inspect
# python:3.12.8-slim-bookworm` prints, after the tag:
#   ARG PYTHON_IMAGE=python:3.12.8-slim-bookworm@sha256:<64 hex digits>
# or once: docker build --build-arg PYTHON_IMAGE=python:3.12.8-slim-bookworm@sha256:<...> .
ARG PYTHON_IMAGE=python:3.12.8-slim-bookworm
FROM ${PYTHON_IMAGE}

# ON_CANNOT_START=wait: a bot that cannot start for a reason a restart does not fix (a refused
# token, a bad setting) logs why and waits for `docker stop` instead of exiting, so that
# `--restart unless-stopped` does not restart it forever; its health check says why. Discord
# unreachable is tried again inside the bot, which never exits for it (runtime/lifecycle.py).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore \
    CARDTABLE_ENV_FILE= \
    DATABASE_PATH=/data/bot.db \
    WEB_HOST=0.0.0.0 \
    ON_CANNOT_START=wait

# The bot's own user and group, both with a fixed id (10001): files it writes on a volume or
# a bind mount belong to the same ids whichever image built them.
RUN groupadd --system --gid 10001 bot \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin bot

WORKDIR /app

# The project's runtime dependencies, the list in pyproject.toml's [project] dependencies,
# at the versions in the lock. Only those two files are copied first, so this layer is built
# again when one of them changes, not for an edit of the code or the README. The project is
# not built or installed itself (it runs from /app: bot.py beside its packages), so there is
# no build/ or *.egg-info in the image.
COPY pyproject.toml requirements.lock ./
RUN python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))' > /tmp/requirements.txt \
    && pip install --constraint requirements.lock --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The code (.dockerignore keeps out tests, .venv, .env, data, build output and caches),
# compiled once.
COPY . .
RUN python -m compileall -q /app \
    && mkdir -p /data \
    && chown 10001:10001 /data

# The bot runs unprivileged (bot, 10001:10001) in /data: a relative DATABASE_PATH (data/bot.db from an old .env)
# still lands on the volume, and the bot can write there.
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]

# SIGTERM (docker stop) finishes the moves in progress, closes the database, exits 0.
STOPSIGNAL SIGTERM
# Healthy: connected to Discord and the database writable, per the heartbeat the bot writes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "/app/bot.py", "health"]

CMD ["python", "/app/bot.py"]
