"""What the computer players know of War Chest, beside the search and apart from the rules: a state
sampled from what a seat sees (``determinize``) and the evaluation, move weights and settled
decisions that guide the search (``heuristics``). Loaded by ``ai.models``; the engine never uses it.
``LEVELS`` are its three levels' budgets (``ai.levels``), sized as that module tells.
"""

from ai.levels import Levels
from ai.search import Budget

LEVELS = Levels(
    budgets={
        "easy": Budget(iterations=60, rollout=4, slip=0.3),
        "normal": Budget(iterations=400, rollout=6),
        "hard": Budget(iterations=4800, rollout=8, greedy=0.5),
    },
    turns={"easy": (240, 30), "normal": (1600, 200)},
)
