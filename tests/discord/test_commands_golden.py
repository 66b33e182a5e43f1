"""The command tree Discord receives, byte for byte as it was last reviewed.

``tests/golden/commands-payload.json`` holds the payloads ``tree.sync()`` sends (names, descriptions,
options, choices, permissions and every localisation, in the order discord.py writes them). Anything
that changes what a server's members see in their command list, deliberately or not (a renamed
option, a lost French name, options in another order), shows up as a diff of that file. After an
intended change, write it again with ``REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.help_lines import registered_payloads

GOLDEN = Path(__file__).parent.parent / "golden" / "commands-payload.json"


async def test_the_synced_commands_are_the_reviewed_ones(tmp_path: Path) -> None:
    payloads = await registered_payloads(tmp_path)
    written = json.dumps(payloads, indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("REGEN_GOLDEN"):
        GOLDEN.write_text(written, encoding="utf-8")
    assert written == GOLDEN.read_text(encoding="utf-8")
