"""Nim as a fourth game: the rules of ``tests.table.nim``, its drawing (``render``), its words
(``catalog/<lang>.json``), and ``ENTRY``, its registration. Nothing of the product names it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import i18n
from engine import registry

ENTRY = registry.Entry(name="nim", engine="tests.table.nim", render="tests.games.nim.render")
"""Nim's parts: its rules and its drawing; no computer player, no rulebook, one rating pool."""

CATALOG = Path(__file__).resolve().parent / "catalog"


def texts(lang: str) -> dict[str, Any]:
    """Nim's catalog entries in ``lang``, as a language's catalog file writes them."""
    loaded: dict[str, Any] = json.loads((CATALOG / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


@contextmanager
def nim_registered() -> Iterator[registry.Entry]:
    """Nim registered, and its words in the catalog, for the duration of a ``with`` block."""
    with pytest.MonkeyPatch.context() as patch, registry.registered(ENTRY) as entry:
        for lang in ("en", "fr"):
            for key, value in texts(lang).items():
                patch.setitem(i18n.catalog(lang), key, value)
        yield entry
