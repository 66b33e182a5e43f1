"""The bot's commands, described once for both front ends.

Discord's slash commands (``cogs/``) and the console's lines (``console/``) are two ways of typing the
same commands. This module says which commands there are, in what order, with which options (their
kind, range, choices, completion and default), how each is answered, which front end offers each, and
which handler of ``table.play.commands.Commands`` (or of the leagues) runs it; the catalog keys of their
names and descriptions follow from their paths (``cmd.game.new.name``, ``cmd.game.new.desc``,
``cmd.game.new.players.name``). Both front ends are generated from it: the cogs build each slash
command, its typed options and its route to the handler from its entry (``cogs.slash``), the console
reads its lines with it and calls the same handler (``console.commands``), and ``/game help`` and the
console's help are written from it. Adding a command is an entry here (and its catalog keys) and its
handler; only the few commands that need a front end's own glue (a thread, an attached file, the
console's clock) name it in that front end's one place for glue.

It lives in the table layer, below both front ends, and imports nothing of Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import i18n
from table.bots.players import MAX_BOTS
from table.core.text import split
from table.play.lobby import MAX_TEAMS

DISCORD = "discord"
CONSOLE = "console"
FRONTS = frozenset({DISCORD, CONSOLE})

PUBLIC = "public"
PRIVATE = "private"
QUIET = "quiet"
"""How a command is answered: in the channel, to the caller alone, or to the caller alone while the
announcer shows the channel what it did (a move)."""

SECTIONS = ("lobby", "play", "end", "league", "more", "console")
"""The help's sections, in the order shown (catalog keys ``help.section.<id>``)."""


PLAYER = "player"
FILE = "file"
CHANNEL = "channel"
"""What an option may pick rather than take as typed text: a player, an attached file, a channel of
the server (Discord offers each as a picker; the console reads its name)."""


@dataclass(frozen=True)
class Option:
    """One option of a command: the console converts its value to ``kind`` (``str``, ``int`` or
    ``bool``), a front end with typed options asks for ``typed_as`` where it differs (a game's number,
    which the console also reads as ``#12``). ``least`` and ``most`` bound a number, or a text's
    length; ``default`` is the value a left-out option has; ``picks`` names what it is picked from;
    ``choices`` and ``complete`` name the list of values offered and the handler that completes what
    is typed (each front end knows them by these names). ``param`` is the handler's parameter when
    its name is not the option's, and an option the handler does not take (``passed=False``) is read
    by a front end's glue. ``optional_in`` names the front ends where a ``required`` option may be
    left out (the console lists the legal moves for a ``/play`` without an action)."""

    name: str
    kind: type = str
    required: bool = False
    fronts: frozenset[str] = FRONTS
    optional_in: frozenset[str] = frozenset()
    typed_as: type | None = None
    least: int | None = None
    most: int | None = None
    default: object = None
    picks: str = ""
    choices: str = ""
    complete: str = ""
    param: str = ""
    passed: bool = True

    @property
    def argument(self) -> str:
        """The handler's parameter this option's value is passed as."""
        return self.param or self.name


@dataclass(frozen=True)
class Command:
    """A command path (``("game", "new")`` is ``/game new``), its options in the slash command's order,
    the help section it belongs to, and the front ends that offer it."""

    path: tuple[str, ...]
    options: tuple[Option, ...] = ()
    section: str = "more"
    fronts: frozenset[str] = FRONTS
    answer: str = PUBLIC
    public_with: str = ""
    """A flag option that makes a ``PRIVATE`` answer public (``/stats public:true``)."""
    server_only: bool = False
    managers: bool = False
    """Offered by default to a server's managers only (Discord's default permissions)."""
    handler: str = ""
    """The handler's name: a method of ``Commands`` (``"new"``), or ``"leagues.<method>"``; by default
    the path's last word."""

    @property
    def runs(self) -> tuple[str, str]:
        """Whose handler runs the command (``""``: the ``Commands``, or ``"leagues"``) and its name."""
        owner, _, name = (self.handler or self.path[-1]).rpartition(".")
        return owner, name

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

_PAGE = Option("page", int, least=1, most=10000, default=1)
_POOL = Option("game", choices="pools")


def _lobby(*path: str, options: tuple[Option, ...] = (), answer: str = PUBLIC) -> Command:
    return Command(path, options, section="lobby", answer=answer, server_only=True)


def _game(
    *path: str, options: tuple[Option, ...] = (), section: str = "play", answer: str = PUBLIC
) -> Command:
    return Command(path, options, section=section, answer=answer, server_only=True)


def _league(name: str, options: tuple[Option, ...] = (), answer: str = PRIVATE, runs: str = "") -> Command:
    path = ("league", name) if name else ("league",)
    handler = "leagues." + (runs or name)
    fronts = FRONTS if name else _ONLY_CONSOLE
    return Command(path, options, "league", fronts, answer, server_only=True, handler=handler)


COMMANDS: tuple[Command, ...] = (
    _lobby(
        "game",
        "new",
        options=(
            Option("game", required=True, choices="games"),
            Option("players", int, least=1, most=8),
            Option("options", least=0, most=200, default="", complete="options"),
            Option("thread", bool, default=False, passed=False),  # the console says it has one channel
            Option("map_file", fronts=_ONLY_DISCORD, picks=FILE, passed=False),  # a text file
            Option("bots", int, least=0, most=MAX_BOTS, default=0),
            Option("level", choices="levels"),
        ),
    ),
    _lobby("game", "join", options=(Option("team", int, least=1, most=MAX_TEAMS),)),
    _lobby("game", "leave"),
    _lobby("game", "addbot", options=(Option("level", choices="levels"),)),
    _lobby("game", "removebot"),
    _lobby("game", "kick", options=(Option("player", required=True, picks=PLAYER),)),
    _lobby("game", "start", answer=QUIET),
    Command(
        ("play",),
        (Option("action", required=True, optional_in=_ONLY_CONSOLE, least=1, most=200, complete="moves"),),
        section="play",
        answer=QUIET,
        server_only=True,
    ),
    Command(("hand",), section="play", answer=PRIVATE, server_only=True),
    _game("game", "undo"),
    _game("game", "board", options=(Option("details", bool, default=False), Option("text", bool))),
    _game("game", "status"),
    _game("game", "log", options=(_PAGE,)),
    _game("game", "replay", answer=PRIVATE),
    _game("game", "why", answer=PRIVATE),
    _game("game", "hint", answer=PRIVATE),
    _game("game", "draw", section="end", answer=QUIET),
    _game("game", "resign", section="end", answer=QUIET),
    _game("game", "abort", section="end", answer=QUIET),
    _game("game", "end", options=(Option("winner", picks=PLAYER),), section="end", answer=QUIET),
    _game(
        "game",
        "unrate",
        options=(Option("game", required=True, typed_as=int, least=1, param="typed"),),  # "12" or "#12"
        section="end",
    ),
    _league(
        "new",
        (
            Option("game", required=True, choices="games"),
            Option("format", choices="league_formats", default="swiss"),
            Option("rounds", int, least=0, most=30),
            Option("round_length", least=1, most=10),
            Option("players", int, least=1, most=8),
            Option("options", least=0, most=200, default=""),
            Option("name", least=1, most=80),
        ),
    ),
    _league("join"),
    _league("leave", answer=PUBLIC),
    _league("start"),
    # Discord cannot run a group of subcommands by itself: there it is /league status.
    _league("", runs="show"),
    _league("status", runs="show"),
    _league("standings"),
    _league("kick", (Option("player", required=True, picks=PLAYER),), answer=PUBLIC),
    _league("end"),
    _league("history"),
    _game(
        "game",
        "rules",
        options=(Option("game", choices="games"), Option("topic", least=1, most=100, complete="topics")),
        section="more",
        answer=PRIVATE,
    ),
    _game("game", "help", section="more", answer=PRIVATE),
    Command(("games",), (Option("card", bool),), answer=PRIVATE, server_only=True),
    Command(("leaderboard",), (_POOL, _PAGE), server_only=True),
    Command(("history",), (Option("player", picks=PLAYER), _POOL, _PAGE), server_only=True),
    Command(
        ("stats",),
        (Option("player", picks=PLAYER), _POOL, Option("public", bool, default=False)),
        answer=PRIVATE,
        public_with="public",
        server_only=True,
    ),
    Command(
        ("notify",),
        (
            Option("dm", bool),
            Option("text", bool),
            Option("timezone", least=1, most=64, complete="timezones"),
            Option("quiet", least=1, most=20),
            Option("remind", least=1, most=10),
        ),
        answer=PRIVATE,
    ),
    Command(("away",), (Option("for", least=1, most=20, param="length"),), answer=PRIVATE, server_only=True),
    Command(
        ("settings",),
        (
            Option("language", choices="languages"),
            Option("remind", least=1, most=10),
            Option("deadline", least=1, most=10),
            Option("on_deadline", choices="policies"),
            Option("games_channel", picks=CHANNEL),  # a channel of the server
            Option("games_list", bool),
        ),
        answer=PRIVATE,
        server_only=True,
        managers=True,
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


def find(path: str, front: str) -> Command:
    """The command of dotted ``path`` (``"game.new"``) that ``front`` offers: how a front end's handler
    names the entry it implements, so a handler for a command the tree lacks fails at import."""
    wanted = tuple(path.split("."))
    command = next((c for c in COMMANDS if c.path == wanted), None)
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
    "CHANNEL",
    "COMMANDS",
    "CONSOLE",
    "DISCORD",
    "FILE",
    "GROUPS",
    "PLAYER",
    "PRIVATE",
    "PUBLIC",
    "QUIET",
    "Command",
    "Option",
    "command_name",
    "commands_for",
    "find",
    "help_pages",
    "option_name",
]
