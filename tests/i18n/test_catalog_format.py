"""The catalog format: plural forms, inline plurals, lists joined with "and"/"or", the forms of a
named thing ("an Extractor", "l'Usine"), and the checks every catalog value passes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import i18n
from engine.text import Msg, PlayerRef

ROOT = Path(__file__).resolve().parents[2]


def every_text(lang: str) -> dict[str, list[str]]:
    return {key: i18n.variants(entry) for key, entry in i18n.catalog(lang).items()}


@pytest.mark.parametrize(
    ("lang", "forms"),
    [("en", ["other", "one", "other", "other"]), ("fr", ["one", "one", "other", "other"])],
)
def test_plural_rules_follow_each_language(lang: str, forms: list[str]) -> None:
    """French says "0 carte" and "1 carte" but "2 cartes"; English "0 cards", "1 card", "2 cards"."""
    assert [i18n.plural_form(n, lang) for n in (0, 1, 2, 10)] == forms


@pytest.mark.parametrize(
    ("key", "params", "expected"),
    [
        (
            "ch.ev.draws",
            {"player": "Carol"},
            {
                "en": ["Carol draws 0 cards.", "Carol draws 1 card.", "Carol draws 2 cards."],
                "fr": ["Carol pioche 0 carte.", "Carol pioche 1 carte.", "Carol pioche 2 cartes."],
            },
        ),
        (
            "wc.ev.short",
            {"player": "Bob"},
            {
                "en": [f"Bob could draw only {n} coin{'' if n == 1 else 's'} this round." for n in (0, 1, 2)],
                "fr": [
                    f"Bob n'a pu piocher que {n} pièce{'s' if n == 2 else ''} cette manche."
                    for n in (0, 1, 2)
                ],
            },
        ),
        (
            "render.wc.private.bag",
            {},
            {
                "en": ["Bag: 0 coins", "Bag: 1 coin", "Bag: 2 coins"],
                "fr": ["Sac : 0 pièce", "Sac : 1 pièce", "Sac : 2 pièces"],
            },
        ),
        (
            "table.error.bad_page",
            {"page": 9},
            {
                "en": [
                    "There is no page 9: the log has 0 pages.",
                    "There is no page 9: the log has 1 page.",
                    "There is no page 9: the log has 2 pages.",
                ],
                "fr": [
                    "Il n'y a pas de page 9 : l'historique compte 0 page.",
                    "Il n'y a pas de page 9 : l'historique compte 1 page.",
                    "Il n'y a pas de page 9 : l'historique compte 2 pages.",
                ],
            },
        ),
    ],
)
def test_plural_forms_for_zero_one_and_two(
    key: str, params: dict[str, Any], expected: dict[str, list[str]]
) -> None:
    entry = i18n.catalog("en")[key]
    by = entry.get("by", "count") if isinstance(entry, dict) else "count"
    for lang, texts in expected.items():
        assert [i18n.t(key, lang, **params, **{by: n}) for n in (0, 1, 2)] == texts


def test_several_numbers_in_one_sentence_each_agree() -> None:
    """Inline plurals: every count of a Batailles hits line takes its own form."""

    def hits(lang: str, n: int, m: int) -> str:
        return i18n.t("bt.ev.hits", lang, zone="d6", hits=n, cancelled=m, net=n - m, total=n)

    assert hits("en", 2, 1) == "d6: 2 hits, 1 cancelled, 1 kept; 2 hits on the zone this turn."
    assert hits("en", 1, 0) == "d6: 1 hit, 0 cancelled, 1 kept; 1 hit on the zone this turn."
    assert hits("fr", 2, 1) == "d6 : 2 touches, 1 annulée, 1 retenue ; 2 touches sur la zone pendant ce tour."
    assert (
        hits("fr", 3, 0) == "d6 : 3 touches, 0 annulée, 3 retenues ; 3 touches sur la zone pendant ce tour."
    )


def test_a_list_parameter_selects_the_form_by_its_length_and_joins_with_the_conjunction() -> None:
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}
    waiting = [PlayerRef("1"), PlayerRef("2"), PlayerRef("3")]
    assert i18n.t("error.not_your_turn", "en", waiting=waiting, names=names) == (
        "It is not your turn: waiting for Alice, Bob and Carol."
    )
    assert i18n.t("error.not_your_turn", "fr", waiting=waiting[:1], names=names) == (
        "Ce n'est pas votre tour : on attend Alice."
    )
    assert i18n.t("table.result.win", "fr", winners=["@a"], reason="") == "Partie terminée ! Vainqueur : @a. "
    assert i18n.t("table.result.win", "fr", winners=["@a", "@b"], reason="") == (
        "Partie terminée ! Vainqueurs : @a et @b. "
    )
    assert i18n.join(["2", "3", "4"], "fr", "or") == "2, 3 ou 4"
    assert i18n.join(["2", "4"], "en", "or") == "2 or 4"
    assert i18n.join(["x"], "en") == "x"


def test_a_plain_text_where_a_list_is_expected_is_shown_as_it_is() -> None:
    assert i18n.t("table.turn", "en", players="<@1>") == "Your turn: <@1>."
    assert i18n.t("table.turn", "en") == "Your turn: {players:and}."


def test_a_named_thing_takes_the_form_the_sentence_asks_for() -> None:
    extractor, factory = Msg("ch.structure.ma_extractor"), Msg("ch.structure.ma_factory")
    region = Msg("ch.region.mossdeep")
    assert i18n.t("ch.ev.construct", "en", player="Carol", structure=extractor, region=region) == (
        "Carol builds an Extractor in Mossdeep."
    )
    assert i18n.t("ch.ev.construct", "fr", player="Carol", structure=factory, region=region) == (
        "Carol construit une Usine sur Mousse-Profonde."
    )
    assert i18n.t("ch.ev.activate", "fr", player="Carol", structure=factory, region=region) == (
        "Carol active l'Usine sur Mousse-Profonde."
    )
    # A form the catalog lacks falls back to the bare name.
    assert i18n.t(
        "ch.ev.construct", "en", player="Carol", structure=Msg("ch.region.hive"), region=region
    ) == ("Carol builds the Hive in Mossdeep.")


def test_every_named_thing_a_sentence_inflects_has_that_form_in_both_languages() -> None:
    """Templates ask for ``{structure:a}``, ``{structure:the}`` and ``{source:from}``: each structure
    and draw source spells those forms out, in each language."""
    from engine.cryhavoc.content import STRUCTURES

    for lang in i18n.LOCALES:
        cat = i18n.catalog(lang)
        for sid in STRUCTURES:
            assert {f"ch.structure.{sid}.a", f"ch.structure.{sid}.the"} <= cat.keys(), (lang, sid)
        for source in ("deck", "desert", "jungle", "mountain", "ocean"):
            assert f"ch.source.{source}.from" in cat, (lang, source)
    used = {
        (m[0], m[1])
        for entry in i18n.catalog("en").values()
        for text in i18n.variants(entry)
        for m in re.findall(r"\{(\w+):(\w+)\}", text)
    }
    assert {form for _name, form in used} <= {"and", "or", "a", "the", "from"}, used


@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_no_catalog_value_writes_a_plural_in_brackets(lang: str) -> None:
    """ "1 card(s)", "unité(s)", "se déplace(nt)": every count is written with the form it calls for."""
    bracketed = re.compile(r"\w\((s|es|e|x|nt|e?s)\)")
    wrong = {k: t for k, texts in every_text(lang).items() for t in texts if bracketed.search(t)}
    assert not wrong


@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_catalog_values_use_the_straight_apostrophe(lang: str) -> None:
    wrong = {k: t for k, texts in every_text(lang).items() for t in texts if "\u2019" in t or "\u2018" in t}
    assert not wrong


def test_the_bot_s_code_and_documents_use_the_straight_apostrophe() -> None:
    """The renderer is left out: it must be able to draw a curly apostrophe in a player's name."""
    files = [ROOT / "README.md", ROOT / "bot.py", ROOT / "launch.py", *(ROOT / "docs").rglob("*.md")]
    for package in ("cogs", "console", "table", "engine", "ai", "i18n", "db"):
        files += (ROOT / package).rglob("*.py")
    wrong = [str(p.relative_to(ROOT)) for p in files if "\u2019" in p.read_text(encoding="utf-8")]
    assert not wrong


@pytest.mark.parametrize(
    ("lang", "bad"),
    [
        ("en", {"one": "a", "many": "b"}),  # no "other", and English has no "many"
        ("en", {"one": "a", "few": "b", "other": "c"}),  # English has no "few"
        ("en", {"other": "b"}),  # English says "one" for 1
        ("pl", {"one": "a", "other": "b"}),  # Polish says "few" for 2 and "many" for 5
        ("en", "{n, plural, one {# a} other {# b}"),  # not closed
        ("en", "{n, plural, one {# a}}"),  # no "other"
        ("pl", "{n, plural, one {# a} few {# b} other {# c}}"),  # no "many"
    ],
)
def test_a_malformed_plural_entry_is_refused_when_the_catalog_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, bad: i18n.Entry
) -> None:
    (tmp_path / lang).mkdir()
    monkeypatch.setattr(i18n, "PATH", (tmp_path,))
    (tmp_path / lang / "bad.json").write_text(json.dumps({"k": bad}), encoding="utf-8")
    with pytest.raises(ValueError, match="'k'"):
        i18n.catalog.__wrapped__(lang)


def test_the_bot_does_not_start_on_a_malformed_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot

    (tmp_path / "pl").mkdir()
    (tmp_path / "pl" / "core.json").write_text(json.dumps({"k": {"one": "a", "other": "b"}}), "utf-8")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(i18n, "PATH", (*i18n.PATH, tmp_path))
    i18n.reload()
    try:
        assert bot.main([]) == 2
    finally:
        monkeypatch.undo()
        i18n.reload()
    error = capsys.readouterr().err
    assert "catalog error" in error and "'k'" in error and "few" in error


def test_a_folder_that_names_no_language_is_refused(tmp_path: Path) -> None:
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "core.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="'xx'"):
        i18n.languages([tmp_path])


def test_a_number_that_is_not_finite_takes_the_other_form() -> None:
    assert i18n.t("ch.ev.draws", "en", player="Carol", n="nan") == "Carol draws nan cards."
    assert i18n.t("ch.ev.draws", "fr", player="Carol", n=float("inf")) == "Carol pioche inf cartes."


def test_french_may_leave_out_the_form_for_millions() -> None:
    """French has a "many" category (un million de cartes) that the catalog does not write: it reads
    as "other", so French output stays what it was."""
    assert i18n.plural_form(1_000_000, "fr") == "many"
    assert i18n.t("ch.ev.draws", "fr", player="Carol", n=1_000_000) == "Carol pioche 1000000 cartes."


def test_fields_see_through_plural_forms() -> None:
    entry: i18n.Entry = {"one": "{a} {n, plural, one {# x} other {# xs}}", "other": "{b:and}", "by": "c"}
    assert i18n.fields(entry) == {"a", "n", "b", "c"}
    assert i18n.fields("{zone}: {hits, plural, one {# hit in {zone}} other {# hits}}") == {"zone", "hits"}


def test_french_elides_de_and_que_before_a_name_that_opens_with_a_vowel() -> None:
    """ "Soldat d'Alice", "au tour d'Hugo", "qu'Yves accepte", but "de Bob", "de Yann" and "de <@1>"
    (a mention's name is not known); the word follows a list's first name, and English is untouched."""
    said = {
        name: i18n.t("render.tb.bt.lost", "fr", troop="inf1", name=name)
        for name in ("Alice", "Éloïse", "hugo", "Yves", "Bob", "Yann", "<@1>")
    }
    assert said == {
        "Alice": "inf1 d'Alice : perdue",
        "Éloïse": "inf1 d'Éloïse : perdue",
        "hugo": "inf1 d'hugo : perdue",
        "Yves": "inf1 d'Yves : perdue",
        "Bob": "inf1 de Bob : perdue",
        "Yann": "inf1 de Yann : perdue",
        "<@1>": "inf1 de <@1> : perdue",
    }
    assert i18n.t("bt.ev.turn", "fr", names={"a": "Anne"}, round=2, player=PlayerRef("a")) == (
        "Tour de jeu 2 : au tour d'Anne."
    )
    assert i18n.t("render.wc.over.win", "fr", players=["Iris", "Bob"]) == (
        "Partie terminée : victoire d'Iris et Bob"
    )
    assert "qu'Ivan et Zoé acceptent" in i18n.t(
        "table.error.draw_already_offered", "fr", waiting=["Ivan", "Zoé"]
    )
    assert i18n.t("render.tb.bt.lost", "en", troop="inf1", name="Alice") == "inf1 of Alice: lost"


def test_no_french_value_writes_de_or_que_before_a_name_as_it_is() -> None:
    """Every "de {player}" of the French catalog is ``{player:de}``, which elides as the name asks."""
    names = r"player|name|owner|victim|loser|user|names|players|team|waiting|winner"
    bare = re.compile(r"\b(de|que) \{(" + names + r")(:(and|or))?\}")
    wrong = {k: t for k, texts in every_text("fr").items() for t in texts if bare.search(t)}
    assert set(wrong) <= {"table.error.too_many_bots"}, wrong  # {players} is a number there
