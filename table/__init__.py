"""The table layer: per-channel games over the store, and front-end-neutral commands.

Typical wiring (the Discord bot and the console do the same)::

    store = await db.open_store(path)
    commands = Commands(Tables(store))          # renderers default to render.render / render_private
    posts = await commands.new(ctx, "warchest")
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
