"""The console writes each image's alt text beside it (``0003-board.txt`` next to ``0003-board.png``)
and prints it after the image's path (again when a board is updated in place), in the console's
language; a hand's only to its owner.

The opening of each title's scripted example is piped into ``python bot.py``, in English and in
French, followed by a hand, the board with its details and the replay.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from tests.console._support import ROOT, commands_of, run_clean

EXAMPLES = {
    "warchest": "warchest-console.txt",
    "batailles": "batailles-console.txt",
    "cryhavoc": "cryhavoc-console.txt",
}
OPENING = 12
"""Lines of each example played: the game's creation, the start and a few moves."""
WORDS = {
    "en": ("alt text: ", ("Last action: ", "No action yet"), "Dernière action"),
    "fr": ("texte alternatif : ", ("Dernière action : ", "Aucune action pour l'instant"), "Last action"),
}
"""Per language: how the console introduces alt text, how a board's tells the last action, and a
word of the other language that never shows."""


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", list(EXAMPLES))
def test_each_image_has_its_alt_text_beside_it_and_printed(tmp_path: Path, game: str, locale: str) -> None:
    lines = commands_of((ROOT / "docs" / "examples" / EXAMPLES[game]).read_text(encoding="utf-8"))
    script = [*lines[:OPENING], "alice: /hand", "bob: /game board details:true", "bob: /game replay"]
    run = run_clean(tmp_path, "\n".join(script) + "\n", locale)
    intro, last, other = WORDS[locale]
    written = sorted(p for p in (tmp_path / "images").iterdir() if p.suffix in (".png", ".gif"))
    assert {p.stem.split("-", 1)[1] for p in written} >= {"board", "details", "replay"}
    for image in written:
        alt = image.with_suffix(".txt").read_text(encoding="utf-8").strip()
        assert alt and len(alt) <= 1024 and other not in alt, f"{image.name}: {alt}"
        if image.stem.endswith(("board", "replay")):
            assert any(mark in alt for mark in last), f"{image.name}: {alt}"
        printed = re.findall(re.escape(str(image)) + r"\)?\n" + re.escape(intro) + r"(.*)\n", run.out)
        assert printed and printed[-1] == alt, f"{image.name} is not followed by its latest alt text"
    hands = [p for p in written if p.stem.endswith("hand")]
    # every game hides something at this point: hands and bags, or a Batailles deployment under way
    assert hands, "a hand image for games with hidden information"
    for hand in hands:
        block = run.out[: run.out.index(str(hand))].rsplit("\n> ", 1)[1]
        owner = block.split(":", 1)[0]
        private = i18n.t("console.private", locale, user=owner)
        assert block.startswith(f"{owner}: /hand") and private in block, block
