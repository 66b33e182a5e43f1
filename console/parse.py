"""Reading console lines such as ``alice: /game new game:warchest``.

The console mirrors the slash commands: the same command paths and option names
(English, or the French names Discord shows French users, taken from the same
catalog keys), with ``option:value`` pairs whose values run to the next
``option:`` token. A line that cannot be read raises ``LineError`` carrying a
catalog message, so the console can explain it and go on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import i18n
from engine.text import Msg
from table.play import command_tree
from table.play.command_tree import CONSOLE, Command, Option, command_name, option_name


def commands() -> dict[tuple[str, ...], tuple[Option, ...]]:
    """Command path -> its options, in the order of the slash commands (the first may be given without
    its name): the commands the console offers, as ``table.play.command_tree`` describes them now."""
    return _commands_of(command_tree.COMMANDS)


@cache
def _commands_of(tree: tuple[Command, ...]) -> dict[tuple[str, ...], tuple[Option, ...]]:
    return {command.path: command.options_for(CONSOLE) for command in tree if CONSOLE in command.fronts}


_TRUE = {"true", "yes", "oui", "vrai", "1", "on"}
_FALSE = {"false", "no", "non", "faux", "0", "off"}
_LINE = re.compile(r"^\s*(?P<user>[^\s:/][^:/]*?)\s*:\s*(?P<command>/.*)$")
_LEADING_KEY = re.compile(r"^([^\W\d_]+):", re.UNICODE)


class LineError(Exception):
    """A line the console cannot read; ``msg`` says why, in catalog terms."""

    def __init__(self, key: str, **params: object) -> None:
        self.msg = Msg(key, dict(params))
        super().__init__(str(self.msg))


@dataclass(frozen=True)
class Line:
    """One parsed command: who, which command, which option values."""

    user: str
    path: tuple[str, ...]
    options: dict[str, object] = field(default_factory=dict)

    @property
    def command(self) -> str:
        return "/" + " ".join(self.path)


def _names(key: str, english: str) -> set[str]:
    """Every spelling of a command or option: its English name and its catalog translations."""
    found = {english.lower()}
    for lang in i18n.LOCALES:
        text = i18n.text(key, lang)
        if text:
            found.add(text.lower())
    return found


def _aliases() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Spelling (as a tuple of words) -> canonical command path."""
    return _aliases_of(command_tree.COMMANDS)


@cache
def _aliases_of(tree: tuple[Command, ...]) -> dict[tuple[str, ...], tuple[str, ...]]:
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for path in _commands_of(tree):
        spellings: list[set[str]] = [
            _names("cmd." + ".".join(path[: i + 1]) + ".name", word) for i, word in enumerate(path)
        ]
        combos: list[tuple[str, ...]] = [()]
        for names in spellings:
            combos = [(*c, n) for c in combos for n in names]
        for combo in combos:
            table[combo] = path
    return table


def _option_aliases(path: tuple[str, ...]) -> dict[str, str]:
    """Spelling -> canonical option name, for one command."""
    return _option_aliases_of(command_tree.COMMANDS, path)


@cache
def _option_aliases_of(tree: tuple[Command, ...], path: tuple[str, ...]) -> dict[str, str]:
    table: dict[str, str] = {}
    for spec in _commands_of(tree)[path]:
        for name in _names("cmd." + ".".join(path) + f".{spec.name}.name", spec.name):
            table[name] = spec.name
    return table


def command_list(locale: str = i18n.DEFAULT) -> str:
    return ", ".join(command_name(p, locale) for p in commands())


_COMMENT = re.compile(r"\s+#.*$")
_ANONYMOUS = {("clock",), ("clock", "advance"), ("clock", "set")}
"""Console commands that act as nobody in particular, typed without a name (``/clock advance 1d``,
``/clock set 2026-03-28 21:00``)."""


def parse_line(text: str, locale: str = i18n.DEFAULT) -> Line:
    """Parse ``user: /command [option:value ...]``; raises ``LineError``.

    Any spelling of a command is read; ``locale`` only chooses the names the refusals quote. A ``#``
    after a space starts a comment, as in the README's examples, so pasting them works.
    """
    text = _COMMENT.sub("", text)
    match = _LINE.match(text)
    if not match and text.strip().startswith("/"):
        match = _LINE.match("console: " + text.strip())
        anonymous = True
    else:
        anonymous = False
    if not match:
        raise LineError("console.bad_line", line=text.strip())
    user = match["user"].strip()
    words = match["command"][1:].split()
    path = None
    consumed = 0
    for size in (2, 1):
        key = tuple(w.lower() for w in words[:size])
        if len(key) == size and key in _aliases():
            path, consumed = _aliases()[key], size
            break
    if path is None:
        shown = "/" + " ".join(words[:2])
        raise LineError("console.unknown_command", command=shown, commands=command_list(locale))
    if anonymous and path not in _ANONYMOUS:
        raise LineError("console.bad_line", line=text.strip())
    parts = match["command"][1:].strip().split(None, consumed)
    rest = parts[consumed] if len(parts) > consumed else ""
    return Line(user=user, path=path, options=parse_options(path, rest.strip(), locale))


def parse_options(path: tuple[str, ...], text: str, locale: str = i18n.DEFAULT) -> dict[str, object]:
    """``key:value`` pairs (values run to the next known ``key:``), converted to their types."""
    specs = {spec.name: spec for spec in commands()[path]}
    command = command_name(path, locale)
    if not text:
        return _check_required(path, {}, locale)
    if not specs:
        raise LineError("console.no_options", command=command)
    aliases = _option_aliases(path)
    names = "|".join(sorted((re.escape(a) for a in aliases), key=len, reverse=True))
    token = re.compile(rf"(?:^|(?<=\s))({names}):", re.IGNORECASE)
    marks = list(token.finditer(text))
    raw: dict[str, str] = {}
    head = text[: marks[0].start()] if marks else text
    if head.strip():
        leading = _LEADING_KEY.match(head.strip())
        first = next(iter(specs.values()))
        if leading and (len(specs) > 1 or first.kind is not str):
            raise LineError(
                "console.unknown_option",
                command=command,
                option=leading[1],
                options=[option_name(path, name, locale) for name in specs],
            )
        raw[next(iter(specs))] = head.strip()
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        raw[aliases[mark[1].lower()]] = text[mark.end() : end].strip()
    values = {name: _convert(specs[name], raw[name], option_name(path, name, locale)) for name in raw}
    return _check_required(path, values, locale)


def _check_required(path: tuple[str, ...], values: dict[str, object], locale: str) -> dict[str, object]:
    for spec in commands()[path]:
        if spec.required and spec.name not in values:
            raise LineError(
                "console.missing_option",
                command=command_name(path, locale),
                option=option_name(path, spec.name, locale),
            )
    return values


def _convert(spec: Option, value: str, shown: str) -> object:
    """``value`` as the option's type; ``shown`` is the option's name as the refusal quotes it."""
    if spec.kind is int:
        try:
            return int(value)
        except ValueError:
            raise LineError("console.bad_number", option=shown, value=value) from None
    if spec.kind is bool:
        lowered = value.lower()
        if lowered in _TRUE or lowered == "":
            return True
        if lowered in _FALSE:
            return False
        raise LineError("console.bad_bool", option=shown, value=value)
    return value
