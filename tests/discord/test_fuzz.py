"""Thousands of malformed interactions, and the bot answers each one plainly and changes nothing.

Discord's client only sends what the synced command list allows, but a modified client, a client
with a stale command list or a forged request can send anything the API carries: option values of
the wrong JSON type or out of bounds, missing or unknown options, commands and subcommands the bot
does not have, custom ids of buttons and menus it never made (numbers past 64 bits), move versions
the game never reached, and the same interaction delivered twice. The bot runs unmodified on the
fake Discord over a SQLite store, with a War Chest game under way; the payloads are drawn from a
seeded generator, sent in batches, and each must get an ephemeral answer (a duplicate: nothing more
than its first delivery got), with no traceback logged and the store exactly as it was.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from tests.discord.support import current_board, fake_discord, open_room, start
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.options import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from tests.fakediscord.server import FakeDiscord, InteractionTimeout

SEED = 20261202
PAYLOADS = 2400
BATCH = 24
ANSWER_LIMIT = 60.0
"""Seconds one batch may take to be answered: far beyond need, it only stops a hang."""

BUTTON, SELECT = 2, 3
BIG = 10**20  # past 64 bits
READ_ONLY = (("game status",), ("game help",), ("game log",), ("game rules",), ("hand",))
"""Commands that change nothing, delivered twice as they are."""

JUNK: list[Any] = [
    "abc",
    "",
    "5",
    "-1",
    " ",
    "é" * 3,
    "x" * 250,
    5,
    -1,
    0,
    BIG,
    -BIG,
    1.5,
    True,
    False,
    None,
    [],
    ["a"],
    {},
    {"a": 1},
]
"""JSON values of every type, some of them plausible for one option type or another."""


def fits(kind: int, value: Any) -> bool:
    """Whether ``value`` has the JSON type Discord sends for an option of type ``kind``."""
    if kind == STRING:
        return isinstance(value, str)
    if kind == INTEGER:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
    if kind == NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == BOOLEAN:
        return isinstance(value, bool)
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
        return False  # no object here is in the payload's `resolved`
    return False


def bad_values(option: dict[str, Any]) -> list[Any]:
    """Values an option of this definition can never take."""
    kind = option["type"]
    values = [v for v in JUNK if not fits(kind, v)]
    if kind == STRING:
        if option.get("choices"):
            values += ["nosuchgame", "WARCHEST"]
        if option.get("max_length") is not None:
            values.append("y" * (int(option["max_length"]) + 1))
        if option.get("min_length"):
            values.append("")
    if kind == INTEGER:
        if option.get("min_value") is not None:
            values.append(int(option["min_value"]) - 1)
        if option.get("max_value") is not None:
            values += [int(option["max_value"]) + 1, BIG]
    return values


def good_value(option: dict[str, Any], rng: random.Random) -> Any:
    """A value Discord's client could send for a plain option (no objects), or None."""
    kind = option["type"]
    if option.get("choices"):
        return rng.choice(option["choices"])["value"]
    if kind == STRING:
        return "a" * max(1, int(option.get("min_length") or 1))
    if kind == INTEGER:
        return int(option.get("min_value") or 1)
    if kind == BOOLEAN:
        return rng.random() < 0.5
    return None


@dataclass
class Leaf:
    """A command or subcommand that runs: its path from the top and its options."""

    top: dict[str, Any]
    path: tuple[dict[str, Any], ...]
    options: list[dict[str, Any]]

    def data(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        """The interaction's ``data`` with ``options`` at this leaf."""
        for level in reversed(self.path):
            options = [{"name": level["name"], "type": level["type"], "options": options}]
        return {"id": self.top["id"], "name": self.top["name"], "type": 1, "options": options}


def leaves(commands: list[dict[str, Any]]) -> list[Leaf]:
    found: list[Leaf] = []

    def walk(top: dict[str, Any], path: tuple[dict[str, Any], ...], node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            for sub in subs:
                walk(top, (*path, sub), sub)
        else:
            found.append(Leaf(top, path, list(node.get("options") or [])))

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command, (), command)
    return found


def find_leaf(all_leaves: list[Leaf], words: tuple[str, ...]) -> Leaf:
    return next(leaf for leaf in all_leaves if (leaf.top["name"], *(p["name"] for p in leaf.path)) == words)


@dataclass
class Payload:
    """One interaction to deliver: who sends it, its kind and data, and what it tests."""

    what: str
    user: FakeUser
    data: dict[str, Any]
    kind: int = 2
    components: list[dict[str, Any]] | None = None
    copies: int = 1
    on: SentMessage | None = None  # the message of a component, if not the board's post


@dataclass
class World:
    fake: FakeDiscord
    chan: FakeChannel
    users: list[FakeUser]
    board: SentMessage
    menu: SentMessage
    mover: FakeUser
    game_id: int
    version: int
    leaves: list[Leaf] = field(default_factory=list)


def option(defn: dict[str, Any], value: Any) -> dict[str, Any]:
    return {"name": defn["name"], "type": defn["type"], "value": value}


def wrong_value(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    leaf = rng.choice([leaf for leaf in world.leaves if leaf.options])
    chosen = rng.sample(leaf.options, k=rng.randint(1, min(2, len(leaf.options))))
    options = [option(defn, rng.choice(bad_values(defn))) for defn in chosen]
    for defn in leaf.options:
        if defn not in chosen and defn.get("required") and rng.random() < 0.7:
            value = good_value(defn, rng)
            if value is not None:
                options.append(option(defn, value))
    rng.shuffle(options)
    return "wrong value", leaf.data(options)


def missing_option(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    leaf = rng.choice([leaf for leaf in world.leaves if any(o.get("required") for o in leaf.options)])
    optional = [d for d in leaf.options if not d.get("required") and good_value(d, rng) is not None]
    options = [option(d, good_value(d, rng)) for d in rng.sample(optional, k=min(len(optional), 1))]
    return "missing option", leaf.data(options)


def unknown_option(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    leaf = rng.choice(world.leaves)
    name = rng.choice(["zzz", "seat", "force", "x" * 32, "page2", "joueur"])
    options = [{"name": name, "type": rng.choice([STRING, INTEGER, BOOLEAN]), "value": rng.choice(JUNK)}]
    return "unknown option", leaf.data(options)


def unknown_command(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    tops = {leaf.top["name"]: leaf.top for leaf in world.leaves}
    group = next(leaf.top for leaf in world.leaves if leaf.path)
    flat = next(leaf.top for leaf in world.leaves if not leaf.path)
    sub = {"name": rng.choice(["frobnicate", "neww", "move", "x" * 32]), "type": SUB_COMMAND, "options": []}
    forms = [
        {"id": "1", "name": rng.choice(["nosuch", "games", "jouer2", "x" * 32]), "type": 1, "options": []},
        {"id": group["id"], "name": group["name"], "type": 1, "options": [sub]},
        {"id": group["id"], "name": group["name"], "type": 1, "options": []},
        {
            "id": group["id"],
            "name": group["name"],
            "type": 1,
            "options": [{**sub, "type": SUB_COMMAND_GROUP}],
        },
        {"id": flat["id"], "name": flat["name"], "type": 1, "options": [sub]},
        {"id": rng.choice(list(tops.values()))["id"], "name": "", "type": 1, "options": []},
    ]
    return "unknown command", rng.choice(forms)


def bad_version(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    play = find_leaf(world.leaves, ("play",))
    (action,) = [d for d in play.options if d["name"] == "action"]
    digits = rng.choice(
        [
            "9" * rng.randint(19, 190),
            str(world.version + rng.randint(1, 10**6)),
            str(BIG),
            "0" * 30 + "1",
        ]
    )
    text = rng.choice(["pass", "move archer a1 a2", "x", "é"])
    value = f"v{digits}:{text}"[:200]
    return "version out of range", play.data([option(action, value)])


def forged_button(world: World, rng: random.Random) -> tuple[str, str, int]:
    """A custom id the bot never made, as a button or a menu of the board's post."""
    game = rng.choice([str(BIG), "9" * rng.randint(19, 60), "0", str(world.game_id + 10**6), "-1"])
    version = rng.choice([str(BIG), "9" * rng.randint(19, 60), str(world.version + rng.randint(1, 99))])
    action = rng.choice(
        ["hand", "moves", "join", "log", "zzz", "join:" + str(BIG), "pick", "hand:" + "9" * 30]
    )
    forms = [
        f"g:{game}:v0:{action}",
        f"g:{world.game_id}:v{version}:{action}",
        f"g:{game}:v{version}:{action}",
        f"g:{world.game_id}:v{world.version}:zzz",
        f"g:{world.game_id}:v{world.version}:hand:{BIG}",
        rng.choice(["x", "g:", "g::v:", "g:1", "🎲", "g:1:v1:" + "a" * 90, "moves"]),
    ]
    custom_id = rng.choice(forms)[:100]
    return "forged custom id", custom_id, SELECT if custom_id.endswith(":pick") else BUTTON


def component_row(custom_id: str, kind: int) -> list[dict[str, Any]]:
    if kind == SELECT:
        item: dict[str, Any] = {
            "type": SELECT,
            "custom_id": custom_id,
            "options": [{"label": "…", "value": "none"}],
            "min_values": 1,
            "max_values": 1,
        }
    else:
        item = {"type": BUTTON, "custom_id": custom_id, "label": "…", "style": 2}
    return [{"type": 1, "components": [item]}]


def forged_pick(world: World, rng: random.Random) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """The moves menu on the mover's own private message, picked with values it never offered (a
    page or group that does not exist turns to what does, privately)."""
    custom_id = f"g:{world.game_id}:v{rng.choice([world.version, world.version + 5, 0])}:pick"
    value = rng.choice(
        ["a:zzz", "a:", "p:" + "9" * 40 + ":", "p:-1:", "g:zzz", "q", "", "a:" + "9" * 95, "p:99999:move"]
    )
    data = {"custom_id": custom_id, "component_type": SELECT, "values": [value]}
    return "forged menu pick", data, component_row(custom_id, SELECT)


def autocomplete(world: World, rng: random.Random) -> tuple[str, dict[str, Any]]:
    leaf = rng.choice([leaf for leaf in world.leaves if any(o.get("autocomplete") for o in leaf.options)])
    focused = next(o for o in leaf.options if o.get("autocomplete"))
    options = [{**option(focused, rng.choice(["", "a", "v1:", "x" * 300])), "focused": True}]
    others = [o for o in leaf.options if o is not focused]
    if others:
        defn = rng.choice(others)
        options.append(option(defn, rng.choice(bad_values(defn))))
    else:
        options.append({"name": "zzz", "type": STRING, "value": "x"})
    return "autocomplete", leaf.data(options)


def generate(world: World, rng: random.Random, count: int) -> list[Payload]:
    makers: list[tuple[int, Callable[[], Payload]]] = []

    def command(make: Callable[[World, random.Random], tuple[str, dict[str, Any]]], kind: int = 2) -> Payload:
        what, data = make(world, rng)
        return Payload(what, rng.choice(world.users), data, kind=kind)

    def button() -> Payload:
        what, custom_id, kind = forged_button(world, rng)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == SELECT:
            data["values"] = ["none"]
        return Payload(what, rng.choice(world.users), data, kind=3, components=component_row(custom_id, kind))

    def pick() -> Payload:
        what, data, components = forged_pick(world, rng)
        return Payload(what, world.mover, data, kind=3, components=components, on=world.menu)

    def duplicate() -> Payload:
        if rng.random() < 0.5:
            leaf = find_leaf(world.leaves, tuple(rng.choice(READ_ONLY)[0].split()))
            payload = Payload("duplicate", rng.choice(world.users), leaf.data([]))
        else:
            payload = rng.choice([command(wrong_value), command(bad_version), button()])
            payload.what = "duplicate"
        payload.copies = rng.choice([2, 2, 3])
        return payload

    makers = [
        (30, lambda: command(wrong_value)),
        (8, lambda: command(missing_option)),
        (10, lambda: command(unknown_option)),
        (8, lambda: command(unknown_command)),
        (8, lambda: command(bad_version)),
        (14, button),
        (5, pick),
        (7, lambda: command(autocomplete, kind=4)),
        (10, duplicate),
    ]
    weights = [w for w, _ in makers]
    return [rng.choices(makers, weights)[0][1]() for _ in range(count)]


def store_rows(path: Path) -> list[str]:
    """Every row of every table of the store, as SQL."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@dataclass
class Outcome:
    sent: Counter[str] = field(default_factory=Counter)
    unanswered: list[str] = field(default_factory=list)
    public: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)


def describe(payload: Payload) -> str:
    return f"{payload.what}: {payload.data!r:.300}"


def judge(payload: Payload, result: InteractionResult | BaseException, outcome: Outcome) -> None:
    outcome.sent[payload.what] += 1
    if isinstance(result, BaseException):
        outcome.unanswered.append(f"{describe(payload)} -> {result!r:.200}")
        return
    if payload.kind == 4:
        if result.choices is None:
            outcome.unanswered.append(describe(payload))
        return
    if len([m for m in result.messages if m.kind == "response"]) > 1:
        outcome.twice.append(describe(payload))
    if payload.on is not None and (result.response_type == 7 or (result.deferred and not result.messages)):
        return  # the private menu turned to another page or group (at once, or after acknowledging)
    if payload.what != "duplicate" and not result.ephemeral:
        outcome.public.append(f"{describe(payload)} -> {result.contents!r:.200}")


async def send(world: World, payload: Payload) -> InteractionResult:
    message = (payload.on or world.board) if payload.kind == 3 else None
    return await world.fake.deliver(
        payload.user,
        world.chan,
        payload.data,
        kind=payload.kind,
        message=message,
        components=payload.components,
        copies=payload.copies,
        timeout=ANSWER_LIMIT,
    )


class Tracebacks(logging.Handler):
    """Every log record that carries a traceback (or is an error), whoever logs it."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        error = record.levelno >= logging.ERROR
        if error or record.exc_info or record.stack_info or "Traceback" in record.getMessage():
            self.records.append(record)

    def lines(self) -> list[str]:
        return [
            f"{r.name}: {r.getMessage()[:120]} ({r.exc_info[1]!r:.120})"
            if r.exc_info
            else f"{r.name}: {r.getMessage()[:160]}"
            for r in self.records
        ]


@dataclass
class Table:
    """The bot under test with a War Chest game under way, and what its log shows from now on."""

    world: World
    database: Path
    tracebacks: Tracebacks


@asynccontextmanager
async def game_under_way(tmp_path: Path) -> AsyncIterator[Table]:
    """alice (English) and bob (French) play War Chest, carol (English) looks on; the mover has
    opened their private moves menu."""
    tracebacks = Tracebacks()
    root = logging.getLogger()
    root.addHandler(tracebacks)
    try:
        async with fake_discord(tmp_path) as bot:
            bot.settings = replace(bot.settings, tick_seconds=3600.0)  # no timed work meanwhile
            room = open_room(
                bot, ("Table", "en-US"), "general", ("alice", "en-US"), ("bob", "fr"), ("carol", "en-US")
            )
            fake, chan = room.fake, room.chan
            alice, bob, carol = room.by_name["alice"], room.by_name["bob"], room.by_name["carol"]
            await bot.start()
            await fake.slash(alice, chan, "game new", game="warchest", options="seed=3")
            await fake.slash(bob, chan, "game join")
            await start(room, alice)
            record = await room.record()
            board = current_board(fake, chan)
            (mover,) = [room.users[p] for p in board.pinged_ids]
            menu = await fake.click(mover, board, f"g:{record.id}:v{record.version}:moves")
            (private,) = [m for m in menu.messages if m.components]
            users = [alice, bob, carol]
            world = World(fake, chan, users, board, private, mover, record.id, record.version)
            world.leaves = leaves(fake.global_commands)
            tracebacks.records.clear()
            yield Table(world, bot.settings.database_path, tracebacks)
    finally:
        root.removeHandler(tracebacks)


@pytest.mark.slow
async def test_malformed_interactions_are_answered_plainly_and_change_nothing(tmp_path: Path) -> None:
    async with game_under_way(tmp_path) as table:
        world = table.world
        fake, chan = world.fake, world.chan
        payloads = generate(world, random.Random(SEED), PAYLOADS)
        rows_before = store_rows(table.database)
        posts_before = len(fake.messages_in(chan))

        outcome = Outcome()
        for first in range(0, len(payloads), BATCH):
            batch = payloads[first : first + BATCH]
            results = await asyncio.gather(*(send(world, p) for p in batch), return_exceptions=True)
            for payload, result in zip(batch, results, strict=True):
                if isinstance(result, BaseException) and not isinstance(result, InteractionTimeout):
                    raise result
                judge(payload, result, outcome)

        changed = sorted(set(store_rows(table.database)) ^ set(rows_before))
        channel_posts = [
            m.content[:80]
            for m in fake.messages_in(chan)[posts_before:]
            if m.interaction_id is None and m.author.id == fake.bot_user.id
        ]
        traced = table.tracebacks.lines()
        report = (
            f"sent {sum(outcome.sent.values())} ({dict(outcome.sent)}); "
            f"tracebacks {len(traced)}: {traced[:5]}; unanswered {len(outcome.unanswered)}: "
            f"{outcome.unanswered[:5]}; public answers {len(outcome.public)}: {outcome.public[:3]}; "
            f"answered twice {len(outcome.twice)}: {outcome.twice[:3]}; "
            f"store rows changed {len(changed)}: {changed[:3]}; channel posts {channel_posts[:3]}"
        )
        print(report)
        assert sum(outcome.sent.values()) >= 2000
        assert traced == [], report
        assert outcome.unanswered == [], report
        assert outcome.public == [], report
        assert outcome.twice == [], report
        assert changed == [], report
        assert channel_posts == [], report


def command_data(world: World, words: str, **values: Any) -> dict[str, Any]:
    """``data`` for ``/words`` with ``values`` as given, whatever the options' types."""
    leaf = find_leaf(world.leaves, tuple(words.split()))
    types = {o["name"]: o["type"] for o in leaf.options}
    return leaf.data([{"name": k, "type": types.get(k, STRING), "value": v} for k, v in values.items()])


async def test_each_kind_of_odd_input_gets_its_own_plain_answer(tmp_path: Path) -> None:
    async with game_under_way(tmp_path) as table:
        world = table.world
        fake, chan = world.fake, world.chan
        alice, bob, carol = world.users
        before = store_rows(table.database)

        async def answer(user: FakeUser, data: dict[str, Any], **how: Any) -> str:
            result = await fake.deliver(user, chan, data, **how)
            assert result.ephemeral, result.contents
            return result.content

        assert await answer(carol, command_data(world, "game log", page="abc")) == (
            "The option page of /game log takes a whole number."
        )
        assert await answer(carol, command_data(world, "game log", page=10**20)) == (
            "The option page of /game log takes a whole number."
        )
        assert await answer(carol, command_data(world, "game log", page=0)) == (
            "The option page of /game log takes a whole number from 1 to 10000."
        )
        assert await answer(carol, command_data(world, "game rules", game=5)) == (
            "The option game of /game rules takes text."
        )
        assert await answer(carol, command_data(world, "game rules", game="chess")) == (
            "The option game of /game rules takes one of: warchest, batailles, cryhavoc."
        )
        assert await answer(alice, command_data(world, "game kick", player="abc")) == (
            "The option player of /game kick takes a member of this server."
        )
        assert await answer(bob, command_data(world, "play", action=5)) == (
            "L'option action de /jouer demande du texte."
        )
        assert await answer(bob, command_data(world, "play")) == "La commande /jouer demande l'option action."
        assert await answer(alice, command_data(world, "game leave", seat=1)) == (
            "The command /game leave takes no options."
        )
        unknown = await answer(alice, {**command_data(world, "game status"), "name": "chess"})
        assert unknown.startswith("I have no command /chess status;") and "/game" in unknown, unknown
        unknown = await answer(alice, {**command_data(world, "game status"), "options": []})
        assert unknown.startswith("I have no command /game;"), unknown

        ahead = await answer(world.mover, command_data(world, "play", action=f"v{'9' * 190}:pass"))
        assert ahead.startswith("That move names a position this game has not reached"), ahead

        forged = f"g:{BIG}:v0:hand"
        click = {"custom_id": forged, "component_type": BUTTON}
        shown = component_row(forged, BUTTON)
        assert await answer(alice, click, kind=3, message=world.board, components=shown) == (
            "That button no longer does anything here."
        )

        twice = await fake.deliver(carol, chan, command_data(world, "game help"), copies=3)
        once = await fake.deliver(carol, chan, command_data(world, "game help"))
        assert [m.content for m in twice.messages] == [m.content for m in once.messages]
        assert fake.rejections == []  # no second answer was even tried

        assert table.tracebacks.lines() == []
        assert store_rows(table.database) == before
