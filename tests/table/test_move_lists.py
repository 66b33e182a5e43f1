"""Lists of legal moves longer than a message or Discord's 25 choices: grouped by first words with a
count, each group listing its own moves, so that every move is reachable from ``/play`` alone; a list
that leaves moves out says so, and how to reach them; a move begun is answered with its moves."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.errors import BadInput
from launch import DISCORD_LIMITS
from table.core.text import lexicon
from table.play.commands import Commands, Ctx
from tests.discord.support import stand_in_commands

ROW = re.compile(r"^  (.+?)  —  (.+)$", re.MULTILINE)
BIG_ARMY = 30
"""Troops a side: their deployment groups alone are more than 25."""


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "lists.sqlite3") as cmds:
        yield cmds


def ctx(user: str, locale: str = "en") -> Ctx:
    return Ctx("chan", user, user.capitalize(), locale, locale)


async def opened(commands: Commands, game: str, options: str = "") -> None:
    await commands.new(ctx("alice"), game, 2, options)
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))


async def legal(commands: Commands, user: str) -> set[str]:
    table = await commands.tables.latest("chan")
    assert table is not None
    return {str(a) for a in table.game.legal_actions(table.state, user)}


async def listed(commands: Commands, user: str, typed: str = "", locale: str = "en") -> tuple[str, list[str]]:
    """The reply ``/play`` gives ``typed`` (alone: ``legal_moves``), and the texts of its rows."""
    (post,) = await (
        commands.play(ctx(user, locale), typed) if typed else commands.legal_moves(ctx(user, locale))
    )
    assert post.ephemeral and len(post.text) <= DISCORD_LIMITS.text
    return post.text, [said for said, _label in ROW.findall(post.text)]


async def reached(commands: Commands, user: str, locale: str = "en") -> set[str]:
    """Every move found by following ``/play``'s list, group after group, read back as action texts."""
    table = await commands.tables.latest("chan")
    assert table is not None
    found: set[str] = set()
    waiting = [""]
    while waiting:
        text, rows = await listed(commands, user, waiting.pop(), locale)
        assert rows, text
        for row in rows:
            if row.endswith(" …"):
                waiting.append(row)
            else:
                found.add(str(table.game.parse_action(table.state, user, row, lexicon(table.game))))
    return found


async def test_every_deployment_is_reached_from_play_alone(commands: Commands) -> None:
    """640 deployments (10 troops, 16 zones, 4 facings): ``/play`` lists one group per troop with its
    count, a group its zones, a zone its facings; following them reaches every move, once."""
    await opened(commands, "batailles")
    text, rows = await listed(commands, "alice")
    assert "640 moves, grouped by first words" in text
    assert "  deploy inf1 …  —  Deploy inf1 in … (64 moves)" in text
    assert len(rows) == 10 and "not listed" not in text
    assert await reached(commands, "alice") == await legal(commands, "alice")


async def test_french_groups_are_in_french_and_reach_every_move(commands: Commands) -> None:
    await opened(commands, "batailles")
    text, rows = await listed(commands, "bob", locale="fr")
    assert "640 coups, regroupés par premiers mots" in text and rows[0] == "déployer inf1 …"
    assert await reached(commands, "bob", "fr") == await legal(commands, "bob")


async def test_the_royal_coin_s_moves_are_listed_among_many(commands: Commands) -> None:
    """More than 25 War Chest moves are grouped by verb, so none is left out (the Royal Coin's
    initiative, recruit and pass among them)."""
    await opened(commands, "warchest", "seed=5")
    table = await commands.tables.latest("chan")
    assert table is not None
    user = table.to_act()[0]
    moves = await legal(commands, user)
    text, _rows = await listed(commands, user)
    if len(moves) > DISCORD_LIMITS.choices:
        assert "grouped by first words" in text
    assert await reached(commands, user) == moves


async def army(commands: Commands, user: str) -> None:
    for n in range(1, BIG_ARMY + 1):
        await commands.play(ctx(user), f"recruit t{n} 1 1 1 1 1 0")
    await commands.play(ctx(user), "ready")


async def test_a_list_that_leaves_moves_out_says_so_and_typing_reaches_them(commands: Commands) -> None:
    """30 troops make 30 groups of deployments: the list shows 24 and says how many moves it leaves out
    and to type more; typing a troop left out lists its moves. Autocomplete does the same within 25."""
    await opened(commands, "batailles", "armies=build")
    await army(commands, "alice")
    await army(commands, "bob")
    text, rows = await listed(commands, "alice")
    assert len(rows) < BIG_ARMY and "deploy t30 …" not in rows
    left = BIG_ARMY - len(rows)
    assert f"… and {left * 64} more moves, not listed: type more words to narrow the list." in text
    _text, t30 = await listed(commands, "alice", "deploy t30")
    assert len(t30) == 16 and all(row.startswith("deploy t30 ") for row in t30)

    choices = await commands.autocomplete(ctx("alice"), "")
    assert len(choices) == DISCORD_LIMITS.choices
    label, value = choices[-1]
    assert re.fullmatch(r"\d+ more moves: type more words to narrow", label), label
    assert value == "…"
    typed = await commands.autocomplete(ctx("alice"), "deploy t30")
    assert [v for _l, v in typed][:2] == ["deploy t30 a1 …", "deploy t30 b1 …"]
    narrowed = await commands.autocomplete(ctx("alice"), "deploy t30 c2 …")
    assert [v.split(":", 1)[1] for _l, v in narrowed] == [f"deploy t30 c2 {f}" for f in "nesw"]


async def test_autocomplete_groups_reach_every_move(commands: Commands) -> None:
    """On Discord: a group's value, typed or chosen, narrows the choices to its moves."""
    await opened(commands, "batailles")
    found: set[str] = set()
    waiting = [""]
    while waiting:
        choices = await commands.autocomplete(ctx("alice"), waiting.pop())
        assert 0 < len(choices) <= DISCORD_LIMITS.choices
        for _label, value in choices:
            (waiting.append(value) if value.endswith(" …") else found.add(value.split(":", 1)[1]))
    assert found == await legal(commands, "alice")


async def test_a_move_begun_answers_its_moves_and_no_refusal(commands: Commands) -> None:
    """War Chest's ``pass`` names no coin: ``/play`` lists the passes, it does not refuse. A text that
    begins no move is still refused, naming what is legal."""
    await opened(commands, "warchest", "seed=5")
    table = await commands.tables.latest("chan")
    assert table is not None
    user = table.to_act()[0]
    text, rows = await listed(commands, user, "pass")
    assert text.startswith("Legal moves matching “pass”:\n") and "not legal" not in text
    read = {str(table.game.parse_action(table.state, user, row, lexicon(table.game))) for row in rows}
    assert read == {m for m in await legal(commands, user) if m.startswith("pass ")}
    after = await commands.tables.latest("chan")
    assert after is not None and after.record.version == table.record.version, "nothing was played"
    with pytest.raises(BadInput):
        await commands.play(ctx(user), "zzz")
