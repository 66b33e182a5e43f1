"""``/game board text:true``: the whole position as text, for a screen reader, in the reader's
language, privately; a player's own hidden coins or cards come with it, never another player's.

The opening of each title's scripted example is piped into ``python bot.py``, in English and in
French, then both players ask for the text board.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import i18n
from tests.console._support import ROOT, blocks, commands_of, run_clean
from tests.console.test_alt_text import EXAMPLES, OPENING

WALK = {"warchest": "render.tb.units", "batailles": "render.tb.troops", "cryhavoc": "render.tb.regions"}
"""The heading each game's walk through the position starts with."""
HIDDEN = {"warchest": "render.wc.private.title", "cryhavoc": "render.ch.private.hand"}
"""How the asker's own hidden part begins (Batailles hides nothing)."""


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", list(EXAMPLES))
def test_the_text_board_walks_the_position_and_tells_only_ones_own_hand(
    tmp_path: Path, game: str, locale: str
) -> None:
    lines = commands_of((ROOT / "docs" / "examples" / EXAMPLES[game]).read_text(encoding="utf-8"))
    script = [*lines[:OPENING], "alice: /game board text:true", "bob: /game board text:true"]
    run = run_clean(tmp_path, "\n".join(script) + "\n", locale)
    alice, bob = blocks(run.out)[-2:]
    for owner, block in (("alice", alice), ("bob", bob)):
        assert i18n.t("console.private", locale, user=owner) in block, block
        assert i18n.t(WALK[game], locale) in block.splitlines(), block
        assert i18n.t("render.tb.none", locale) not in block.splitlines()
        assert "image" not in block.lower().split(":")[0]
    other = "Last action" if locale == "fr" else "Dernière action"
    assert other not in alice + bob
    if game in HIDDEN:
        own = alice.splitlines()[-1]
        assert own.startswith(i18n.t(HIDDEN[game], locale, name="alice", count=0).split(":")[0].strip())
        assert own not in bob and bob.splitlines()[-1].startswith("bob")
