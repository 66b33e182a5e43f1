"""The shared reading of typed words: phrase tables and the substitution of names by their word."""

from __future__ import annotations

from engine.matching import Phrases, fold_words, lead, phrases, substitute


def test_a_phrase_table_knows_its_phrase_lengths_from_construction() -> None:
    table = phrases([("bois", "wood"), ("Bois des Vignes", "vineholt"), ("Crête de Basalte", "basalt")])
    assert isinstance(table, Phrases)
    assert table == {
        ("bois",): "wood",
        ("bois", "des", "vignes"): "vineholt",
        ("crete", "de", "basalte"): "basalt",
    }
    assert table.longest == 3
    assert table.lengths == (3, 1)
    merged = Phrases({**table, ("le", "bois", "des", "vignes", "hautes"): "x"})
    assert (merged.longest, merged.lengths) == (5, (5, 3, 1))
    assert (Phrases().longest, Phrases().lengths) == (0, ())


def test_substitution_prefers_the_longest_phrase() -> None:
    table = phrases([("bois", "wood"), ("bois des vignes", "vineholt")])
    assert substitute(["aller", "bois", "des", "vignes", "bois"], table, start=1) == [
        "aller",
        "vineholt",
        "wood",
    ]
    assert substitute(["bois", "des"], table) == ["wood", "des"]
    assert substitute(["a", "b"], Phrases()) == ["a", "b"]
    verbs = phrases([("prendre l'initiative", "initiative"), ("prendre", "take")])
    assert lead(["prendre", "l", "initiative", "royal"], verbs) == ["initiative", "royal"]
    assert lead(["prendre", "royal"], verbs) == ["take", "royal"]
    assert lead(["prendre", "l"], verbs) == ["take", "l"]


def test_folded_words_are_remembered_but_each_caller_gets_its_own_list() -> None:
    first = fold_words("Prendre l\u2019Initiative")
    assert first == ["prendre", "l", "initiative"]
    first.append("changed")
    assert fold_words("Prendre l\u2019Initiative") == ["prendre", "l", "initiative"]
    assert fold_words("Porte-Étendard") == ["porte-etendard"]
    assert fold_words("Porte-Étendard", hyphens=True) == ["porte", "etendard"]


def test_each_game_reads_a_text_alike_every_time_and_hands_out_its_own_lists() -> None:
    """War Chest's ``tokens`` and Cry Havoc's ``readings`` remember what a text reads as; a caller
    changing its copy changes nothing for the next reader."""
    import engine
    from engine.cryhavoc.parse import readings
    from engine.warchest.parse import tokens
    from tests.engine.french_typing import words

    WAR_CHEST, CRY_HAVOC = words(engine.get_game("warchest")), words(engine.get_game("cryhavoc"))
    first = tokens("Déplacer cavalerie légère e1 d2", WAR_CHEST)
    assert first == ["move", "light_cavalry", "e1", "d2"]
    first.append("x")
    assert tokens("Déplacer cavalerie légère e1 d2", WAR_CHEST) == ["move", "light_cavalry", "e1", "d2"]
    read = readings("aller Mousse-Profonde Pic-de-Silex", CRY_HAVOC)
    assert read == [["go", "mossdeep", "flintpeak"]]
    read[0].append("x")
    read.append([])
    assert readings("aller Mousse-Profonde Pic-de-Silex", CRY_HAVOC) == [["go", "mossdeep", "flintpeak"]]
    assert readings("", CRY_HAVOC) == []
