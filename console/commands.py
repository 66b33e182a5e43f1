"""What each console command does: dispatch generated from the command tree.

A typed line (``console.parse``) is a command path and its option values; ``HANDLERS`` maps each path
the console offers (``table.play.command_tree``) to the call that answers it, made from the tree's
entry: the entry's handler of ``Commands`` (or of the leagues), given each option the tree passes it,
read as the tree describes it (``Options.value``: its kind, its default, a player's name typed with
its ``@``). A handler returns the posts to show in the line's channel (then whatever the command set
going is announced), or None when it showed what it had to itself. No path is mapped by hand: only the
commands that need the console's own glue are, in ``GLUE`` (a thread it does not have, a ``/play``
without an action that lists the moves, the console's help, and its own ``/press`` and ``/clock``),
and a glue for a command the tree does not give the console fails at import.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import cache, partial
from typing import TYPE_CHECKING, Protocol

from table.play import command_tree
from table.play.command_tree import CHANNEL, CONSOLE, PLAYER, Command, Option, find

if TYPE_CHECKING:
    from table.core.posts import Ctx, Post
    from table.leagues.service import Leagues
    from table.play.commands import Commands


class Console(Protocol):
    """What the handlers use of ``console.app.Console`` (which imports them)."""

    @property
    def table(self) -> Commands: ...

    leagues: Leagues | None

    def say(self, text: str = "") -> None: ...

    def t(self, key: str, **params: object) -> str: ...

    def show(self, user: str, posts: Sequence[Post], channel: str = ...) -> None: ...

    async def press(self, ctx: Ctx, name: str) -> list[Post]: ...

    async def advance_clock(self, by: str | None) -> None: ...

    async def set_clock(self, at: str) -> None: ...


class Options:
    """A line's option values (``console.parse`` converted them to the tree's kinds), read as the
    handlers pass them on. A name typed with its ``@`` (``@bob``) is the name."""

    def __init__(self, values: Mapping[str, object]) -> None:
        self.values = values

    def text(self, name: str, default: str | None = None) -> str:
        """A required option's value as typed (or ``default`` when it may be left out)."""
        value = self.values.get(name, default)
        if value is None:
            raise KeyError(name)
        return str(value)

    def player(self, name: str) -> str:
        """A required player, by the name the console knows them by."""
        return self.text(name).lstrip("@")

    def word(self, name: str) -> str | None:
        """An optional text, None when left out or empty."""
        value = self.values.get(name)
        return str(value).lstrip("@") if value not in (None, "") else None

    def number(self, name: str) -> int | None:
        value = self.values.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def flag(self, name: str) -> bool | None:
        value = self.values.get(name)
        return value if isinstance(value, bool) else None

    def value(self, option: Option) -> object:
        """The option's value as its handler takes it: the tree's default when left out (or empty), a
        player's name without its ``@``, a channel as typed (``console``, ``#console``) as its id,
        which is its name in the console; an optional text also without an ``@``."""
        value = self.values.get(option.name)
        if option.kind is int:
            return value if isinstance(value, int) and not isinstance(value, bool) else option.default
        if option.kind is bool:
            return value if isinstance(value, bool) else option.default
        if value in (None, ""):
            return option.default
        text = str(value)
        if option.picks == CHANNEL:
            return text.strip().lstrip("#") or None
        return text.lstrip("@") if option.picks == PLAYER or not option.required else text


Handler = Callable[["Console", "Ctx", Options], Awaitable["list[Post] | None"]]


def _leagues(console: Console) -> Leagues:
    assert console.leagues is not None, "the console was given no leagues"
    return console.leagues


async def _new(console: Console, ctx: Ctx, o: Options) -> list[Post] | None:
    """The console has a single channel: ``thread:`` is read, and said to be left aside."""
    if o.flag("thread"):
        console.say(console.t("console.thread_ignored"))
    return await _run(find("game.new", CONSOLE), console, ctx, o)


async def _play(console: Console, ctx: Ctx, o: Options) -> list[Post] | None:
    """``/play`` without an action lists the legal moves, privately."""
    action = o.text("action", "")
    if action.strip():
        return await console.table.play(ctx, action)
    console.show(ctx.user_id, await console.table.legal_moves(ctx))
    return None


async def _help(console: Console, ctx: Ctx, o: Options) -> list[Post]:
    """The help lists the console's commands, as the console types them."""
    return await console.table.help(ctx, CONSOLE)


async def _press(console: Console, ctx: Ctx, o: Options) -> None:
    """A button of the console's channel: its answer is shown there, whichever thread it was typed in."""
    console.show(ctx.user_id, await console.press(ctx, o.text("button")))
    await console.table.announcer.drain()


async def _clock(console: Console, ctx: Ctx, o: Options) -> None:
    await console.advance_clock(None)


async def _clock_advance(console: Console, ctx: Ctx, o: Options) -> None:
    await console.advance_clock(o.text("by"))


async def _clock_set(console: Console, ctx: Ctx, o: Options) -> None:
    await console.set_clock(o.text("at"))


async def _run(command: Command, console: Console, ctx: Ctx, o: Options) -> list[Post] | None:
    """``command``'s handler, given each option the tree passes it."""
    owner, name = command.runs
    handlers: object = _leagues(console) if owner == "leagues" else console.table
    arguments = {option.argument: o.value(option) for option in command.options_for(CONSOLE) if option.passed}
    run: Callable[..., Awaitable[list[Post]]] = getattr(handlers, name)
    return await run(ctx, **arguments)


def handler(command: Command) -> Handler:
    """The console's call for a command of the tree: its glue, if it has some, else its handler."""
    glue = GLUE.get(command.path)
    return glue if glue is not None else partial(_run, command)


GLUE: dict[tuple[str, ...], Handler] = {
    find(name, CONSOLE).path: glue
    for name, glue in {
        "game.new": _new,
        "play": _play,
        "game.help": _help,
        "press": _press,
        "clock": _clock,
        "clock.advance": _clock_advance,
        "clock.set": _clock_set,
    }.items()
}
"""The commands the console answers with glue of its own."""


def handlers() -> dict[tuple[str, ...], Handler]:
    """The console's handler of each command path it offers, in the command tree as it is now."""
    return _handlers_of(command_tree.COMMANDS)


@cache
def _handlers_of(tree: tuple[Command, ...]) -> dict[tuple[str, ...], Handler]:
    return {command.path: handler(command) for command in tree if CONSOLE in command.fronts}


HANDLERS = handlers()
"""The console's handler of each command path it offers."""


__all__ = ["GLUE", "HANDLERS", "Handler", "Options", "handler", "handlers"]
