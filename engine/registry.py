"""The games the bot offers, listed once: one ``Entry`` per game naming where each of its parts lives.

A game is spread over the layers (its rules in ``engine/``, its computer player in ``ai/``, its
images and text board in ``render/``, its rulebook on the table's side), and every shared module
that needs one of those parts finds it here by the game's name, never by naming the game itself.
So adding a game is adding its packages and one entry (``register`` at run time, which is what a
test's own game does), and no shared module changes.

Why the entries are plain data naming modules by dotted path, rather than objects holding the
parts: the registry sits in ``engine/``, the one layer every other layer already reads (``db/``
aside, which is handed what it needs), and the engine imports nothing above itself. Each layer
imports its own part lazily from the path given here (``render`` reads the ``RENDERER`` of
``render.<game>``, ``ai`` the ``LEVELS`` and modules of ``ai.<game>``, the table the ``book()`` of its
rulebook module), so drawing never loads the search, a worker process loads only the layers it
uses, and the import graph keeps pointing down. What is a fact about a game rather than code
(its rating pools, the catalog keys naming its sides and its hidden items) is written in the
entry itself, where the store's callers and the table read it without loading the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """Where the parts of one game live, and the facts about it the shared layers need.

    ``engine`` is the module exporting ``GAME`` (``engine.contract.Game``); ``ai`` the package
    holding the computer player's ``determinize``, ``heuristics`` and (if it hides anything)
    ``secrets`` modules and exporting ``LEVELS`` (``ai.levels.Levels``); ``render`` the one
    exporting ``RENDERER`` (``render.games.GameRenderer``); ``rules`` the module whose
    ``book()`` builds the game's ``/game rules`` rulebook. A part left ``None`` is one the
    game does not have (no computer player; no images, so posts go out without one; no rulebook).
    """

    name: str
    engine: str
    ai: str | None = None
    render: str | None = None
    rules: str | None = None
    pools: tuple[str, ...] = ()
    """The rating pools of the game, in the order lists show them; empty means one, named like it."""
    pool_by_players: tuple[tuple[int, str], ...] = ()
    """Player counts rated apart from the game's first pool (War Chest for four is rated in teams)."""
    side_keys: str = "rating.army."
    """The catalog prefix naming what a seat played (``engine.contract.Game.sides``)."""
    item_keys: tuple[str, ...] = ()
    """Catalog prefixes naming the things of a hand or bag, tried in order before ``<game>.item.``."""

    def all_pools(self) -> tuple[str, ...]:
        """The game's rating pools (its name alone when ``pools`` is left empty)."""
        return self.pools or (self.name,)

    def pool_of(self, players: int) -> str:
        """The pool a game of ``players`` players is rated in."""
        return dict(self.pool_by_players).get(players, self.all_pools()[0])


BUILT_IN: tuple[Entry, ...] = (
    Entry(
        name="warchest",
        engine="engine.warchest",
        ai="ai.warchest",
        render="render.warchest",
        rules="table.rules.games.warchest",
        pools=("warchest", "warchest-teams"),
        pool_by_players=((4, "warchest-teams"),),
        side_keys="wc.unit.",
        item_keys=("wc.unit.", "wc.coin."),
    ),
    Entry(
        name="batailles",
        engine="engine.batailles",
        ai="ai.batailles",
        render="render.batailles",
        rules="table.rules.games.batailles",
    ),
    Entry(
        name="cryhavoc",
        engine="engine.cryhavoc",
        ai="ai.cryhavoc",
        render="render.cryhavoc",
        rules="table.rules.games.cryhavoc",
        side_keys="ch.faction.",
        item_keys=("ch.card.",),
    ),
)
"""The games of the bot, in the order they are offered."""

_ENTRIES: dict[str, Entry] = {entry.name: entry for entry in BUILT_IN}


def names() -> tuple[str, ...]:
    """The registered games' names, built-in ones first."""
    return tuple(_ENTRIES)


def entries() -> tuple[Entry, ...]:
    return tuple(_ENTRIES.values())


def find(name: str) -> Entry | None:
    """The entry of game ``name``, or None for a name no game is registered under."""
    return _ENTRIES.get(name)


def register(entry: Entry) -> Entry:
    """Add (or replace) a game; the shared layers of this process find its parts from now on.

    Only this process: worker processes already running (drawing, searching) do not see it, and the
    slash commands offer it only if they are built after. A game of the bot is in ``BUILT_IN``."""
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Forget a game registered with ``register`` (a built-in one comes back as it was)."""
    _ENTRIES.pop(name, None)
    for entry in BUILT_IN:
        if entry.name == name:
            _ENTRIES[name] = entry


@contextmanager
def registered(entry: Entry) -> Iterator[Entry]:
    """``entry`` registered for the duration of a ``with`` block (a test's own game)."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.name)


def pools() -> tuple[str, ...]:
    """Every rating pool of a server, in the order lists show them."""
    return tuple(pool for entry in _ENTRIES.values() for pool in entry.all_pools())


def pool_of(game: str, players: int) -> str:
    """The pool a game of ``game`` for ``players`` is rated in (a game not registered: its name)."""
    entry = find(game)
    return entry.pool_of(players) if entry is not None else game


def game_of_pool(pool: str) -> Entry | None:
    """The game whose results are rated in ``pool``."""
    return next((entry for entry in _ENTRIES.values() if pool in entry.all_pools()), None)
