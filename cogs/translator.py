"""Slash-command names and descriptions from the message catalog.

Discord shows each user the command names and descriptions of their own client
language. discord.py collects those localisations at sync time by asking a
``Translator`` about every ``locale_str``; ours answers from ``i18n`` so the
commands speak the same French as the rest of the bot. The English text, which
Discord uses as the default, comes from the catalog too (``label``), so no
player-facing prose lives in the code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from discord import Interaction, Locale, app_commands

import i18n
from cogs.replies import offer_choices
from launch import DISCORD_LIMITS

F = TypeVar("F", bound=Callable[..., object])


def label(key: str, *, fallback: str | None = None) -> app_commands.locale_str:
    """A translatable string whose default (English) text is the catalog's.

    ``fallback`` is used when the key is missing (e.g. a game added to the engine
    before its display name reached the catalog), so a new game never breaks sync.
    """
    text = i18n.text(key, i18n.DEFAULT) or fallback or key
    return app_commands.locale_str(text, key=key)


class CatalogTranslator(app_commands.Translator):
    """Answers discord.py's localisation requests from ``i18n``.

    Only languages the catalog has, other than the default, get a localisation;
    every other Discord locale falls back to the English default. A string without
    a catalog key (``extras["key"]``) is left untranslated.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate(string, locale)


def translate(string: app_commands.locale_str, locale: Locale | str) -> str | None:
    """The synchronous core of ``CatalogTranslator.translate``, reusable by tests."""
    key = string.extras.get("key")
    if not key:
        return None
    value = locale.value if isinstance(locale, Locale) else locale
    lang = i18n.normalize(value)
    # normalize() maps unknown languages to the default: only answer exact catalog languages.
    if lang == i18n.DEFAULT or not value.lower().startswith(lang.lower()):
        return None
    return i18n.text(key, lang)


def language_label(lang: str) -> app_commands.locale_str:
    """A catalog language as a choice reads: the catalog's own name for it, else the CLDR's."""
    return label(f"cmd.choice.language.{lang}", fallback=i18n.language_name(lang))


def offer_languages(option: str, languages: Sequence[str] | None = None) -> Callable[[F], F]:
    """Offer the catalog's languages (its folders, ``i18n.LOCALES`` by default) on ``option``:
    as fixed choices while there are at most 25 of them, then by autocomplete, which Discord
    does not cap, so a 26th catalog folder never makes the command tree invalid."""
    langs = list(i18n.LOCALES if languages is None else languages)
    if len(langs) <= DISCORD_LIMITS.choices:
        choices = [app_commands.Choice(name=language_label(lang), value=lang) for lang in langs]
        return app_commands.choices(**{option: choices})

    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        choices = [app_commands.Choice(name=n, value=v) for n, v in matching_languages(current, langs)]
        return await offer_choices(interaction, choices)

    return app_commands.autocomplete(**{option: complete})


def matching_languages(typed: str, languages: Sequence[str]) -> list[tuple[str, str]]:
    """(name, code) of the languages whose own name holds ``typed`` or whose code starts with it,
    at most 25: what the autocomplete of a long language list offers."""
    wanted = typed.strip().lower()
    named = [(i18n.language_name(lang), lang) for lang in languages]
    return [(n, v) for n, v in named if wanted in n.lower() or v.lower().startswith(wanted)][
        : DISCORD_LIMITS.choices
    ]
