"""The words players type for moves live in the catalogs, one folder per language, never in the rules.

``engine/`` holds the action texts' own words only; every language's verbs, unit, card and region
names and their short forms are catalog entries (the ``*.typed.*`` and name entries hints show) or
words files (``i18n/locales/<lang>/words/<game>.json``), read into the ``Lexicon`` a parser is handed.
A language added as a folder is typed in at once, and a malformed words file stops the bot at start-up.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
import i18n
from engine.batailles.actions import _PARSERS as BATAILLES_VERBS
from engine.batailles.board import FACINGS
from engine.cryhavoc.actions import VERBS as CRY_HAVOC_VERBS
from engine.cryhavoc.content import BOARDS, CARDS, FACTION_ORDER, OBJECTIVES, SKILLS, STRUCTURES, TERRAINS
from engine.lexicon import Sources
from engine.matching import fold_words
from engine.warchest.actions import Deploy
from engine.warchest.parse import VERBS as WAR_CHEST_VERBS
from engine.warchest.parse import typed as typed_in_words
from engine.warchest.units import COINS, ROYAL
from table.core.text import lexicon

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

SHARED_WITH_ENGLISH = frozenset(
    {"activation", "active", "capturer", "piece", "pile", "plus", "region", "reserve", "stop"}
)
"""French forms that are English words too (``pile``, ``active``, ``stop``) or an English name in the
code (``capturer``, the seat that captures): met in engine/ as English, not as French."""

KNOWN: dict[str, dict[str, frozenset[str]]] = {
    "warchest": {
        "verb": frozenset(WAR_CHEST_VERBS),
        "unit": frozenset({*COINS, ROYAL}),
        "word": frozenset({"supply", "stack"}),
    },
    "batailles": {
        "verb": frozenset({*BATAILLES_VERBS, "coordinate"}),
        "direction": frozenset(FACINGS),
        "lead-in": frozenset({""}),
    },
    "cryhavoc": {
        "verb": frozenset(CRY_HAVOC_VERBS),
        "name": frozenset(
            {*CARDS, *STRUCTURES, *SKILLS, *TERRAINS, *OBJECTIVES, *FACTION_ORDER, "deck"}
            | {region for board in BOARDS.values() for region in board.regions}
        ),
    },
}
"""Per game and kind, the words of the action texts a form may stand for."""


def _sources(name: str) -> Sources:
    sources = getattr(engine.get_game(name), "words", None)
    assert isinstance(sources, Sources), f"{name} names no words"
    return sources


def _french_words() -> set[str]:
    """Every folded word of the forms only French gives (the French words file's and the French
    catalog entries a game reads its words from), less those English writes too."""
    by_lang: dict[str, set[str]] = {"en": set(), "fr": set()}
    for name in engine.GAMES:
        sources = _sources(name)
        for lang, found in by_lang.items():
            for key, entry in i18n.catalog(lang).items():
                for prefix, _kind in sources.catalog:
                    if key.startswith(f"{prefix}.") and "." not in key[len(prefix) + 1 :]:
                        found.update(fold_words(str(entry), hyphens=True))
            path = ROOT / "i18n" / "locales" / lang / "words" / f"{sources.file}.json"
            if not path.is_file():
                continue
            for words in json.loads(path.read_text(encoding="utf-8")).values():
                for forms in words.values() if isinstance(words, dict) else [words]:
                    for form in forms:
                        found.update(fold_words(form, hyphens=True))
    return {w for w in by_lang["fr"] - by_lang["en"] if len(w) > 2} - SHARED_WITH_ENGLISH


def _engine_lines() -> Iterator[tuple[str, int, str]]:
    for path in sorted(ENGINE.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".json", ".txt"}:
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                yield str(path.relative_to(ROOT)), number, line


def _accented(line: str) -> list[str]:
    """The letters of ``line`` that carry a diacritic (``é``, ``ç``) or join two (``œ``)."""
    return [c for c in line if c.isalpha() and (len(unicodedata.normalize("NFD", c)) > 1 or c in "œŒæÆ")]


def test_no_french_word_is_left_in_the_engine() -> None:
    french = _french_words()
    assert {"deployer", "renforcer", "soldat", "cavalerie", "hauteporte", "defausser", "ouest"} <= french
    found = []
    for where, number, line in _engine_lines():
        words = set(re.findall(r"\w+", " ".join(fold_words(line, hyphens=True))))
        bad = sorted(words & french) + _accented(line)
        if bad:
            found.append(f"{where}:{number}: {bad}")
    assert found == [], "French in engine/:\n" + "\n".join(found)


@pytest.mark.parametrize("name", engine.GAMES)
def test_every_word_a_catalog_gives_stands_for_a_word_of_the_action_texts(name: str) -> None:
    words = lexicon(engine.get_game(name))
    assert set(words.words) <= set(KNOWN[name])
    for kind, pairs in words.words.items():
        unknown = sorted({word for _form, word in pairs} - KNOWN[name][kind])
        assert unknown == [], f"{name} {kind}: {unknown}"


@pytest.fixture
def third_language(tmp_path: Path) -> Iterator[Path]:
    """A German folder, as a translator adds one: a hint's words in the War Chest catalog, other forms
    in its words file. Nothing else in the bot names German."""
    folder = tmp_path / "de"
    (folder / "words").mkdir(parents=True)
    (folder / "warchest.json").write_text(
        json.dumps({"wc.typed.verb.deploy": "aufstellen", "wc.typed.unit.light_cavalry": "leichte Reiterei"}),
        encoding="utf-8",
    )
    (folder / "words" / "warchest.json").write_text(
        json.dumps({"verb": {"deploy": ["stelle auf"]}, "unit": {"swordsman": ["Schwertkämpfer"]}}),
        encoding="utf-8",
    )
    saved = i18n.PATH
    i18n.PATH = (*saved, tmp_path)
    i18n.reload()
    try:
        yield folder
    finally:
        i18n.PATH = saved
        i18n.reload()


def test_a_language_added_as_a_folder_is_typed_in_at_once(third_language: Path) -> None:
    assert "de" in i18n.LOCALES
    game = engine.get_game("warchest")
    state = game.new_game(["alice", "bob"], 5, {"armies": "first"})
    (who,) = game.to_act(state)
    deploys = {str(a): a for a in game.legal_actions(state, who) if isinstance(a, Deploy)}
    cavalry = next(a for text, a in deploys.items() if text.startswith("deploy light_cavalry "))
    hex_label = str(cavalry).split()[-1]
    words = lexicon(game)
    assert game.parse_action(state, who, f"Aufstellen Leichte-Reiterei {hex_label}", words) == cavalry
    assert game.parse_action(state, who, f"stelle auf leichte reiterei {hex_label}", words) == cavalry
    hint = i18n.t(typed_in_words(cavalry), "de")
    assert hint == f"`aufstellen leichte Reiterei {hex_label}`"
    assert game.parse_action(state, who, hint.strip("`"), words) == cavalry
    if any(text.startswith("deploy swordsman ") for text in deploys):
        sword = next(a for text, a in deploys.items() if text.startswith("deploy swordsman "))
        typed = f"aufstellen schwertkampfer {str(sword).split()[-1]}"
        assert game.parse_action(state, who, typed, words) == sword
    assert game.parse_action(state, who, f"déployer cavalerie légère {hex_label}", words) == cavalry
    assert game.parse_action(state, who, str(cavalry)) == cavalry  # the text form needs no words


def test_a_malformed_words_file_stops_the_bot_at_start_up(third_language: Path) -> None:
    (third_language / "words" / "warchest.json").write_text(
        json.dumps({"verbs": {"deploy": ["aufstellen"]}}), encoding="utf-8"
    )
    i18n.reload()
    with pytest.raises(ValueError, match=r"de/words/warchest.json: unknown kind of words 'verbs'"):
        i18n.check([_sources("warchest")])
    (third_language / "words" / "warchest.json").write_text(
        json.dumps({"verb": {"deploy": "aufstellen"}}), encoding="utf-8"
    )
    i18n.reload()
    with pytest.raises(ValueError, match=r"verb.deploy is not a list of forms"):
        i18n.check([_sources("warchest")])
