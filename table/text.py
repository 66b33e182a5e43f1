"""Small helpers to turn messages, players and games into the text of a Post."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import i18n
from engine.errors import GameError
from engine.text import Msg, PlayerRef
from table.posts import mention


def has_key(key: str) -> bool:
    """Whether the catalog defines ``key`` (in English, the fallback language)."""
    return key in i18n.catalog(i18n.DEFAULT)


def game_title(name: str | None) -> Msg | str:
    """A game's display name (``table.game.<name>``), or its id when the catalog has none."""
    if name is None:
        return "?"
    key = f"table.game.{name}"
    return Msg(key) if has_key(key) else name


def mentions(players: Iterable[str]) -> str:
    return ", ".join(mention(p) for p in players)


def named(players: Iterable[str], names: Mapping[str, str]) -> str:
    return ", ".join(names.get(p, p) for p in players)


def _resolve(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, PlayerRef):
        return names.get(value.id, value.id)
    if isinstance(value, Msg):
        return resolve_players(value, names)
    if isinstance(value, (list, tuple)):
        return [_resolve(v, names) for v in value]
    return value


def resolve_players(message: Msg, names: Mapping[str, str]) -> Msg:
    """The same message with every player replaced by a display name.

    Errors are rendered by the front end without the table's names; resolving players
    here means a refusal reads "waiting for Alice" rather than a raw snowflake.
    """
    return Msg(message.key, {k: _resolve(v, names) for k, v in message.params.items()})


def name_players_in(err: GameError, names: Mapping[str, str]) -> GameError:
    """Rewrite ``err``'s message in place with display names; returns it for ``raise``."""
    err.msg = resolve_players(err.msg, names)
    return err
