"""The message catalog: every player-facing string, in every language that has a catalog folder.

Catalogs are JSON files under ``i18n/locales/<lang>/``, one file per area (core, warchest,
table, commands...), merged at import; a key may appear in only one file. The languages the bot
speaks are the folders present (``LOCALES``): adding a language is adding a folder, named by a
Discord locale (``pl``, ``pt-BR``) or its language part. ``t()`` renders a key or an
``engine.text.Msg`` in a language, falling back to English key by key, then to the key itself,
so a missing translation never crashes.

A catalog value is a template (``"{player} draws a card."``) or, for a message whose
words depend on a number, an object of plural forms::

    "ch.ev.draws": {"one": "{player} draws {n} card.", "other": "{player} draws {n} cards.", "by": "n"}

The form is picked by the parameter named in ``"by"`` (``count`` when absent): a number,
or a list (its length). The forms are the CLDR plural categories (``zero``, ``one``, ``two``,
``few``, ``many``, ``other``) and the CLDR's rules (through Babel) say which one a number
takes in each language: English says "one" for 1 only, French for 0 and 1, Polish "few" for
2-4 and 22-24 but "many" for 5 and 25. An entry writes ``other`` and every category its
language uses for the counts 0 to 999; a category it leaves out (French "many", for millions)
reads as ``other``. A second number in the same sentence is written inline, in the ICU style
translators know: ``"{hits, plural, one {# hit} other {# hits}}"``, ``#`` being the number.
A list parameter reads "a, b, c" as ``{names}``, "a, b and c" as ``{names:and}`` and
"a, b or c" as ``{names:or}``, joined by the CLDR's list patterns of the language (or its own
``list.and`` / ``list.or`` entries where its house style differs from the CLDR's).
A word that a language elides before a vowel is written as a format spec, so that the rule follows
the value shown: a French ``{player:de}`` reads "de Bob" but "d'Alice", ``{waiting:que}`` "qu'Alice",
and ``{players:de:and}`` "d'Alice et Bob".

Discord locales map to the folders (``pt-BR`` to a folder ``pt-BR``, else ``pt``, else English), and so do the
slash commands' localisations and the ``/settings`` language choices (by autocomplete past Discord's 25
choices). A key a language lacks is read in English, with English grammar; a key lives in exactly one file, in
every language, with the same placeholders (a test checks this).

French is the first audience, so a message is written for the number it shows, never with "(s)"; the loader
refuses a plural category the language does not use. Decimals (ratings) go through ``i18n.decimal``: rounded
as Python rounds, written with the CLDR's decimal mark ("12.3", "12,3") and a true minus sign. The bot's
English has no serial comma (``{head} and {last}``), where the CLDR's ``en`` has one, so it spells its own
``list.and``; the table passes players, winners and player counts as lists. A French template never writes "de
{player}" (a test checks; the elisions are ``i18n.ELISIONS``). A ``Msg`` parameter written ``{structure:a}``
renders the key ``<key>.a`` when the catalog has it (``ch.structure.ma_extractor.a`` is "an Extractor", "un
Extracteur"); ``the`` and ``from`` are used the same way, and without that key the bare name is shown.

Public posts speak of players in the third person ("from their own deck"); games are named by their display
names (``table.game.<id>``), never by their ids; French texts name the French slash commands (``/partie
nouvelle``, ``/jouer``, ``/main``); there is one apostrophe, the straight ``'``. Tests check each of these.
"""

from __future__ import annotations

import json
import math
import string
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.core import UnknownLocaleError
from babel.lists import format_list
from babel.numbers import format_decimal

from engine.lexicon import PLAIN, Lexicon, Sources
from engine.text import Msg, PlayerRef

DEFAULT = "en"
PATH: tuple[Path, ...] = (Path(__file__).parent / "locales",)
"""Where catalog folders are looked for, first match wins (tests add a folder of their own)."""

Entry = str | dict[str, str]
"""A catalog value: a template, or plural forms (CLDR categories, ``other`` always, optional ``by``)."""

Names = Mapping[str, str] | Callable[[str], str] | None
"""How a ``PlayerRef`` becomes text: a mapping or function from id to display text (or the raw id)."""

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""The CLDR plural categories, in the CLDR's order; ``other`` is the one every language has."""
DEFAULT_SELECTOR = "count"
OWN_KEYS = frozenset({"list.and", "list.or"})
"""Keys a language only ever reads from its own catalog: English list punctuation would be wrong
in any other language, where the CLDR's patterns are right."""
ELISIONS: dict[str, dict[str, str]] = {"fr": {"de": "d'", "que": "qu'"}}
"""Per language, the words a template may put before a value as a format spec (``{player:de}``), and
their elided form before a vowel or a mute h. Another language writes the word as it is."""
ELIDING = frozenset(word for words in ELISIONS.values() for word in words)


def languages(path: Sequence[Path] | None = None) -> tuple[str, ...]:
    """The catalog folders found on ``path`` (``PATH`` by default): English first, then by name.

    A folder counts when it holds a ``.json`` file; its name must be a locale the CLDR knows, so a
    misspelt folder fails at start-up rather than sending players English.
    """
    found: set[str] = set()
    for root in PATH if path is None else path:
        if root.is_dir():
            found |= {d.name for d in root.iterdir() if d.is_dir() and any(d.glob("*.json"))}
    for lang in found:
        cldr(lang)
    return (DEFAULT, *sorted(found - {DEFAULT}))


@cache
def cldr(lang: str) -> Locale:
    """The CLDR locale of a catalog language: its plural rules, list patterns and number symbols."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise ValueError(f"catalog folder {lang!r} is not a language the CLDR knows") from None


LOCALES = languages()


def reload() -> None:
    """Read ``PATH`` again: the languages and their catalogs (after a test points it elsewhere)."""
    global LOCALES
    LOCALES = languages()
    catalog.cache_clear()
    _lexicon.cache_clear()
    _required.cache_clear()
    normalize.cache_clear()


def check(words: Iterable[Sources | None] = ()) -> None:
    """Load every language's catalog now, and the players' words of each game named by ``words``: a
    malformed entry or words file stops the bot at start-up, naming its key or file and what is wrong,
    instead of failing later in front of a player."""
    for lang in LOCALES:
        catalog(lang)
    for sources in words:
        lexicon(sources)


@lru_cache(maxsize=4096, typed=True)
def plural_form(number: float, lang: str) -> str:
    """The CLDR plural category of ``number`` in ``lang`` ("one", "few", "many", "other"...).

    French treats 0 and 1 (and anything below 2) as singular: "0 carte", "1 carte", "2 cartes";
    English only 1: "0 cards", "1 card", "2 cards"; Polish says "2 karty" (few) but "5 kart" (many).
    """
    return str(cldr(lang).plural_form(number))


@lru_cache(maxsize=256)
def normalize(locale: str | None) -> str:
    """Map a Discord locale ('fr', 'en-US', 'pt-BR'...) to a catalog language: the folder of that
    exact locale, else of its language part, else English."""
    if not locale:
        return DEFAULT
    return find(locale) or find(str(locale).replace("_", "-").split("-")[0]) or DEFAULT


def find(tag: str) -> str | None:
    """The catalog language ``tag`` names exactly ("FR", "pt_br" for a folder ``pt-BR``), or None."""
    wanted = tag.strip().replace("_", "-").lower()
    return next((lang for lang in LOCALES if lang.lower() == wanted), None)


def language_name(lang: str) -> str:
    """A language as its speakers write it, from the CLDR: "English", "Français", "Polski"."""
    name = cldr(lang).get_display_name(cldr(lang)) or lang
    return name[:1].upper() + name[1:]


def decimal(value: float, locale: str | None, *, digits: int = 1, signed: bool = False) -> str:
    """``value`` to ``digits`` decimals with the language's decimal mark ("12.3", "12,3"), no
    grouping, and a true minus sign; ``signed`` writes "+" before a positive value.

    Python rounds (as ``f"{value:.1f}"`` always has), the CLDR (through Babel) writes the symbols.
    """
    rounded = Decimal(f"{value:.{digits}f}")
    body = "0" + ("." + "0" * digits if digits else "")
    pattern = f"+{body};-{body}" if signed else body
    return format_decimal(rounded, pattern, locale=cldr(normalize(locale))).replace("-", "\u2212")


@cache
def _required(lang: str) -> frozenset[str]:
    """The forms an entry of ``lang`` must write: ``other``, and each category of a count to 999."""
    return frozenset({"other", *(plural_form(n, lang) for n in range(1000))})


def _check_forms(forms: Mapping[str, str], lang: str) -> None:
    """Raise unless ``forms`` holds every form ``lang`` needs and only categories it has."""
    needed, allowed = _required(lang), {"other", *cldr(lang).plural_form.tags}
    missing, extra = needed - forms.keys(), forms.keys() - allowed
    if missing or extra:
        raise ValueError(
            f"{lang} writes the forms {sorted(needed)} (may add {sorted(allowed - needed)});"
            f" missing {sorted(missing)}, unknown {sorted(extra)}"
        )


def _check_entry(key: str, value: Any, path: Path, lang: str) -> Entry:
    """``value`` if it is a well-formed entry; a malformed one fails on load, not in front of a player."""
    try:
        if isinstance(value, str):
            entry: Entry = value
        elif isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            entry = dict(value)
            _check_forms({k: v for k, v in entry.items() if k != "by"}, lang)
        else:
            raise ValueError("a template or an object of plural forms (and an optional 'by')")
        for _start, _end, _name, forms in _scan_all(entry):
            _check_forms(forms, lang)
        fields(entry)
    except ValueError as exc:
        raise ValueError(f"catalog key {key!r} in {path}: {exc}") from None
    return entry


def _scan_all(entry: Entry) -> Iterator[tuple[int, int, str, dict[str, str]]]:
    """Every inline plural block of an entry, nested ones included."""
    pending = variants(entry)
    while pending:
        for block in _inline_plurals(pending.pop()):
            pending.extend(block[3].values())
            yield block


def _folder(lang: str) -> Path | None:
    return next((root / lang for root in PATH if (root / lang).is_dir()), None)


@cache
def catalog(lang: str) -> dict[str, Entry]:
    """All keys of one language; raises if two files define the same key or a value is malformed."""
    merged: dict[str, Entry] = {}
    folder = _folder(lang)
    for path in sorted(folder.glob("*.json")) if folder else ():
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate catalog key {key!r} in {path}")
            merged[key] = _check_entry(key, value, path, lang)
    return merged


WORDS_FOLDER = "words"
"""The folder of a language's words files (``i18n/locales/<lang>/words/<game>.json``), which are not
messages: each maps a kind of word to the word of the action text and the forms players type for it."""


def lexicon(sources: Sources | None) -> Lexicon:
    """What players may type for one game's actions, in every language the bot reads (``LOCALES``,
    English first): the forms of ``sources`` found in each language's catalog entries and words file.

    Every language counts for every player (a French player's English word still reads), and a new
    language is read as soon as its folder is there: no list of languages or words lives in the code.
    A game without ``sources`` reads its action texts alone."""
    if sources is None:
        return PLAIN
    return _lexicon(sources, LOCALES)


@cache
def _lexicon(sources: Sources, langs: tuple[str, ...]) -> Lexicon:
    """``lexicon``, built once per game and set of languages (``reload`` forgets it)."""
    pairs: dict[str, list[tuple[str, str]]] = {}
    for lang in langs:
        entries = catalog(lang)
        for prefix, kind in sources.catalog:
            start = len(prefix) + 1
            for key, entry in entries.items():
                if key.startswith(prefix + ".") and "." not in key[start:] and isinstance(entry, str):
                    pairs.setdefault(kind, []).append((entry, key[start:]))
        folder = _folder(lang)
        path = folder / WORDS_FOLDER / f"{sources.file}.json" if folder else None
        if path is not None and path.is_file():
            for kind, form, word in _words_file(path, sources.kinds):
                pairs.setdefault(kind, []).append((form, word))
    return Lexicon({kind: tuple(dict.fromkeys(found)) for kind, found in pairs.items()})


def _words_file(path: Path, kinds: frozenset[str]) -> Iterator[tuple[str, str, str]]:
    """(kind, form, word) of each form a words file writes; a malformed file stops the bot at start-up
    (``check``), naming the file and the entry, rather than leaving players' words unread."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: an object of kinds of words ({sorted(kinds)})")
    for kind, words in data.items():
        if kind not in kinds:
            raise ValueError(f"{path}: unknown kind of words {kind!r} (known: {sorted(kinds)})")
        if isinstance(words, list):
            words = {"": words}
        if not isinstance(words, dict):
            raise ValueError(f"{path}: {kind!r} maps words of the action text to lists of forms")
        for word, forms in words.items():
            if not isinstance(forms, list) or not all(isinstance(f, str) and f.strip() for f in forms):
                raise ValueError(f"{path}: {kind}.{word} is not a list of forms")
            for form in forms:
                yield kind, form, word


def text(key: str, lang: str) -> str | None:
    """The plain template of ``key`` in ``lang`` (no fallback), or None if absent or plural."""
    value = catalog(lang).get(key)
    return value if isinstance(value, str) else None


# ---- reading templates ---------------------------------------------------------------------------


def variants(entry: Entry) -> list[str]:
    """Every template an entry holds: the value itself, or each of its plural forms."""
    if isinstance(entry, str):
        return [entry]
    return [entry[form] for form in CATEGORIES if form in entry]


@cache
def _inline_plurals(template: str) -> tuple[tuple[int, int, str, dict[str, str]], ...]:
    """Each ``{name, plural, one {...} other {...}}`` block: (start, end, name, forms)."""
    return tuple(_scan_plurals(template))


def _scan_plurals(template: str) -> Iterator[tuple[int, int, str, dict[str, str]]]:
    """Find the inline plural blocks by hand: ``str.format`` would read one as a broken placeholder.

    A block's forms may hold placeholders of their own (``{# hit in {zone}}``), so braces are counted.
    Raises ``ValueError`` on a block that is not closed or lacks a form (the catalog refuses to load).
    """
    pos = 0
    while (start := template.find("{", pos)) >= 0:
        head = template[start + 1 :].split(",", 2)
        if len(head) == 3 and head[0].strip().isidentifier() and head[1].strip() == "plural":
            name = head[0].strip()
            i = start + 1 + len(head[0]) + 1 + len(head[1]) + 1
            forms: dict[str, str] = {}
            while True:
                while i < len(template) and template[i].isspace():
                    i += 1
                if i < len(template) and template[i] == "}":
                    break
                open_at = template.find("{", i)
                if open_at < 0:
                    raise ValueError(f"unclosed plural block for {name!r}: {template!r}")
                form = template[i:open_at].strip()
                depth, j = 1, open_at + 1
                while depth:
                    if j >= len(template):
                        raise ValueError(f"unclosed plural block for {name!r}: {template!r}")
                    depth += {"{": 1, "}": -1}.get(template[j], 0)
                    j += 1
                forms[form] = template[open_at + 1 : j - 1]
                i = j
            if "other" not in forms or not forms.keys() <= set(CATEGORIES):
                raise ValueError(f"plural block for {name!r} needs 'other' and CLDR categories: {template!r}")
            yield start, i + 1, name, forms
            pos = i + 1
        else:
            pos = start + 1


def fields(entry: Entry) -> set[str]:
    """The parameter names an entry uses: placeholders, plural selectors, inline plural numbers.

    English and French must use the same ones (a test checks), whatever the forms look like.
    """
    found: set[str] = set()
    if isinstance(entry, dict):
        found.add(entry.get("by", DEFAULT_SELECTOR))
    pending = variants(entry)
    while pending:
        template = pending.pop()
        flat, last = [], 0
        for start, end, name, forms in _inline_plurals(template):
            found.add(name)
            pending.extend(forms.values())
            flat.append(template[last:start])
            last = end
        flat.append(template[last:])
        for part in flat:
            found |= {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(part) if f}
    return found


# ---- rendering -----------------------------------------------------------------------------------


class _Formatter(string.Formatter):
    """``str.format`` as templates need it: an unknown placeholder stays visible instead of raising,
    lists take ``:and`` / ``:or``, a message parameter takes the name of one of its forms
    (``{structure:a}`` renders ``<key>.a`` when the catalog has it), and a bad format spec falls
    back to the plain value rather than failing in front of a player."""

    def __init__(self, lang: str = DEFAULT) -> None:
        super().__init__()
        self.lang = lang

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key in kwargs:
            return kwargs[key]
        return _Verbatim("{" + str(key) + "}")

    def format_field(self, value: Any, format_spec: str) -> str:
        word, _sep, rest = format_spec.partition(":")
        if word in ELIDING and not isinstance(value, _Verbatim):
            return elide(word, self.format_field(value, rest), self.lang)
        if isinstance(value, (_List, _Noun)) or not format_spec:
            return format(value, format_spec)
        try:
            return format(value, format_spec)
        except (TypeError, ValueError):
            return str(value)


class _Verbatim(str):
    """A missing placeholder shown as written, whatever its format spec."""

    def __format__(self, spec: str) -> str:
        return str(self)[:-1] + (":" + spec if spec else "") + "}"


_FORMATTERS = {lang: _Formatter(lang) for lang in LOCALES}


def elide(word: str, shown: str, lang: str) -> str:
    """``word`` before ``shown`` as ``lang`` writes it: elided before a vowel or an h in French
    ("d'Alice", "d'Hugo", "qu'Yves", but "de Bob", "de Yann", "de <@123>"), else followed by a space."""
    elided = ELISIONS.get(lang, {}).get(word)
    if elided is not None and _opens_with_vowel(shown):
        return elided + shown
    return f"{word} {shown}"


def _opens_with_vowel(text: str) -> bool:
    """Whether ``text`` is read from a vowel sound: a vowel (accents aside), an h (most names' h is
    mute: Hugo, Hélène), or a y before a consonant (Yves, not Yann)."""
    letters = [unicodedata.normalize("NFD", c)[0].lower() for c in text[:2]]
    if not letters or not letters[0].isalpha():
        return False
    first = letters[0]
    if first == "y":
        return len(letters) > 1 and letters[1].isalpha() and letters[1] not in "aeiouy"
    return first in "aeiouh"


class _Noun:
    """A message parameter: its text, and its other forms on demand (``{x:a}``, ``{x:the}``...).

    An English "an Extractor" or a French "l'Usine" cannot be built from the bare name, so the
    catalog spells each form out as ``<key>.<form>``; a template asking for a form the catalog
    lacks gets the bare name.
    """

    def __init__(self, message: Msg, lang: str, names: Names) -> None:
        self.message = message
        self.lang = lang
        self.names = names

    def __str__(self) -> str:
        return t(self.message, self.lang, names=self.names)

    def __format__(self, spec: str) -> str:
        key = f"{self.message.key}.{spec}"
        if spec and (key in catalog(self.lang) or key in catalog(DEFAULT)):
            return t(Msg(key, self.message.params), self.lang, names=self.names)
        return str(self)


class _List:
    """A list parameter: ``{x}`` joins with commas, ``{x:and}`` / ``{x:or}`` end with the conjunction,
    by the language's own ``list.and`` / ``list.or`` entry if it has one, else the CLDR's patterns."""

    def __init__(self, items: Sequence[str], lang: str) -> None:
        self.items = [str(i) for i in items]
        self.lang = lang

    def __len__(self) -> int:
        return len(self.items)

    def __str__(self) -> str:
        return ", ".join(self.items)

    def __format__(self, spec: str) -> str:
        if spec not in ("and", "or") or len(self.items) < 2:
            return str(self)
        own = catalog(self.lang).get(f"list.{spec}")
        if own is None:
            return format_list(self.items, "standard" if spec == "and" else "or", locale=cldr(self.lang))
        head = ", ".join(self.items[:-1])
        return t(f"list.{spec}", self.lang, head=head, last=self.items[-1])


def join(items: Sequence[str], locale: str | None, conjunction: str = "and") -> str:
    """``["a", "b", "c"]`` -> "a, b and c" (or "a, b et c"...); ``conjunction`` is "and" or "or"."""
    return format(_List(items, normalize(locale)), conjunction)


def _number(value: Any) -> float | None:
    """The number a plural form is chosen by: numbers, lists (their length), numeric strings."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, (_List, list, tuple)):
        return len(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _form(forms: Mapping[str, str], value: Any, lang: str) -> str:
    """The form ``value`` calls for in ``lang``; ``other`` for a category the entry leaves out."""
    number = _number(value)
    if isinstance(number, float) and not math.isfinite(number):
        number = None  # "nan" or "inf" typed by a player: no category, and no crash
    category = "other" if number is None else plural_form(number, lang)
    return forms.get(category, forms["other"])


def _pick(entry: Entry, params: Mapping[str, Any], lang: str) -> str:
    if isinstance(entry, str):
        return entry
    return _form(entry, params.get(entry.get("by", DEFAULT_SELECTOR)), lang)


def _expand(template: str, params: Mapping[str, Any], lang: str) -> str:
    """Replace inline plural blocks by the form their number calls for (``#`` is the number)."""
    out, last = [], 0
    for start, end, name, forms in _inline_plurals(template):
        value = params.get(name)
        chosen = _form(forms, value, lang)
        shown = str(len(value)) if isinstance(value, (_List, list, tuple)) else str(value)
        out += [template[last:start], _expand(chosen, params, lang).replace("#", shown)]
        last = end
    out.append(template[last:])
    return "".join(out)


def t(
    key: str | Msg,
    locale: str | None = None,
    /,
    *,
    names: Names = None,
    **params: Any,
) -> str:
    """Render ``key`` (or a ``Msg``) in ``locale``.

    ``names`` turns a ``PlayerRef`` into display text (a name, or a mention on
    Discord); without it the raw id is shown.
    """
    if isinstance(key, Msg):
        params = {**key.params, **params}
        key = key.key
    lang = normalize(locale)
    entry = catalog(lang).get(key)
    if entry is None and key not in OWN_KEYS:
        # An English sentence standing in for a missing translation keeps English grammar: its
        # forms and lists follow English rules (a Russian "21" is "one", English "21 cards" is not).
        entry, lang = catalog(DEFAULT).get(key), DEFAULT
    if entry is None:
        return key
    reader = normalize(locale)
    rendered = {k: _value(v, reader, names, lang) for k, v in params.items()}
    formatter = _FORMATTERS.get(lang) or _Formatter(lang)
    return formatter.vformat(_expand(_pick(entry, rendered, lang), rendered, lang), (), rendered)


def _value(v: Any, lang: str, names: Names, grammar: str | None = None) -> Any:
    """A parameter ready for a template: named things in the reader's ``lang``, lists joined in the
    ``grammar`` of the sentence they sit in (``lang`` unless the sentence fell back to English)."""
    if isinstance(v, Msg):
        return _Noun(v, lang, names)
    if isinstance(v, PlayerRef):
        if names is None:
            return v.id
        if callable(names):
            return names(v.id)
        return names.get(v.id, v.id)
    if isinstance(v, (list, tuple)):
        return _List([str(_value(x, lang, names)) for x in v], grammar or lang)
    return v
