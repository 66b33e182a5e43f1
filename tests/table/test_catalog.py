"""The table layer's messages exist in both languages with the same placeholders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import i18n

ROOT = Path(i18n.__file__).parent / "locales"


def load(lang: str) -> dict[str, i18n.Entry]:
    return json.loads((ROOT / lang / "table.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_english_and_french_have_the_same_keys_and_placeholders() -> None:
    en, fr = load("en"), load("fr")
    assert en.keys() == fr.keys()
    for key in en:
        assert key.startswith("table."), key
        assert i18n.fields(en[key]) == i18n.fields(fr[key]), key
        assert all(t.strip() for t in i18n.variants(en[key]) + i18n.variants(fr[key])), key


def test_every_key_the_code_names_is_in_the_catalog() -> None:
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in (Path(__file__).parents[2] / "table").rglob("*.py")
    )
    named = set(re.findall(r'"(table\.[a-z_]+(?:\.[a-z_]+)+)"', source))
    assert named, "the pattern found no keys"
    assert named <= load("en").keys(), named - load("en").keys()
