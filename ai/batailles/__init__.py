"""What the computer players know of Batailles, beside the search and apart from the rules: a state
sampled from what a seat sees (``determinize``) and the evaluation, move weights and settled
decisions that guide the search (``heuristics``). Loaded by ``ai.models``; the engine never uses it.
"""
