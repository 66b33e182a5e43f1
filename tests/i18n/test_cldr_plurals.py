"""Languages with more plural forms than English and French, added the way a translator adds one:
a folder of catalog files. Polish and Russian have four CLDR categories each (one, few, many,
other) and disagree on 101 ("101 kart" but "101 карту"); the catalogs under ``tests/i18n/locales``
hold a few keys, and every other key falls back to English (``translators_folders``, in
``tests/conftest.py``, adds them to the bot's)."""

from __future__ import annotations

import pytest
from discord import Locale

import i18n
from cogs.translator import label, matching_languages, offer_languages, translate
from engine.text import PlayerRef
from launch import DISCORD_LIMITS

COUNTS = (0, 1, 2, 5, 22, 25, 101)
NAMES = {"1": "Alice", "2": "Bob", "3": "Carol"}


pytestmark = pytest.mark.usefixtures("translators_folders")


def test_the_languages_are_the_folders_present() -> None:
    assert i18n.LOCALES == ("en", "fr", "pl", "ru")
    assert [i18n.normalize(tag) for tag in ("pl", "ru", "fr", "en-GB", "pt-BR", None)] == [
        "pl",
        "ru",
        "fr",
        "en",
        "en",
        "en",
    ]
    assert i18n.find("PL") == "pl" and i18n.find("de") is None


@pytest.mark.parametrize(
    ("lang", "categories"),
    [
        ("pl", ["many", "one", "few", "many", "few", "many", "many"]),
        ("ru", ["many", "one", "few", "many", "few", "many", "one"]),
        ("en", ["other", "one", "other", "other", "other", "other", "other"]),
        ("fr", ["one", "one", "other", "other", "other", "other", "other"]),
    ],
)
def test_each_language_takes_the_cldr_category_of_each_count(lang: str, categories: list[str]) -> None:
    assert [i18n.plural_form(n, lang) for n in COUNTS] == categories


def test_polish_counts_take_their_forms() -> None:
    draws = [i18n.t("ch.ev.draws", "pl", player="Ola", n=n) for n in COUNTS]
    assert draws == [
        "Ola dobiera 0 kart.",
        "Ola dobiera 1 kartę.",
        "Ola dobiera 2 karty.",
        "Ola dobiera 5 kart.",
        "Ola dobiera 22 karty.",
        "Ola dobiera 25 kart.",
        "Ola dobiera 101 kart.",
    ]
    bag = [i18n.t("render.wc.private.bag", "pl", count=n) for n in COUNTS]
    assert bag == [
        "Worek: 0 monet",
        "Worek: 1 moneta",
        "Worek: 2 monety",
        "Worek: 5 monet",
        "Worek: 22 monety",
        "Worek: 25 monet",
        "Worek: 101 monet",
    ]


def test_an_inline_plural_takes_every_polish_form() -> None:
    pages = [i18n.t("table.error.bad_page", "pl", page=200, pages=n) for n in COUNTS]
    assert [p.removeprefix("Nie ma strony 200: historia ma ") for p in pages] == [
        "0 stron.",
        "1 stronę.",
        "2 strony.",
        "5 stron.",
        "22 strony.",
        "25 stron.",
        "101 stron.",
    ]


def test_russian_counts_take_their_forms() -> None:
    draws = [i18n.t("ch.ev.draws", "ru", player="Оля", n=n) for n in COUNTS]
    assert [d.removeprefix("Оля берёт ") for d in draws] == [
        "0 карт.",
        "1 карту.",
        "2 карты.",
        "5 карт.",
        "22 карты.",
        "25 карт.",
        "101 карту.",
    ]


def test_a_list_is_joined_by_the_language_s_cldr_pattern_and_picks_the_form_by_its_length() -> None:
    three = [PlayerRef("1"), PlayerRef("2"), PlayerRef("3")]
    assert i18n.t("error.not_your_turn", "pl", waiting=three, names=NAMES) == (
        "To nie twoja kolej: czekamy na Alice, Bob i Carol."
    )
    assert i18n.t("error.not_your_turn", "ru", waiting=three[:2], names=NAMES) == (
        "Сейчас не ваш ход: ждём Alice и Bob."
    )
    assert i18n.join(["2", "3", "4"], "pl", "or") == "2, 3 lub 4"
    winners = [
        i18n.t("table.result.win", "pl", winners=["A", "B", "C", "D", "E"][:n], reason="") for n in (1, 2, 5)
    ]
    assert winners == [
        "Koniec gry! Zwycięzca: A. ",
        "Koniec gry! Zwycięzcy: A i B. ",
        "Koniec gry! Zwycięzcy: A, B, C, D i E. ",
    ]


def test_a_missing_key_falls_back_to_english_with_english_grammar() -> None:
    """Russian says "one" for 21; the English sentence standing in for it says "21 coins"."""
    assert i18n.t("error.generic", "pl") == i18n.t("error.generic", "en")
    assert i18n.plural_form(21, "ru") == "one"
    assert i18n.t("wc.ev.short", "ru", player="Bob", count=21) == "Bob could draw only 21 coins this round."
    assert i18n.t("table.turn", "ru", players=["A", "B", "C"]) == "Your turn: A, B and C."


def test_numbers_take_the_language_s_decimal_mark() -> None:
    assert [i18n.decimal(-2.45, lang) for lang in ("en", "fr", "pl")] == ["−2.5", "−2,5", "−2,5"]
    assert i18n.decimal(3.0, "ru", signed=True) == "+3,0"


def test_discord_gets_the_new_language_s_command_names_and_english_where_it_has_none() -> None:
    assert translate(label("cmd.play.name"), Locale.polish) == "graj"
    assert translate(label("cmd.play.name"), Locale.russian) is None
    assert translate(label("cmd.play.desc"), Locale.polish) is None


def test_the_settings_offer_every_folder_by_its_own_name() -> None:
    async def settings(interaction: object, language: str | None = None) -> None: ...

    decorated = offer_languages("language")(settings)
    offered = decorated.__discord_app_commands_param_choices__["language"]  # type: ignore[attr-defined]
    assert [(c.name, c.value) for c in offered] == [
        ("English", "en"),
        ("Français", "fr"),
        ("Polski", "pl"),
        ("Русский", "ru"),
    ]


def test_past_25_languages_the_settings_offer_them_by_autocomplete() -> None:
    """Discord refuses an option with more than 25 choices; autocomplete has no such cap."""
    many = ["en", "fr", "pl", "ru", "de", "es", "it", "nl", "pt", "cs", "uk", "sv", "da", "fi", "no"]
    many += ["hu", "ro", "bg", "el", "hr", "lt", "tr", "hi", "th", "vi", "ja", "ko", "id"]
    assert len(many) > DISCORD_LIMITS.choices

    async def settings(interaction: object, language: str | None = None) -> None: ...

    decorated = offer_languages("language", many)(settings)
    assert not hasattr(decorated, "__discord_app_commands_param_choices__")
    assert "language" in decorated.__discord_app_commands_param_autocomplete__  # type: ignore[attr-defined]
    assert matching_languages("pol", many) == [("Polski", "pl")]
    assert ("Deutsch", "de") in matching_languages("de", many)
    assert len(matching_languages("", many)) == DISCORD_LIMITS.choices
