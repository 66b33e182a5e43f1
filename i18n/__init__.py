"""The message catalog: every player-facing string, in English and French.

Catalogs are JSON files under ``i18n/locales/<lang>/``, one file per area
(core, warchest, table, commands...), merged at import; a key may appear in only
one file. ``t()`` renders a key or an ``engine.text.Msg`` in a language, falling
back to English, then to the key itself, so a missing translation never crashes.

A catalog value is a template (``"{player} draws a card."``) or, for a message whose
words depend on a number, an object of plural forms::

    "ch.ev.draws": {"one": "{player} draws {n} card.", "other": "{player} draws {n} cards.", "by": "n"}

The form is picked by the parameter named in ``"by"`` (``count`` when absent): a number,
or a list (its length). English says "one" for 1 only; French for 0 and 1, as French
grammar has it. A second number in the same sentence is written inline, in the ICU
style translators know: ``"{hits, plural, one {# hit} other {# hits}}"``, ``#`` being
the number. A list parameter reads "a, b, c" as ``{names}``, "a, b and c" as
``{names:and}`` and "a, b or c" as ``{names:or}``, with each language's conjunction.
A word that a language elides before a vowel is written as a format spec, so that the rule follows
the value shown: a French ``{player:de}`` reads "de Bob" but "d'Alice", ``{waiting:que}`` "qu'Alice",
and ``{players:de:and}`` "d'Alice et Bob".
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from engine.text import Msg, PlayerRef

LOCALES = ("en", "fr")
DEFAULT = "en"
_ROOT = Path(__file__).parent / "locales"

Entry = str | dict[str, str]
"""A catalog value: a template, or plural forms (``one``, ``other``, optional ``by``)."""

Names = Mapping[str, str] | Callable[[str], str] | None
"""How a ``PlayerRef`` becomes text: a mapping or function from id to display text (or the raw id)."""

FORMS = ("one", "other")
DEFAULT_SELECTOR = "count"
ELISIONS: dict[str, dict[str, str]] = {"fr": {"de": "d'", "que": "qu'"}}
"""Per language, the words a template may put before a value as a format spec (``{player:de}``), and
their elided form before a vowel or a mute h. Another language writes the word as it is."""
ELIDING = frozenset(word for words in ELISIONS.values() for word in words)


def plural_form(number: float, lang: str) -> str:
    """The plural category of ``number`` in ``lang``: ``"one"`` or ``"other"``.

    French treats 0 and 1 (and anything below 2) as singular: "0 carte", "1 carte", "2 cartes";
    English only 1: "0 cards", "1 card", "2 cards".
    """
    if lang == "fr":
        return "one" if abs(number) < 2 else "other"
    return "one" if number == 1 else "other"


def normalize(locale: str | None) -> str:
    """Map a Discord locale ('fr', 'en-US', 'en-GB'...) to a catalog language."""
    if not locale:
        return DEFAULT
    lang = str(locale).split("-")[0].split("_")[0].lower()
    return lang if lang in LOCALES else DEFAULT


def _check_entry(key: str, value: Any, path: Path) -> Entry:
    """``value`` if it is a well-formed entry; a malformed one fails on load, not in front of a player."""
    entry: Entry | None = None
    if isinstance(value, str):
        entry = value
    elif isinstance(value, dict):
        allowed = {*FORMS, "by"}
        if set(FORMS) <= value.keys() <= allowed and all(isinstance(v, str) for v in value.values()):
            entry = dict(value)
    if entry is None:
        raise ValueError(f"catalog key {key!r} in {path}: a template or {{'one', 'other'[, 'by']}} of texts")
    try:
        fields(entry)
    except ValueError as exc:
        raise ValueError(f"catalog key {key!r} in {path}: {exc}") from None
    return entry


@cache
def catalog(lang: str) -> dict[str, Entry]:
    """All keys of one language; raises if two files define the same key or a value is malformed."""
    merged: dict[str, Entry] = {}
    for path in sorted((_ROOT / lang).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key in merged:
                raise ValueError(f"duplicate catalog key {key!r} in {path}")
            merged[key] = _check_entry(key, value, path)
    return merged


def text(key: str, lang: str) -> str | None:
    """The plain template of ``key`` in ``lang`` (no fallback), or None if absent or plural."""
    value = catalog(lang).get(key)
    return value if isinstance(value, str) else None


# ---- reading templates ---------------------------------------------------------------------------


def variants(entry: Entry) -> list[str]:
    """Every template an entry holds: the value itself, or each of its plural forms."""
    if isinstance(entry, str):
        return [entry]
    return [entry[form] for form in FORMS]


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
            if set(forms) != set(FORMS):
                raise ValueError(f"plural block for {name!r} needs exactly one/other: {template!r}")
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
    """A list parameter: ``{x}`` joins with commas, ``{x:and}`` / ``{x:or}`` end with the conjunction."""

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


def _pick(entry: Entry, params: Mapping[str, Any], lang: str) -> str:
    if isinstance(entry, str):
        return entry
    number = _number(params.get(entry.get("by", DEFAULT_SELECTOR)))
    return entry["other" if number is None else plural_form(number, lang)]


def _expand(template: str, params: Mapping[str, Any], lang: str) -> str:
    """Replace inline plural blocks by the form their number calls for (``#`` is the number)."""
    out, last = [], 0
    for start, end, name, forms in _inline_plurals(template):
        value = params.get(name)
        number = _number(value)
        chosen = forms["other" if number is None else plural_form(number, lang)]
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
    entry = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if entry is None:
        return key
    rendered = {k: _value(v, lang, names) for k, v in params.items()}
    formatter = _FORMATTERS.get(lang) or _Formatter(lang)
    return formatter.vformat(_expand(_pick(entry, rendered, lang), rendered, lang), (), rendered)


def _value(v: Any, lang: str, names: Names) -> Any:
    if isinstance(v, Msg):
        return _Noun(v, lang, names)
    if isinstance(v, PlayerRef):
        if names is None:
            return v.id
        if callable(names):
            return names(v.id)
        return names.get(v.id, v.id)
    if isinstance(v, (list, tuple)):
        return _List([str(_value(x, lang, names)) for x in v], lang)
    return v
