"""The table layer: per-channel games over the store, and front-end-neutral commands.

Typical wiring (the Discord bot and the console do the same)::

    store = await db.open_store(path)
    commands = Commands(Tables(store))          # renderers default to render.render / render_private
    posts = await commands.new(ctx, "warchest")
"""

from __future__ import annotations

from table.commands import Commands, split_version
from table.posts import Ctx, Post, mention
from table.replay import replay, replay_game
from table.tables import Moved, Renderer, Table, Tables

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
