"""What the computer players know of Batailles, beside the search and apart from the rules: a state
sampled from what a seat sees (``determinize``) and the evaluation, move weights and settled
decisions that guide the search (``heuristics``). Loaded by ``ai.models``; the engine never uses it.
``LEVELS`` are its three levels' budgets (``ai.levels``), sized as that module tells.
"""

from ai.levels import Levels
from ai.search import Budget

LEVELS = Levels(
    budgets={
        "easy": Budget(iterations=40, rollout=6, slip=0.3),
        "normal": Budget(iterations=250, rollout=10),
        "hard": Budget(iterations=900, rollout=10, greedy=0.5, settle=False, unsettled=0.6),
    },
    turns={"easy": (160, 20), "normal": (1400, 40), "hard": (7200, 650)},
)
