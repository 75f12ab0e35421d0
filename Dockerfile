# The bot in a slim image; the SQLite database lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.db

WORKDIR /app
COPY pyproject.toml requirements.lock ./
RUN pip install --no-cache-dir -c requirements.lock "discord.py>=2.7.1,<3" "aiosqlite>=0.22,<0.23" "python-dotenv>=1.2,<2"

COPY bot.py settings.py ./
COPY engine ./engine
COPY db ./db
COPY service ./service
COPY cogs ./cogs

RUN useradd --create-home --uid 10001 bot && mkdir -p /data && chown bot:bot /data
USER bot
VOLUME ["/data"]

CMD ["python", "bot.py"]
