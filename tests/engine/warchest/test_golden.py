"""A seeded random game written out as action texts and English events, compared on every run.

Any change of rules, random draws, action texts or English wording shows up as a diff of
golden/transcript.txt. After an intended change, regenerate it with REGEN_GOLDEN=1 and review it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from engine.warchest import GAME
from i18n import t
from tests.engine.warchest.helpers import PLAYERS, acting

GOLDEN = Path(__file__).parent / "golden" / "transcript.txt"
SEED = 20260
NAMES = {"alice": "Alice", "bob": "Bob"}


def transcript() -> str:
    st = GAME.new_game(PLAYERS, SEED, {"armies": "draft"})
    rnd = random.Random(SEED)
    lines = [f"seed {SEED}, armies draft"]
    while not GAME.is_over(st):
        who = acting(st)
        action = rnd.choice(GAME.legal_actions(st, who))
        st, events = GAME.apply(st, who, action)
        lines.append(f"{who}: {action}")
        lines.extend("    " + t(e, "en", names=NAMES) for e in events)
    result = GAME.result(st)
    assert result is not None
    lines.append(
        f"result: winners={list(result.winners)} draw={result.draw} {t(result.reason, 'en', names=NAMES)}"
    )
    return "\n".join(lines) + "\n"


def test_golden_transcript() -> None:
    text = transcript()
    if os.environ.get("REGEN_GOLDEN") == "1" or not GOLDEN.exists():
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
