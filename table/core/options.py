"""The options text of /game new: ``"key=value key=value"`` checked against a game's specs.

Every mistake gets a message that names the faulty word and lists what would be accepted,
since players type this by hand.

An option's value runs to the next ``key=`` word, so a free-text option (one without a list
of choices, such as a Batailles map) may hold spaces and line breaks: ``custom_map=. . f/. . .``
or a whole map file. An option with choices takes one word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import i18n
from engine.contract import OptionSpec
from engine.text import Msg
from table.core.errors import BadOptions
from table.core.text import has_key

MAX_SEED = 2**63 - 1
"""The largest seed a table accepts: it must fit the stores' 64-bit signed integer column."""
_DIGITS = re.compile(r"[0-9]{1,19}")
_SHOWN = 40
_WORD = re.compile(r"\S+")


def option_segments(text: str | None) -> list[str]:
    """The options in ``text``: each starts at a word holding ``=`` and runs, with its spaces and
    line breaks, to the next such word. A word before any of them stands alone."""
    spans: list[list[int]] = []
    for m in _WORD.finditer(text or ""):
        if "=" in m.group() or not spans:
            spans.append([m.start(), m.end()])
        else:
            spans[-1][1] = m.end()
    return [(text or "")[start:end] for start, end in spans]


def _shown(value: str) -> str:
    """A typed value quoted back in a message, shortened so a pasted page cannot flood the reply."""
    return value if len(value) <= _SHOWN else value[: _SHOWN - 1] + "…"


def parse_options(
    text: str | None, specs: Sequence[OptionSpec], *, game: Msg | str, table_options: Sequence[str] = ()
) -> dict[str, str]:
    """Every option of the game with its value: the typed one, else the default.

    ``game`` is the game's display name, as the refusals show it; ``table_options`` the options every
    table takes (``seed``, ``remind``...), read before and named too when an option is unknown.
    """
    by_name = {spec.name.lower(): spec for spec in specs}
    chosen: dict[str, str] = {}
    for segment in option_segments(text):
        word = segment.split(maxsplit=1)[0]
        more = segment[len(word) :]
        key, sep, value = word.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not key or not value:
            raise BadOptions("table.error.bad_option_syntax", text=word)
        spec = by_name.get(key)
        if spec is None:
            known = [*by_name, *table_options]
            if not known:
                raise BadOptions("table.error.no_options", game=game, option=key)
            raise BadOptions("table.error.unknown_option", game=game, option=key, options=", ".join(known))
        if spec.name in chosen:
            raise BadOptions("table.error.duplicate_option", option=spec.name)
        if spec.choices:
            if more.strip():
                raise BadOptions("table.error.bad_option_syntax", text=more.split()[0])
            match = next((c for c in spec.choices if c.lower() == value.lower()), None)
            if match is None:
                raise BadOptions(
                    "table.error.bad_option_value",
                    option=spec.name,
                    value=value,
                    choices=", ".join(spec.choices),
                )
            value = match
        else:
            value = (value + more).strip()
        chosen[spec.name] = value
    return {spec.name: chosen.get(spec.name, spec.default) for spec in specs}


def take_seed(text: str | None) -> tuple[int | None, str]:
    """Pull the table-level ``seed=N`` out of the options text (the rest keeps its spacing).

    Any game accepts it: a fixed seed deals the same bags, dice and draws again, so a
    scripted game (a tutorial, a bug report, a tournament replay) plays out identically.
    """
    seed: int | None = None
    rest: list[str] = []
    for segment in option_segments(text):
        key, sep, value = segment.partition("=")
        if sep and key.strip().lower() == "seed":
            digits = value.strip()
            if not _DIGITS.fullmatch(digits) or int(digits) > MAX_SEED:
                raise BadOptions("table.error.bad_seed", value=_shown(digits), max=MAX_SEED)
            seed = int(digits)
        else:
            rest.append(segment)
    return seed, " ".join(rest)


def format_options(options: dict[str, str]) -> str:
    """The canonical text form, which ``parse_options`` reads back."""
    return " ".join(f"{k}={v}" for k, v in options.items())


def option_words(game: str, specs: Sequence[OptionSpec], options: dict[str, str], locale: str) -> str:
    """``options`` as players read them, a phrase each (``table.option.<game>.<name>.<value>``, or
    ``table.option.<game>.<name>`` with the ``value`` of a free option), joined as a list.

    An empty free option is left out, and so is an option that another one given replaces. A game
    whose catalog has no words for an option shows it as typed."""
    given = {spec.name: options.get(spec.name, spec.default) for spec in specs}
    set_aside = {spec.replaces for spec in specs if spec.replaces and given[spec.name]}
    phrases = []
    for spec in specs:
        value = given[spec.name]
        if not value or spec.name in set_aside:
            continue
        key = f"table.option.{game}.{spec.name}"
        if not has_key(f"{key}.{value}" if spec.choices else key):
            phrases.append(f"{spec.name}={value}")
        elif spec.choices:
            phrases.append(i18n.t(f"{key}.{value}", locale))
        else:
            phrases.append(i18n.t(key, locale, value=int(value) if value.isdigit() else value))
    return i18n.t("table.options.list", locale, options=phrases) if phrases else ""
