# The bot in a slim image. Settings come from the environment (docker run --env-file .env);
# the database lives on the /data volume. See "Docker" in README.md.
#
# The base image is pinned to an exact Python release; pin its digest too
# (python:3.12.8-slim-bookworm@sha256:...) where your registry mirror allows it.
ARG PYTHON_IMAGE=python:3.12.8-slim-bookworm
FROM ${PYTHON_IMAGE}

# ON_CANNOT_START=wait: a bot that cannot start for a reason a restart does not fix (a refused
# token, a bad setting) logs why and waits for `docker stop` instead of exiting, so that
# `--restart unless-stopped` does not restart it forever; its health check says why. Discord
# unreachable is tried again inside the bot, which never exits for it (lifecycle.py).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore \
    CARDTABLE_ENV_FILE= \
    DATABASE_PATH=/data/bot.db \
    ON_CANNOT_START=wait

WORKDIR /app

# The project's runtime dependencies as pyproject.toml declares them, at the versions in the
# lock. This layer is rebuilt only when one of these three files changes.
COPY pyproject.toml requirements.lock README.md ./
RUN pip install --constraint requirements.lock .

# The code (.dockerignore keeps out tests, .venv, .env, data and caches), compiled once.
COPY . .
RUN python -m compileall -q /app \
    && useradd --system --uid 10001 --no-create-home --home-dir /nonexistent bot \
    && mkdir -p /data \
    && chown bot:bot /data

# The bot runs unprivileged in /data: a relative DATABASE_PATH (data/bot.db from an old .env)
# still lands on the volume, and the bot can write there.
USER bot
WORKDIR /data
VOLUME ["/data"]

# SIGTERM (docker stop) finishes the moves in progress, closes the database, exits 0.
STOPSIGNAL SIGTERM
# Healthy: connected to Discord and the database writable, per the heartbeat the bot writes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "/app/bot.py", "health"]

CMD ["python", "/app/bot.py"]
