"""The message catalog: every player-facing string, in English and French.

Catalogs are JSON files under ``i18n/locales/<lang>/``, one file per area
(core, warchest, table, commands...), merged at import; a key may appear in only
one file. ``t()`` renders a key or an ``engine.text.Msg`` in a language, falling
back to English, then to the key itself, so a missing translation never crashes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engine.text import Msg, PlayerRef

LOCALES = ("en", "fr")
DEFAULT = "en"
_ROOT = Path(__file__).parent / "locales"


def normalize(locale: str | None) -> str:
    """Map a Discord locale ('fr', 'en-US', 'en-GB'...) to a catalog language."""
    if not locale:
        return DEFAULT
    lang = str(locale).split("-")[0].split("_")[0].lower()
    return lang if lang in LOCALES else DEFAULT


@cache
def catalog(lang: str) -> dict[str, str]:
    """All keys of one language; raises if two files define the same key."""
    merged: dict[str, str] = {}
    for path in sorted((_ROOT / lang).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate catalog key {key!r} in {path}")
            merged[key] = value
    return merged


class _Params(dict):  # type: ignore[type-arg]
    """Leaves an unknown placeholder visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(
    key: str | Msg,
    locale: str | None = None,
    /,
    *,
    names: Mapping[str, str] | Callable[[str], str] | None = None,
    **params: Any,
) -> str:
    """Render ``key`` (or a ``Msg``) in ``locale``.

    ``names`` turns a ``PlayerRef`` into display text (a name, or a mention on
    Discord); without it the raw id is shown.
    """
    if isinstance(key, Msg):
        params = {**key.params, **params}
        key = key.key
    lang = normalize(locale)
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        return key
    rendered = _Params({k: _value(v, lang, names) for k, v in params.items()})
    return template.format_map(rendered)


def _value(v: Any, lang: str, names: Mapping[str, str] | Callable[[str], str] | None) -> Any:
    if isinstance(v, Msg):
        return t(v, lang, names=names)
    if isinstance(v, PlayerRef):
        if names is None:
            return v.id
        if callable(names):
            return names(v.id)
        return names.get(v.id, v.id)
    if isinstance(v, (list, tuple)):
        return ", ".join(str(_value(x, lang, names)) for x in v)
    return v
