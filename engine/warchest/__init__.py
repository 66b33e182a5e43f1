"""War Chest for two players, or four in two teams (its French edition's name is the catalog's).

``GAME`` satisfies ``engine.contract.Game``. Rules as applied: docs/rules/warchest.md.
Every seat carries a team (with two players, each seat is its own team), so locations, control
markers, friendliness and the stall rule are all counted per team.
"""

from engine.warchest.game import GAME, WarChest

__all__ = ["GAME", "WarChest"]
