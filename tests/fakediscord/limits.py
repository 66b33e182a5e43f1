"""Discord's limits on application command definitions, checked offline.

discord.py checks only some of them (name pattern, subcommand count, 100 commands) and silently accepts
the rest, which Discord then refuses at sync time, in production, with the whole command list. Feed
`check_commands` what `tree.sync()` would send::

    problems = check_commands([c.to_dict(tree) for c in tree.get_commands()])
    assert problems == []

Each problem is one readable sentence naming the command, option or choice at fault.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any

import discord

MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_COMMAND_CHARS = 8000
MAX_SLASH_COMMANDS = 100
MAX_CONTEXT_COMMANDS = 5
MAX_LENGTH_BOUND = 6000

CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
VALUE_TYPES = {3, 4, 5, 6, 7, 8, 9, 10, 11}
CHOICE_TYPES = {STRING, INTEGER, NUMBER}

LOCALES = frozenset(locale.value for locale in discord.Locale)
# Scripts the name pattern admits besides letters and numbers (\p{sc=Deva}, \p{sc=Thai}).
_EXTRA_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x0E00, 0x0E7F))


def _name_char_ok(ch: str) -> bool:
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    return any(lo <= ord(ch) <= hi for lo, hi in _EXTRA_SCRIPTS)


def name_problem(name: Any, *, slash: bool = True) -> str | None:
    """Why `name` is not a valid command or option name, or None.

    Slash command and option names follow `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` and must
    use the lower-case form of any letter that has one; context-menu names only need 1-32 characters.
    """
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        length = len(name) if isinstance(name, str) else "no"
        return f"must be 1-{MAX_NAME} characters (has {length})"
    if not slash:
        return None
    bad = sorted({ch for ch in name if not _name_char_ok(ch)})
    if bad:
        return f"contains characters not allowed in names: {''.join(bad)!r}"
    upper = sorted({ch for ch in name if ch != ch.lower()})
    if upper:
        return f"must be lower case (has {''.join(upper)!r})"
    return None


def _text_problem(text: Any, low: int, high: int) -> str | None:
    if not isinstance(text, str) or not low <= len(text) <= high:
        length = len(text) if isinstance(text, str) else "no"
        return f"must be {low}-{high} characters (has {length})"
    return None


class _Checker:
    """Walks one command, collecting problems and counting the characters Discord counts."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.chars = 0

    def add(self, where: str, problem: str) -> None:
        self.problems.append(f"{where}: {problem}")

    def count(self, text: Any) -> None:
        if text is not None:
            self.chars += len(str(text))

    def localisations(self, where: str, obj: dict[str, Any], *, slash: bool, has_description: bool) -> None:
        for key, limit_name in (("name_localizations", True), ("description_localizations", False)):
            table = obj.get(key) or {}
            if not isinstance(table, dict):
                self.add(where, f"{key} must be an object")
                continue
            for locale, text in table.items():
                self.count(text)
                if locale not in LOCALES:
                    self.add(where, f"{key} uses unknown locale {locale!r}")
                if limit_name:
                    problem = name_problem(text, slash=slash)
                    if problem:
                        self.add(where, f"name in {locale} {problem}")
                elif has_description:
                    problem = _text_problem(text, 1, MAX_DESCRIPTION)
                    if problem:
                        self.add(where, f"description in {locale} {problem}")

    def named(
        self, where: str, obj: dict[str, Any], *, slash: bool = True, has_description: bool = True
    ) -> None:
        """Name, description and their localisations of a command or an option."""
        self.count(obj.get("name"))
        problem = name_problem(obj.get("name"), slash=slash)
        if problem:
            self.add(where, f"name {problem}")
        description = obj.get("description", "")
        self.count(description)
        if has_description:
            problem = _text_problem(description, 1, MAX_DESCRIPTION)
            if problem:
                self.add(where, f"description {problem}")
        elif description:
            self.add(where, "context-menu commands must have an empty description")
        self.localisations(where, obj, slash=slash, has_description=has_description)

    def options(self, where: str, options: list[dict[str, Any]], depth: int) -> None:
        """`depth` 0: a command's options; 1: a group's subcommands; 2: a subcommand's options."""
        if len(options) > MAX_OPTIONS:
            what = "subcommands" if depth == 1 else "options"
            self.add(where, f"has {len(options)} {what} (limit {MAX_OPTIONS})")
        duplicates = sorted(str(n) for n, k in Counter(o.get("name") for o in options).items() if k > 1)
        if duplicates:
            self.add(where, f"repeats option names {duplicates}")
        kinds = [o.get("type") for o in options]
        nested = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
        if any(nested) and not all(nested):
            self.add(where, "mixes subcommands with ordinary options")
        seen_optional = False
        for option in options:
            kind = option.get("type")
            label = (
                f"{where} {option.get('name')}"
                if kind in (1, 2)
                else f"{where}, option {option.get('name')!r}"
            )
            self.named(label, option)
            if kind == SUB_COMMAND_GROUP:
                if depth != 0:
                    self.add(label, "subcommand groups cannot be nested (one level of nesting only)")
                subs = option.get("options") or []
                if not subs:
                    self.add(label, "a subcommand group needs at least one subcommand")
                self.options(label, subs, 1)
            elif kind == SUB_COMMAND:
                if depth == 2:
                    self.add(label, "subcommands cannot be nested this deep")
                self.options(label, option.get("options") or [], 2)
            elif kind in VALUE_TYPES:
                if depth == 1:
                    self.add(label, "a subcommand group may only contain subcommands")
                if option.get("required"):
                    if seen_optional:
                        self.add(label, "required options must come before optional ones")
                else:
                    seen_optional = True
                self.value_option(label, option)
            else:
                self.add(label, f"unknown option type {kind!r}")

    def value_option(self, where: str, option: dict[str, Any]) -> None:
        kind = option["type"]
        choices = option.get("choices") or []
        if choices and kind not in CHOICE_TYPES:
            self.add(where, "only string, integer and number options may have choices")
        if choices and option.get("autocomplete"):
            self.add(where, "cannot have both choices and autocomplete")
        if option.get("autocomplete") and kind not in CHOICE_TYPES:
            self.add(where, "only string, integer and number options may autocomplete")
        if len(choices) > MAX_CHOICES:
            self.add(where, f"has {len(choices)} choices (limit {MAX_CHOICES})")
        for choice in choices:
            self.choice(where, kind, choice)
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None or high is not None) and kind not in (INTEGER, NUMBER):
            self.add(where, "min_value/max_value only apply to integer and number options")
        if low is not None and high is not None and low > high:
            self.add(where, f"min_value {low} is above max_value {high}")
        low, high = option.get("min_length"), option.get("max_length")
        if (low is not None or high is not None) and kind != STRING:
            self.add(where, "min_length/max_length only apply to string options")
        for key, bound, floor in (("min_length", low, 0), ("max_length", high, 1)):
            if bound is not None and not floor <= bound <= MAX_LENGTH_BOUND:
                self.add(where, f"{key} must be {floor}-{MAX_LENGTH_BOUND} (is {bound})")
        if low is not None and high is not None and low > high:
            self.add(where, f"min_length {low} is above max_length {high}")

    def choice(self, where: str, kind: int, choice: dict[str, Any]) -> None:
        name, value = choice.get("name"), choice.get("value")
        label = f"{where}, choice {name!r}"
        self.count(name)
        self.count(value)
        problem = _text_problem(name, 1, MAX_CHOICE_NAME)
        if problem:
            self.add(label, f"name {problem}")
        for locale, text in (choice.get("name_localizations") or {}).items():
            self.count(text)
            if locale not in LOCALES:
                self.add(label, f"name_localizations uses unknown locale {locale!r}")
            problem = _text_problem(text, 1, MAX_CHOICE_NAME)
            if problem:
                self.add(label, f"name in {locale} {problem}")
        if kind == STRING:
            if not isinstance(value, str):
                self.add(label, f"value of a string option must be a string (is {value!r})")
            elif len(value) > MAX_CHOICE_VALUE:
                self.add(label, f"value must be at most {MAX_CHOICE_VALUE} characters (has {len(value)})")
        elif kind == INTEGER and (isinstance(value, bool) or not isinstance(value, int)):
            self.add(label, f"value of an integer option must be an integer (is {value!r})")
        elif kind == NUMBER and (isinstance(value, bool) or not isinstance(value, int | float)):
            self.add(label, f"value of a number option must be a number (is {value!r})")


def _check_command(command: dict[str, Any]) -> list[str]:
    kind = command.get("type", CHAT_INPUT)
    slash = kind == CHAT_INPUT
    where = f"/{command.get('name')}" if slash else f"context menu {command.get('name')!r}"
    checker = _Checker()
    checker.named(where, command, slash=slash, has_description=slash)
    options = command.get("options") or []
    if slash:
        checker.options(where, options, 0)
    elif options:
        checker.add(where, "context-menu commands take no options")
    if checker.chars > MAX_COMMAND_CHARS:
        checker.add(
            where,
            f"has {checker.chars} characters in names, descriptions, choices and localisations "
            f"(limit {MAX_COMMAND_CHARS})",
        )
    return checker.problems


def check_commands(payloads: list[dict[str, Any]]) -> list[str]:
    """Every way these command definitions break Discord's limits; an empty list when they are fine."""
    problems: list[str] = []
    by_type = Counter(p.get("type", CHAT_INPUT) for p in payloads)
    if by_type[CHAT_INPUT] > MAX_SLASH_COMMANDS:
        problems.append(f"{by_type[CHAT_INPUT]} slash commands (limit {MAX_SLASH_COMMANDS})")
    for kind, label in ((USER_COMMAND, "user"), (MESSAGE_COMMAND, "message")):
        if by_type[kind] > MAX_CONTEXT_COMMANDS:
            problems.append(f"{by_type[kind]} {label} context-menu commands (limit {MAX_CONTEXT_COMMANDS})")
    names = Counter((p.get("type", CHAT_INPUT), p.get("name")) for p in payloads)
    for (_, name), count in sorted(names.items(), key=lambda item: str(item[0])):
        if count > 1:
            problems.append(f"command name {name!r} is defined {count} times")
    for payload in payloads:
        problems.extend(_check_command(payload))
    return problems
