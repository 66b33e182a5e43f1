"""The table layer: per-channel games over the store, and front-end-neutral commands.

Typical wiring (the Discord bot and the console do the same)::

    store = await db.open_store(path)
    commands = Commands(Tables(store, limits=DISCORD_LIMITS))  # the front end's limits (``launch``)
    # renderers default to render.render / render_private
    posts = await commands.new(ctx, "warchest")

The table layer is not inside ``engine/`` (as a first sketch had it) because it does I/O: it awaits the store
and has images drawn in worker processes. Keeping it apart lets a test check that ``engine/`` imports nothing
but the standard library's pure modules.

Both front ends, ``cogs/`` (Discord) and ``console/``, call ``table.play.commands.Commands`` with a ``Ctx``
and send the ``Post`` values it returns (``table.core.posts``); the commands themselves are described once, in
``table.play.command_tree``. The table writes no front end's markup (``table.core.marks``).
"""

from __future__ import annotations

from table.core.marks import mention
from table.core.posts import Ctx, Post
from table.core.replay import replay, replay_game
from table.core.tables import Moved, Renderer, Table, Tables
from table.play.commands import Commands, split_version

__all__ = [
    "Commands",
    "Ctx",
    "Moved",
    "Post",
    "Renderer",
    "Table",
    "Tables",
    "mention",
    "replay",
    "replay_game",
    "split_version",
]
