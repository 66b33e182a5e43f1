"""Catalog access shared by every game's images: translated strings, fallbacks, names, view messages.

Views carry messages as ``{"key", "params"}`` with player ids written ``"@<id>"``; images show them
with display names. A key the catalog lacks is never drawn raw: the caller gets a fallback or "".
"""

from __future__ import annotations

from collections.abc import Mapping

import i18n
from engine.text import Msg


def tr(key: str, locale: str, **params: object) -> str:
    """A catalog string (the renderers' own keys and the games' names)."""
    return i18n.t(key, locale, names=None, **params)


def has_key(key: str, locale: str) -> bool:
    return key in i18n.catalog(i18n.normalize(locale)) or key in i18n.catalog(i18n.DEFAULT)


def lookup(key: str, locale: str, fallback: str) -> str:
    """The catalog string of ``key``, or ``fallback`` when neither ``locale`` nor the default has it."""
    return tr(key, locale) if has_key(key, locale) else fallback


def player_name(names: Mapping[str, str], player_id: str | None) -> str:
    """A display name, or the id itself when ``names`` lacks it ("?" for nobody)."""
    if player_id is None:
        return "?"
    return names.get(str(player_id), str(player_id))


def message(data: Mapping[str, object] | None, locale: str, names: Mapping[str, str]) -> str:
    """Render a ``{"key", "params"}`` message from the view, or "" when the catalog lacks the key.

    Player ids inside parameters arrive as ``"@<id>"`` text and are replaced by display names.
    """
    if not data or not has_key(str(data.get("key", "")), locale):
        return ""
    params = data.get("params") or {}
    text = i18n.t(Msg(str(data["key"]), dict(params) if isinstance(params, Mapping) else {}), locale)
    for pid in sorted(names, key=len, reverse=True):  # "@111" before "@11"
        text = text.replace("@" + pid, names[pid])
    return text
