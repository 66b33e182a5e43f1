"""Actions typed in French (verbs, objectives, sources, factions and region names as the French
catalog shows them) mean what the English text means, accents optional; ``str(action)`` stays the
English text."""

from __future__ import annotations

import pytest

import i18n
from engine.cryhavoc import GAME
from engine.cryhavoc.actions import VERBS, Construct, act
from engine.cryhavoc.parse import readings
from engine.cryhavoc.state import St
from engine.errors import BadInput
from engine.rng import Rng
from tests.engine.french_typing import kinds_typed_in_french, plain, words

from .helpers import P2, P3, P4, duel, play, set_hand, start_fight

FRENCH_VERBS = {
    "discard": "défausser",
    "move": "déplacer",
    "recruit": "recruter",
    "build": "construire",
    "pay": "défausser",
    "go": "aller",
    "construct": "construire",
    "activate": "activer",
    "draw": "piocher",
    "keep": "garder",
    "score": "activer le score",
    "skill": "compétence",
    "end": "terminer",
    "pass": "passer",
    "place": "placer",
    "play": "jouer",
    "fold": "se coucher",
    "capture": "capturer",
    "kill": "éliminer",
    "retreat": "battre en retraite",
    "ransom": "racheter",
    "done": "fini",
}
"""A French verb for each action kind, as the glossary and the autocomplete labels say it."""
FR = i18n.catalog("fr")

LEXICON = words(GAME)


def french(text: str) -> str:
    """An English action text as a French player types it: French verb, and the French catalog's
    name for each region, objective, source and faction; card, structure and skill ids unchanged."""
    verb, *args = text.split()
    out = [FRENCH_VERBS[verb]]
    for word in args:
        names = [FR[k] for k in (f"ch.region.{word}", f"ch.objective.{word}", f"ch.source.{word}") if k in FR]
        if verb == "ransom":
            names.append(FR[f"ch.faction.{word}"])
        out.append(names[0] if names else word)
    return " ".join(out)


def _walk(players: list[str], seed: int, steps: int) -> list[tuple[St, str]]:
    st = GAME.new_game(players, seed=seed, options={"skills": "all"})
    rng = Rng(seed)
    out = []
    for _ in range(steps):
        if GAME.is_over(st):
            break
        who = GAME.to_act(st)[0]
        out.append((st, who))
        options = GAME.legal_actions(st, who)
        st, _ = GAME.apply(st, who, options[rng.below(len(options))])
    return out


def _battle_decisions() -> list[tuple[St, str]]:
    """Kill, capture and retreat choices, which random games reach rarely."""
    out = []
    st = duel()
    set_hand(st, 0, "hu_command")
    start_fight(st, "greyspire", 0, 1, 2, 2)
    for seat, o in ((0, "control"), (0, "attrition"), (1, "control"), (1, "prisoners")):
        st, _ = play(st, seat, f"place {o}")
    st, _ = play(st, 0, "play hu_command")
    out.append((st, "alice"))  # kill
    st, _ = play(st, 0, "kill control")
    out.append((st, "bob"))  # capture
    st = duel()
    st["regions"]["dunes"]["control"] = 0
    st["regions"]["vinegrove"]["control"] = 0
    start_fight(st, "glassfield", 0, 1, 2, 2)
    for seat, o in ((0, "control"), (0, "prisoners"), (1, "control"), (1, "control")):
        st, _ = play(st, seat, f"place {o}")
    out.append((st, "alice"))  # retreat
    return out


@pytest.fixture(scope="module")
def positions() -> list[tuple[St, str]]:
    walks = _walk(P2, 1, 500) + _walk(P3, 2, 700) + _walk(P4, 3, 700)
    return walks[::3] + _battle_decisions()


def test_every_action_kind_typed_in_french_is_the_english_action(positions: list[tuple[St, str]]) -> None:
    kinds = kinds_typed_in_french(GAME, positions, french)
    assert kinds == set(VERBS) == set(FRENCH_VERBS), f"never offered: {set(VERBS) - kinds}"


def test_every_region_is_read_by_its_french_catalog_name() -> None:
    regions = {k.removeprefix("ch.region."): v for k, v in FR.items() if k.startswith("ch.region.")}
    assert len(regions) >= 38
    for rid, name in regions.items():
        for typed in (name, plain(name).lower(), name.replace("-", " "), name.replace("'", "\u2019")):
            assert readings(f"aller {typed} {typed}", LEXICON) == [["go", rid, rid]], typed


def test_a_french_verb_of_two_actions_takes_the_one_that_is_legal() -> None:
    st = duel()
    st["regions"]["greyspire"]["control"] = 0
    set_hand(st, 0, "hu_sappers", "hu_forced_march")
    assert GAME.parse_action(st, "alice", "construire hu_sappers", words(GAME)) == act("build", "hu_sappers")
    st, _ = play(st, 0, "construire hu_sappers")
    sid = next(a.structure for a in GAME.legal_actions(st, "alice") if isinstance(a, Construct))
    assert GAME.parse_action(st, "alice", f"Construire {sid} Pic-Gris", words(GAME)) == act(
        "construct", sid, "greyspire"
    )
    st, _ = play(st, 0, f"construire {sid} pic gris")
    assert st["regions"]["greyspire"]["structures"] == [[sid, 0]]
    st, _ = play(st, 0, "terminer")
    st, _ = play(st, 1, "pass")
    st, _ = play(st, 0, "déplacer hu_forced_march")
    assert GAME.parse_action(st, "alice", "aller hauteporte pic gris", words(GAME)) == act(
        "go", "highgate", "greyspire"
    )
    with pytest.raises(BadInput):
        GAME.parse_action(st, "alice", "voler vers la lune", words(GAME))
