# The bot as a container: `docker build -t tabletop-bot .` then
# `docker run -e DISCORD_TOKEN=... -v tabletop-data:/data tabletop-bot`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3

WORKDIR /app
COPY pyproject.toml tools/deps.py ./tools/
RUN cd tools && python deps.py > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY bot.py ./
COPY engine ./engine
COPY render ./render
COPY db ./db
COPY table ./table
COPY cogs ./cogs
COPY console ./console
COPY i18n ./i18n
COPY docs ./docs

RUN useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot:bot /data
USER bot
VOLUME ["/data"]

# The token comes from the environment (DISCORD_TOKEN); without it the bot runs its console.
CMD ["python", "bot.py"]
