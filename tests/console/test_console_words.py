"""A French console lists a player's legal moves in French: ``alice: /jouer`` alone shows each move as the
player types it (``déployer soldat e1``), never the English action text, and each text shown reads back
as a legal action; one of them, typed as shown, is played."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
import i18n
from console.app import Console
from engine.rng import Rng
from table.core.text import lexicon
from table.play.commands import Commands
from tests.discord.support import stand_in_commands

MOVES = 12
"""Random moves between listings: enough to leave War Chest's first turn, Cry Havoc's set-up and
Batailles' deployment."""
ENGLISH = re.compile(
    r"(?<![\w-])(?:deploy|bolster|move|control|attack|tactic|recruit|pass|pick|skip|go|discard|draw"
    r"|play|build|construct|activate|pay|keep|end|done|capture|kill|ransom|retreat|fold"
    r"|face|reroll|coordinate|morale|hold|lose|ready|dismiss|retrain|profile)(?![\w-])",
    re.I,
)
"""The English verbs of the games' action texts, as words; none is a French word."""
LISTING = re.compile(r"\[privé, pour (\w+)\]\n[^\n]*:\n(?:[^ \n][^\n]*\n)?((?:  .*\n?)+)")
"""A private list of moves: its heading, the note of a grouped list, then a row per move or group."""


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "console.sqlite3") as cmds:
        yield cmds


async def listing(console: Console, out: io.StringIO, user: str, typed: str = "") -> list[str]:
    """The texts of the moves (or groups of moves, ending with "…") ``/jouer`` lists to ``user``: alone, or
    after ``typed``, in the order shown."""
    out.truncate(0)
    out.seek(0)
    assert await console.run_line(f"{user}: /jouer {typed}".strip())
    found = LISTING.search(out.getvalue())
    assert found and found[1] == user, out.getvalue()
    return [row.strip().split("  —  ")[0] for row in found[2].splitlines()]


@pytest.mark.parametrize("name", ["warchest", "cryhavoc", "batailles"])
async def test_a_french_player_reads_their_legal_moves_in_french(
    commands: Commands, tmp_path: Path, name: str
) -> None:
    out = io.StringIO()
    console = Console(commands, out, tmp_path / "out", "fr")
    await commands.new(console.ctx("alice"), name, players=2)
    await commands.join(console.ctx("bob"))
    await commands.start(console.ctx("alice"))
    game = engine.get_game(name)
    pick = Rng(5)
    for _ in range(3):
        table = await commands.tables.latest(console.ctx("alice").channel_id)
        assert table is not None and table.state is not None
        who = table.to_act()[0]
        legal = game.legal_actions(table.state, who)
        texts = await listing(console, out, who)
        moves = [t for t in texts if not t.endswith(" …")]
        read = [game.parse_action(table.state, who, text, lexicon(game)) for text in moves]
        assert all(a in legal for a in read), "each text shown reads back as the move it stands for"
        if moves == texts:  # not grouped (more than 25, or too long a message, are)
            assert read == legal, "every move, in order"
        else:
            assert i18n.t("svc.list.grouped", "fr", count=len(legal)) in out.getvalue(), "said, and how many"
        assert not [t for t in texts if ENGLISH.search(t)], texts
        assert texts != [str(a) for a in legal[: len(texts)]], "French words, not the log's"
        verb = texts[-1].split()[0]  # a French verb typed finds its moves in Discord's autocomplete too
        found = await commands.autocomplete(console.ctx(who), verb, in_words=True)
        assert found and all(verb in value for _, value in found), (verb, found)
        for _ in range(MOVES):
            table = await commands.tables.latest(console.ctx("alice").channel_id)
            assert table is not None
            who = table.to_act()[0]
            chosen = ""
            while not chosen or chosen.endswith(" …"):  # a group lists its moves, down to one
                shown = await listing(console, out, who, chosen)
                chosen = shown[pick.below(len(shown))]
            out.truncate(0)
            out.seek(0)
            assert await console.run_line(f"{who}: /jouer {chosen}")
            done = i18n.t("svc.played", "fr", events="").strip()
            assert out.getvalue().startswith(f"[privé, pour {who}]\n{done}"), out.getvalue()
