"""Position evaluations fitted by self-play: a logistic model over a few features of each side.

A game's package may describe a position as one short vector of numbers per side
(``ai/<game>/features.py``: ``NAMES``, ``sides(state)``), and ship weights fitted on positions of
recorded self-play games (``training/``, run by hand; the data file sits beside the features). The
chance that side 0 wins is the logistic of the weighted difference of the two sides' vectors: a
difference keeps the model fair to both sides by construction, and a position seen from the other
side gets the complementary chance. A game of more than two sides, each playing for itself, gives
each side its share of a softmax over the sides' weighted features (``shares``): the same model, as
two sides' shares are the logistic of their difference.

The evaluation runs at the end of every rollout, thousands of times per decision, in a bot that
carries no numerical library: it is a plain dot product over a handful of floats, loaded once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CLAMP = 30.0
"""Logits beyond this are as good as certain; clamping keeps ``exp`` inside floating point."""


@dataclass(frozen=True)
class Weights:
    """One weight per feature name, in the order the game's feature function lists them."""

    names: tuple[str, ...]
    values: tuple[float, ...]

    def chance(self, first: Sequence[float], second: Sequence[float]) -> float:
        """The fitted chance that the side described by ``first`` beats the one described by
        ``second``."""
        logit = sum(w * (a - b) for w, a, b in zip(self.values, first, second, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-CLAMP, min(CLAMP, logit))))

    def shares(self, sides: Sequence[Sequence[float]]) -> list[float]:
        """The fitted chance of each side, described by one row of ``sides``, to win among them all."""
        logits = [sum(w * a for w, a in zip(self.values, row, strict=True)) for row in sides]
        top = max(logits)
        exps = [math.exp(max(-CLAMP, logit - top)) for logit in logits]
        total = sum(exps)
        return [e / total for e in exps]


def parse(text: str, names: Sequence[str]) -> Weights:
    """The weights written in ``text`` (``{"weights": {name: value}}``), in the order of ``names``.

    A file that lacks a feature, or names one the game no longer computes, was fitted for other
    features: it is refused rather than read with its weights out of place.
    """
    found: dict[str, float] = json.loads(text)["weights"]
    if sorted(found) != sorted(names):
        raise ValueError(f"weights for {sorted(found)}, features are {sorted(names)}")
    return Weights(tuple(names), tuple(float(found[n]) for n in names))


@cache
def load(path: Path, names: tuple[str, ...]) -> Weights:
    """The weights of the file at ``path``, read once per process (``parse``)."""
    return parse(path.read_text(encoding="utf-8"), names)
