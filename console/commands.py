"""What each console command does: one handler per command of the command tree.

``HANDLERS`` maps each command path the console offers (``table.play.command_tree``) to the call that
answers it, with the line's options read as that call wants them (``Options``). A handler returns the
posts to show in the line's channel (then whatever the command set going is announced), or None when
it showed what it had to itself. A handler for a command the tree does not give the console fails at
import, and a test holds the handlers to the tree, so a command added to the tree without a handler
(or the reverse) fails the suite instead of answering "unknown command".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from table.play.command_tree import CONSOLE, find

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

    def t(self, key: str, **params: Any) -> str: ...

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

    def channel(self, name: str) -> str | None:
        """A channel as typed (``console``, ``#console``): its id, which is its name in the console."""
        value = self.values.get(name)
        return str(value).strip().lstrip("#") or None if value not in (None, "") else None


Handler = Callable[["Console", "Ctx", Options], Awaitable["list[Post] | None"]]


def _leagues(console: Console) -> Leagues:
    assert console.leagues is not None, "the console was given no leagues"
    return console.leagues


async def _new(console: Console, ctx: Ctx, o: Options) -> list[Post]:
    if o.flag("thread"):
        console.say(console.t("console.thread_ignored"))
    bots: dict[str, Any] = {}  # only those the line asks for: the table's defaults otherwise
    if (count := o.number("bots")) is not None:
        bots["bots"] = count
    if (level := o.word("level")) is not None:
        bots["level"] = level
    return await console.table.new(ctx, o.text("game"), o.number("players"), o.text("options", ""), **bots)


async def _play(console: Console, ctx: Ctx, o: Options) -> list[Post] | None:
    """``/play`` without an action lists the legal moves, privately."""
    action = o.text("action", "")
    if action.strip():
        return await console.table.play(ctx, action)
    console.show(ctx.user_id, await console.table.legal_moves(ctx))
    return None


async def _league_new(console: Console, ctx: Ctx, o: Options) -> list[Post]:
    return await _leagues(console).new(
        ctx,
        o.text("game"),
        format=o.word("format") or "swiss",
        rounds=o.number("rounds"),
        round_length=o.word("round_length"),
        players=o.number("players"),
        options=o.text("options", ""),
        name=o.word("name"),
    )


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


_BY_NAME: dict[str, Handler] = {
    "game.new": _new,
    "game.join": lambda c, ctx, o: c.table.join(ctx, o.number("team")),
    "game.leave": lambda c, ctx, o: c.table.leave(ctx),
    "game.addbot": lambda c, ctx, o: c.table.addbot(ctx, o.word("level")),
    "game.removebot": lambda c, ctx, o: c.table.removebot(ctx),
    "game.kick": lambda c, ctx, o: c.table.kick(ctx, o.player("player")),
    "game.start": lambda c, ctx, o: c.table.start(ctx),
    "play": _play,
    "hand": lambda c, ctx, o: c.table.hand(ctx),
    "game.undo": lambda c, ctx, o: c.table.undo(ctx),
    "game.board": lambda c, ctx, o: c.table.board(ctx, bool(o.flag("details")), o.flag("text")),
    "game.status": lambda c, ctx, o: c.table.status(ctx),
    "game.log": lambda c, ctx, o: c.table.log(ctx, o.number("page") or 1),
    "game.replay": lambda c, ctx, o: c.table.replay(ctx),
    "game.why": lambda c, ctx, o: c.table.why(ctx),
    "game.hint": lambda c, ctx, o: c.table.hint(ctx),
    "game.draw": lambda c, ctx, o: c.table.draw(ctx),
    "game.resign": lambda c, ctx, o: c.table.resign(ctx),
    "game.abort": lambda c, ctx, o: c.table.abort(ctx),
    "game.end": lambda c, ctx, o: c.table.end(ctx, o.word("winner")),
    "game.unrate": lambda c, ctx, o: c.table.unrate(ctx, o.text("game")),
    "league.new": _league_new,
    "league.join": lambda c, ctx, o: _leagues(c).join(ctx),
    "league.leave": lambda c, ctx, o: _leagues(c).leave(ctx),
    "league.start": lambda c, ctx, o: _leagues(c).start(ctx),
    "league": lambda c, ctx, o: _leagues(c).show(ctx),
    "league.status": lambda c, ctx, o: _leagues(c).show(ctx),
    "league.standings": lambda c, ctx, o: _leagues(c).standings(ctx),
    "league.kick": lambda c, ctx, o: _leagues(c).kick(ctx, o.player("player")),
    "league.end": lambda c, ctx, o: _leagues(c).end(ctx),
    "league.history": lambda c, ctx, o: _leagues(c).history(ctx),
    "game.rules": lambda c, ctx, o: c.table.rules(ctx, o.word("game"), o.word("topic")),
    "game.help": lambda c, ctx, o: c.table.help(ctx, CONSOLE),
    "games": lambda c, ctx, o: c.table.games(ctx, o.flag("card")),
    "leaderboard": lambda c, ctx, o: c.table.leaderboard(ctx, o.word("game"), o.number("page") or 1),
    "history": lambda c, ctx, o: c.table.history(
        ctx, o.word("player"), o.word("game"), o.number("page") or 1
    ),
    "stats": lambda c, ctx, o: c.table.stats(ctx, o.word("player"), o.word("game"), bool(o.flag("public"))),
    "notify": lambda c, ctx, o: c.table.notify(
        ctx, o.flag("dm"), o.flag("text"), o.word("timezone"), o.word("quiet"), o.word("remind")
    ),
    "away": lambda c, ctx, o: c.table.away(ctx, o.word("for")),
    "settings": lambda c, ctx, o: c.table.settings(
        ctx,
        games_channel=o.channel("games_channel"),
        games_list=o.flag("games_list"),
        **{k: o.word(k) for k in ("language", "remind", "deadline", "on_deadline")},
    ),
    "press": _press,
    "clock": _clock,
    "clock.advance": _clock_advance,
    "clock.set": _clock_set,
}

HANDLERS: dict[tuple[str, ...], Handler] = {find(name, CONSOLE).path: run for name, run in _BY_NAME.items()}
"""The console's handler of each command path it offers."""


__all__ = ["HANDLERS", "Handler", "Options"]
