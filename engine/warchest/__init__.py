"""War Chest (French edition: Champ d'honneur) for two players.

``GAME`` satisfies ``engine.contract.Game``. Rules as applied: docs/rules/warchest.md.
Seats carry a team so that four players in two teams can be added without reshaping the state.
"""

from engine.warchest.game import GAME, WarChest

__all__ = ["GAME", "WarChest"]
