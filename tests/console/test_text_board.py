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


@pytest.mark.parametrize(("locale", "setting"), [("en", "/notify text:true"), ("fr", "/notifier texte:oui")])
def test_a_player_who_asked_gets_the_text_board_after_each_move(
    tmp_path: Path, locale: str, setting: str
) -> None:
    """``/notify text:`` in the console: Alice's every move is followed, privately, by the position as
    text with her own coins; Bob, who did not ask, gets his confirmations only."""
    lines = commands_of((ROOT / "docs" / "examples" / EXAMPLES["warchest"]).read_text(encoding="utf-8"))
    started = next(i for i, line in enumerate(lines) if "/game start" in line) + 1
    script = [*lines[:started], f"alice: {setting}", *lines[started:OPENING]]
    run = run_clean(tmp_path, "\n".join(script) + "\n", locale)
    walk = i18n.t(WALK["warchest"], locale)
    moves = [b for b in blocks(run.out) if "/play " in b.splitlines()[0]]
    assert {b.split(":", 1)[0] for b in moves} == {"> alice", "> bob"}
    for block in moves:
        asked = block.startswith("> alice")
        assert (walk in block.splitlines()) == asked, block
        if asked:
            own = i18n.t(HIDDEN["warchest"], locale, name="alice", count=0).split(":")[0].strip()
            assert own in block, block
