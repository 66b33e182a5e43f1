"""The bot's commands, described once for both front ends.

Discord's slash commands (``cogs/``) and the console's lines (``console/``) are two ways of typing the
same commands. This module says which commands there are, in what order, with which options, and which
front end offers each; the catalog keys of their names and descriptions follow from their paths
(``cmd.game.new.name``, ``cmd.game.new.desc``, ``cmd.game.new.players.name``). It is the one source of
a command: the cogs name, describe and localise each slash command and its options from its entry
(``cogs.slash.command("game.new")``), the console reads its lines with it and finds each line's handler
by its path (``console.commands``), and ``/game help`` and the console's help are written from it.
Adding a command is an entry here (and its catalog keys) and a handler in each front end that offers
it; a handler without an entry fails at import, an entry without a handler fails the suite.

It lives in the table layer, below both front ends, and imports nothing of Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import i18n
from table.core.text import split

DISCORD = "discord"
CONSOLE = "console"
FRONTS = frozenset({DISCORD, CONSOLE})

SECTIONS = ("lobby", "play", "end", "league", "more", "console")
"""The help's sections, in the order shown (catalog keys ``help.section.<id>``)."""


@dataclass(frozen=True)
class Option:
    """One option of a command: the console converts its value to ``kind`` (``str``, ``int`` or ``bool``);
    Discord's own types (a user, an attached file) are the cogs' business. ``optional_in`` names the
    front ends where a ``required`` option may be left out (the console lists the legal moves for a
    ``/play`` without an action)."""

    name: str
    kind: type = str
    required: bool = False
    fronts: frozenset[str] = FRONTS
    optional_in: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Command:
    """A command path (``("game", "new")`` is ``/game new``), its options in the slash command's order,
    the help section it belongs to, and the front ends that offer it."""

    path: tuple[str, ...]
    options: tuple[Option, ...] = ()
    section: str = "more"
    fronts: frozenset[str] = FRONTS

    def key(self, suffix: str) -> str:
        """The catalog key ``cmd.<path>.<suffix>``: ``name``, ``desc``, or ``<option>.name``."""
        return "cmd." + ".".join((*self.path, suffix))

    def options_for(self, front: str) -> tuple[Option, ...]:
        """The options ``front`` offers, ``required`` as that front end has it."""
        return tuple(
            replace(option, required=False) if front in option.optional_in else option
            for option in self.options
            if front in option.fronts
        )


_ONLY_DISCORD = frozenset({DISCORD})
_ONLY_CONSOLE = frozenset({CONSOLE})

COMMANDS: tuple[Command, ...] = (
    Command(
        ("game", "new"),
        (
            Option("game", required=True),
            Option("players", int),
            Option("options"),
            Option("thread", bool),  # the console reads it and says it has a single channel
            Option("map_file", fronts=_ONLY_DISCORD),  # an attached text file
            Option("bots", int),
            Option("level"),
        ),
        section="lobby",
    ),
    Command(("game", "join"), (Option("team", int),), section="lobby"),
    Command(("game", "leave"), section="lobby"),
    Command(("game", "addbot"), (Option("level"),), section="lobby"),
    Command(("game", "removebot"), section="lobby"),
    Command(("game", "kick"), (Option("player", required=True),), section="lobby"),
    Command(("game", "start"), section="lobby"),
    Command(("play",), (Option("action", required=True, optional_in=_ONLY_CONSOLE),), section="play"),
    Command(("hand",), section="play"),
    Command(("game", "undo"), section="play"),
    Command(("game", "board"), (Option("details", bool), Option("text", bool)), section="play"),
    Command(("game", "status"), section="play"),
    Command(("game", "log"), (Option("page", int),), section="play"),
    Command(("game", "replay"), section="play"),
    Command(("game", "why"), section="play"),
    Command(("game", "hint"), section="play"),
    Command(("game", "draw"), section="end"),
    Command(("game", "resign"), section="end"),
    Command(("game", "abort"), section="end"),
    Command(("game", "end"), (Option("winner"),), section="end"),
    Command(("game", "unrate"), (Option("game", required=True),), section="end"),
    Command(
        ("league", "new"),
        (
            Option("game", required=True),
            Option("format"),
            Option("rounds", int),
            Option("round_length"),
            Option("players", int),
            Option("options"),
            Option("name"),
        ),
        section="league",
    ),
    Command(("league", "join"), section="league"),
    Command(("league", "leave"), section="league"),
    Command(("league", "start"), section="league"),
    # Discord cannot run a group of subcommands by itself: there it is /league status.
    Command(("league",), section="league", fronts=_ONLY_CONSOLE),
    Command(("league", "status"), section="league"),
    Command(("league", "standings"), section="league"),
    Command(("league", "kick"), (Option("player", required=True),), section="league"),
    Command(("league", "end"), section="league"),
    Command(("league", "history"), section="league"),
    Command(("game", "rules"), (Option("game"), Option("topic"))),
    Command(("game", "help")),
    Command(("games",), (Option("card", bool),)),
    Command(("leaderboard",), (Option("game"), Option("page", int))),
    Command(("history",), (Option("player"), Option("game"), Option("page", int))),
    Command(("stats",), (Option("player"), Option("game"), Option("public", bool))),
    Command(
        ("notify",),
        (Option("dm", bool), Option("text", bool), Option("timezone"), Option("quiet"), Option("remind")),
    ),
    Command(("away",), (Option("for"),)),
    Command(
        ("settings",),
        (
            Option("language"),
            Option("remind"),
            Option("deadline"),
            Option("on_deadline"),
            Option("games_channel"),  # a channel of the server (on Discord, picked as one)
            Option("games_list", bool),
        ),
    ),
    # The console's own: a button of the channel's latest posts, pressed by name (``/press undo_accept``),
    # and time, which moves only when told, so a reminder or a deadline can be seen at once.
    Command(("press",), (Option("button", required=True),), section="console", fronts=_ONLY_CONSOLE),
    Command(("clock",), section="console", fronts=_ONLY_CONSOLE),
    Command(("clock", "advance"), (Option("by", required=True),), section="console", fronts=_ONLY_CONSOLE),
    Command(("clock", "set"), (Option("at", required=True),), section="console", fronts=_ONLY_CONSOLE),
)
"""Every command of the bot, in the order the help lists them."""

GROUPS = frozenset(c.path[0] for c in COMMANDS if len(c.path) > 1 and c.fronts & {DISCORD})
"""Top-level Discord names that are groups of subcommands (``/game``), not commands themselves."""


def commands_for(front: str) -> tuple[Command, ...]:
    """The commands ``front`` offers, in the help's order."""
    return tuple(c for c in COMMANDS if front in c.fronts)


_BY_PATH = {c.path: c for c in COMMANDS}


def find(path: str, front: str) -> Command:
    """The command of dotted ``path`` (``"game.new"``) that ``front`` offers: how a front end's handler
    names the entry it implements, so a handler for a command the tree lacks fails at import."""
    command = _BY_PATH.get(tuple(path.split(".")))
    if command is None or front not in command.fronts:
        raise LookupError(f"/{path.replace('.', ' ')} is no {front} command of the command tree")
    return command


def spelled(key: str, english: str, locale: str) -> str:
    """A command or option name as ``locale`` spells it (the name Discord shows that language)."""
    return i18n.text(key, i18n.normalize(locale)) or english


def command_name(path: tuple[str, ...], locale: str = i18n.DEFAULT) -> str:
    """``("game", "new")`` -> "/game new", or "/partie nouvelle" in French."""
    words = [spelled("cmd." + ".".join(path[: i + 1]) + ".name", w, locale) for i, w in enumerate(path)]
    return "/" + " ".join(words)


def option_name(path: tuple[str, ...], option: str, locale: str = i18n.DEFAULT) -> str:
    """An option of a command as ``locale`` spells it: "players", or "joueurs" in French."""
    return spelled("cmd." + ".".join(path) + f".{option}.name", option, locale)


def usage(command: Command, front: str, locale: str) -> str:
    """``/game new <game> [players] …``: the command's name and its options, the optional ones in brackets."""
    shown = [command_name(command.path, locale)]
    for option in command.options_for(front):
        name = option_name(command.path, option.name, locale)
        shown.append(f"<{name}>" if option.required else f"[{name}]")
    return " ".join(shown)


def help_line(command: Command, front: str, locale: str) -> str:
    """One line of the help: how to type the command, and what it does (its slash-command description)."""
    what = i18n.t(command.key("desc"), locale)
    return i18n.t("help.line", locale, command=usage(command, front, locale), what=what)


def help_sections(front: str, locale: str) -> list[str]:
    """The help's sections for ``front``: a title, then one line per command."""
    sections = []
    for section in SECTIONS:
        lines = [help_line(c, front, locale) for c in commands_for(front) if c.section == section]
        if lines:
            title = i18n.t(f"help.section.{section}", locale)
            sections.append("\n".join([f"**{title}**", *lines]))
    return sections


def help_pages(front: str, locale: str, games: Sequence[object], limit: int) -> list[str]:
    """The whole help for ``front`` in ``locale``, as messages of at most ``limit`` characters.

    A message takes whole sections while they fit, so a reader finds a command under its title; only
    a section longer than a message by itself is cut, between its lines. ``games`` are the games'
    display names.
    """
    parts = [
        i18n.t("help.intro", locale),
        *help_sections(front, locale),
        i18n.t("help.games", locale, games=list(games)),
    ]
    pages: list[str] = []
    for part in parts:
        if pages and len(pages[-1]) + 2 + len(part) <= limit:
            pages[-1] += "\n\n" + part
        else:
            pages += split(part, limit)  # between lines (no help line is near a message's length)
    return pages


__all__ = [
    "COMMANDS",
    "CONSOLE",
    "DISCORD",
    "GROUPS",
    "Command",
    "Option",
    "command_name",
    "commands_for",
    "find",
    "help_pages",
    "option_name",
]
