# The bot as a container: `docker build -t tabletop-bot .` then
# `docker run -e DISCORD_TOKEN=... -v tabletop-data:/data tabletop-bot`, or with PostgreSQL beside it
# `docker compose up -d` (compose.yaml; see the README's hosting section).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/bot.sqlite3

WORKDIR /app
# Every dependency at the version and hash the lock file names, so each build installs the same
# files; the lock is mounted for this step only (BuildKit) and never lands in the image.
RUN --mount=type=bind,source=requirements.lock,target=/tmp/requirements.lock \
    pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock

# Only what the running bot reads: its code, and the catalog, fonts and game data inside its packages.
COPY bot.py launch.py ./
COPY engine ./engine
COPY render ./render
COPY ai ./ai
COPY db ./db
COPY table ./table
COPY cogs ./cogs
COPY console ./console
COPY i18n ./i18n
# Compiled once here: the bot's user cannot write beside the code (and PYTHONDONTWRITEBYTECODE says not
# to), so without this every start would compile every module again: a third of its imports' CPU time.
RUN python -m compileall -q .

RUN useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot:bot /data
USER bot
VOLUME ["/data"]

# `docker stop` sends SIGTERM: the bot closes the gateway, lets the commands and posts under way
# finish (SHUTDOWN_GRACE, 8 s by default, inside Docker's 10 s), closes the store and exits 0.
STOPSIGNAL SIGTERM
# Healthy while the bot's timed loop keeps writing its heartbeat (/data/heartbeat, every tick).
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "bot.py", "--health"]

# The token comes from the environment (DISCORD_TOKEN); without it, and without input to read, the
# bot exits with a message saying so.
CMD ["python", "bot.py"]
