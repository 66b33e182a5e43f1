"""What the computer players know of Cry Havoc, beside the search and apart from the rules: a state
sampled from what a seat sees (``determinize``) and the evaluation, move weights and settled
decisions that guide the search (``heuristics``). Loaded by ``ai.models``; the engine never uses it.
``LEVELS`` are its three levels' budgets (``ai.levels``), sized as that module tells.
"""

from ai.levels import Levels
from ai.search import Budget

LEVELS = Levels(
    budgets={
        "easy": Budget(iterations=40, rollout=6, slip=0.5),
        "normal": Budget(iterations=250, rollout=10),
        "hard": Budget(iterations=3000, rollout=14),
    },
    turns={"easy": (160, 20), "normal": (1000, 40)},
)
