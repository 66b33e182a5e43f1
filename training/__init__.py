"""Fitting a game's learned position evaluation (``ai.learned``) by self-play; run by hand.

    python -m training --game warchest --seed 1 --games 6000 --players 2,4 \
        --out ai/warchest/weights.json

Games are played by the search's own rollout policy (``weights`` and ``candidates`` of the game's
heuristics, a share of the moves greedy, the share drawn per game), which plays thousands of
complete games a minute where even ``easy`` would play a few dozen: the evaluation is scored where a
rollout stops, so the positions it must judge are those the policy reaches. Every few decisions of
a decided game the position is kept with its features per side (``ai/<game>/features.py``) and
which side went on to win; drawn games teach nothing about who wins and are left out.

The model is a logistic regression on the difference of the two sides' features, without an
intercept (the sides are symmetric), fitted by a fixed number of Newton steps with a small ridge
penalty. A game whose positions have more than two sides (Cry Havoc, every seat for itself) gets the
same model widened: a softmax over the sides of one weight per feature, whose winner is the side
that went on to win, fitted the same way.

Everything comes from ``--seed``: the games' generators, the positions kept, and a fit with no random
start and no time-dependent stopping, on one thread; the weights are rounded and written
with sorted keys, so the same command writes the same bytes.
"""
