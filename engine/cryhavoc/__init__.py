"""Cry Havoc for 2 to 4 players, with the project's own original map, factions and cards.

``GAME`` satisfies ``engine.contract.Game``. Rules as applied and the content's design:
docs/rules/cryhavoc.md. Content numbers live in ``data/*.json``.
"""

from engine.cryhavoc.game import GAME, CryHavoc

__all__ = ["GAME", "CryHavoc"]
