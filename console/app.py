"""The console front end: one channel, many users typed by name.

Each line acts as the named user in the channel ``console`` through the same
``table.play.commands.Commands`` as Discord. Replies are printed (ephemeral ones marked as private to
their user; the players, channels and moments a text names written by the console's ``Markup`` as
``@name``, ``#thread`` and a UTC date) and every image is written to the output folder under a
numbered name, whose path is printed. The console is also the announcer's outlet: a handover post is
printed and its board written once, and while the same player keeps acting that one file is
overwritten in place. Time moves only with ``/clock advance``, which also runs what
fell due (reminders, deadlines, a league's round). A line that fails never stops the console: the
reason is printed and reading goes on.

A league's games are each in a thread of their own, which the console names (``#r1-ann-bob``) and
prints before whatever is posted there; ``#r1-ann-bob ann: /play ...`` acts in that thread. The
console is also the league's ``Places``: threads, and no forum nor server events.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import i18n
from console.commands import Options, handlers
from console.parse import Line, LineError, parse_line
from engine import BadInput, GameError
from table.core.clock import ManualClock, parse_duration
from table.core.errors import NoGame, TableError
from table.core.marks import render
from table.core.posts import Button, Menu
from table.core.ratings import NO_GUILD
from table.leagues.places import CHANNEL as IN_CHANNEL
from table.leagues.places import Home
from table.play.command_tree import CONSOLE
from table.play.commands import Ctx
from table.posting.schedule import Scheduler
from table.rules.rulebook import fold

if TYPE_CHECKING:
    from table.leagues.service import Leagues
    from table.play.commands import Commands, Post

log = logging.getLogger(__name__)

CHANNEL = "console"
_NUMBERED = re.compile(r"^(\d+)-")
_IN_THREAD = re.compile(r"^#(?P<thread>[^\s#]+)\s+(?P<line>\S.*)$")
"""``#r1-ann-bob ann: /play ...``: a line that acts in one of the console's threads."""


class ConsoleMarkup:
    """How the console writes what a text names: console ids are the typed names, so a player reads
    ``@alice`` and a thread ``#r1-ann-bob``; a moment is a UTC date, to the minute, in any style."""

    def mention(self, user_id: str) -> str:
        return f"@{user_id}"

    def channel(self, channel_id: str) -> str:
        return f"#{channel_id}"

    def moment(self, at: datetime, style: str) -> str:
        return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


MARKUP = ConsoleMarkup()


def plain_text(text: str) -> str:
    """``text`` as the console prints it: its mentions, channels and moments written by ``MARKUP``."""
    return render(text, MARKUP)


def next_image_number(folder: Path) -> int:
    """Continue the numbering of images already in ``folder`` so nothing is overwritten."""
    numbers = [int(m[1]) for p in folder.glob("*") if (m := _NUMBERED.match(p.name))]
    return max(numbers, default=0) + 1


class Console:
    """Runs console lines against ``Commands`` and writes what they produce to ``out``.

    It is also the ``Outlet`` of the table's announcer (``send``, ``edit``, ``direct``), which
    is why it can be built before the commands and given them afterwards.
    """

    def __init__(
        self,
        table: Commands | None,
        out: TextIO,
        image_dir: Path,
        locale: str = "en",
        clock: ManualClock | None = None,
    ) -> None:
        self._table = table
        self.out = out
        self.image_dir = image_dir
        self.locale = locale
        self.clock = clock or ManualClock()
        self._next_image: int | None = None
        self._texts = 0
        self._buttons: dict[str, Button] = {}
        """The buttons of the posts shown, by their label as typed (``rulebook.fold``), latest last."""
        self._shown: tuple[Button, ...] = ()
        """The buttons of the latest post that had some: those a refusal lists."""
        self._menu: Menu | None = None
        """The last menu shown (``/press button:moves``): its options are pressed by number or label."""
        self._kept = 0
        self.leagues: Leagues | None = None
        """The leagues' commands, once the console has them (``run_console`` makes them)."""
        self.threads: list[str] = []
        self._shown_in = CHANNEL

    @property
    def table(self) -> Commands:
        assert self._table is not None, "the console was given no commands"
        return self._table

    @table.setter
    def table(self, value: Commands) -> None:
        self._table = value

    # ---- the announcer's outlet ----------------------------------------------------------------

    async def send(self, channel: str, post: Post) -> str:
        """A public post: printed (under the name of its thread, in a thread), its board written to a
        new file whose path is the post's id."""
        self._where(channel)
        self.show_public(post)
        if post.image is None:
            self._texts += 1
            return f"text-{self._texts}"
        return str(self.show_image(post))

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        """The turn's post updated in place: its board file is overwritten."""
        path = Path(message)
        if post.image is None or not path.is_file():
            return False
        path.write_bytes(post.image)
        self.say(self.t("console.image_updated", path=str(path)))
        self.write_alt(path, post.alt)
        return True

    def _where(self, channel: str) -> None:
        """Say which channel a post goes to when it is not the one the last post went to."""
        if channel != self._shown_in:
            self._shown_in = channel
            shown = self.t("console.in_channel") if channel == CHANNEL else f"#{channel}"
            self.say(self.t("console.in_thread", thread=shown))

    # ---- a league's places: threads named by the console, no forum, no server events ------------

    async def home(self, channel: str) -> Home:
        return Home(IN_CHANNEL, channel)

    async def open_thread(self, home: Home, name: str, first: Post, tags: Sequence[str] = ()) -> str:
        """A thread named after ``name`` (``R1 · ann and bob`` is ``#r1-ann-bob``), its first post printed."""
        slug = re.sub(r"[^\w]+", "-", name.lower()).strip("-") or "thread"
        slug = re.sub(r"-(and|et)-", "-", slug)
        thread = slug
        number = 2
        while thread in self.threads or thread == CHANNEL:
            thread = f"{slug}-{number}"
            number += 1
        self.threads.append(thread)
        self.say(self.t("console.thread_opened", thread=f"#{thread}", name=name))
        await self.send(thread, first)
        return thread

    async def set_tags(self, home: Home, thread: str, tags: Sequence[str]) -> None:
        return None

    async def schedule(
        self, guild: str | None, name: str, start: datetime, end: datetime, where: str
    ) -> str | None:
        return None

    async def direct(self, user: str, post: Post) -> bool:
        self.say(self.t("console.direct", user=user))
        self.say(plain_text(post.text))
        return True

    async def send_direct(self, user: str, post: Post) -> str | None:
        """A direct message kept up to date (a player's card): printed, numbered for its edits."""
        await self.direct(user, post)
        self._kept += 1
        return f"dm-{self._kept}"

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        self.say(self.t("console.direct_updated", user=user, message=message))
        self.say(plain_text(post.text))
        return True

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        """A message kept up to date in the channel (the list of games): printed again."""
        self.say(self.t("console.kept_updated", message=message))
        self.say(plain_text(post.text))
        return True

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def t(self, key: str, **params: object) -> str:
        return i18n.t(key, self.locale, names=None, **params)

    def ctx(self, user: str, channel: str = CHANNEL) -> Ctx:
        return Ctx(
            channel_id=channel,
            user_id=user,
            user_name=user,
            locale=self.locale,
            channel_locale=self.locale,
            guild_id=NO_GUILD,  # the console's one channel is the user's own server, with no id
            admin=True,
        )

    async def run_line(self, text: str) -> bool:
        """Handle one input line; False when the console should stop."""
        stripped = text.strip()
        channel = CHANNEL
        in_thread = _IN_THREAD.match(stripped)
        if in_thread is not None and ":" in in_thread["line"]:
            channel, stripped = in_thread["thread"], in_thread["line"]
        if not stripped or stripped.startswith("#"):
            return True
        if stripped.lower() in {"quit", "exit"}:
            return False
        if stripped.lower() in {"help", "?", "aide"}:
            self.say(self.t("console.help"))
            for post in await self.table.help(self.ctx(CHANNEL), CONSOLE):
                self.say()
                self.say(plain_text(post.text))
            return True
        try:
            line = parse_line(stripped, self.locale)
        except LineError as exc:
            self.say(i18n.t(exc.msg, self.locale))
            return True
        try:
            await self.dispatch(line, channel)
        except GameError as exc:
            self.private(line.user, plain_text(i18n.t(exc.msg, self.locale, names=MARKUP.mention)))
        except Exception as exc:
            log.exception("console command %r failed", stripped)
            self.say(self.t("console.internal_error", error=type(exc).__name__))
        return True

    async def dispatch(self, line: Line, channel: str = CHANNEL) -> None:
        """Run the line's command (``console.commands``), show its answer in ``channel`` and let what
        it set going be announced."""
        ctx = self.ctx(line.user, channel)
        posts = await handlers()[line.path](self, ctx, Options(line.options))
        if posts is not None:
            self.show(line.user, posts, channel)
            await self.table.announcer.drain()

    async def press(self, ctx: Ctx, name: str) -> list[Post]:
        """Press a button of the channel's game by its label, as printed under the posts, in the
        console's language (``Accept``, ``Mes coups``), or by the action it carries (``undo_accept``);
        or choose an option of the last menu shown by its number or label. A name that presses
        nothing is refused with the buttons (and the menu's options) there are."""
        wanted = fold(name)
        if self._menu is not None:
            options = self._menu.options
            chosen = [value for i, (label, value) in enumerate(options, 1) if wanted in (str(i), fold(label))]
            if chosen:
                menu, self._menu = self._menu, None  # chosen: a group opened shows its own
                return await self.table.pick(ctx, menu.game, menu.version, chosen[0])
        table = await self.table.tables.latest(CHANNEL)
        if table is None:
            raise NoGame()
        button = self._buttons.get(wanted)
        action = button.action if button is not None else name.strip()
        if not action:
            raise self._no_such_button(name)
        try:
            return await self.table.press(ctx, table.record.id, table.record.version, action)
        except TableError as err:
            if err.msg.key == "svc.error.unknown_button":
                raise self._no_such_button(name) from None
            raise

    def _no_such_button(self, name: str) -> TableError:
        """The refusal of a name that presses nothing here: the buttons shown, and the last menu's options."""
        shown = [b.label for b in self._shown]
        if self._menu is not None:
            shown += [f"{i}. {label}" for i, (label, _value) in enumerate(self._menu.options, 1)]
        if not shown:
            return TableError("console.no_buttons", button=name.strip())
        return TableError("console.unknown_button", button=name.strip(), buttons=shown)

    async def advance_clock(self, by: str | None) -> None:
        """``/clock advance 25h``: time moves on, and whatever fell due meanwhile happens now."""
        if by is not None:
            delta = parse_duration(by)
            if delta is None:
                raise BadInput("console.bad_duration", value=by)
            self.clock.advance(delta)
        self.say(self.t("console.clock", now=self.clock().strftime("%Y-%m-%d %H:%M UTC")))
        if by is not None:
            await Scheduler(self.table.announcer).tick()
            await self.table.announcer.drain()

    async def set_clock(self, at: str) -> None:
        """``/clock set 2026-03-28 21:00``: the clock shows that UTC time (earlier or later), and what
        fell due by then happens now. Setting it back is for trying things out: times already stored
        (a wait's reminders, a deadline) stay as they were."""
        moment = _moment(at)
        if moment is None:
            raise BadInput("console.bad_moment", value=at.strip())
        self.clock.set(moment)
        self.say(self.t("console.clock_set", now=self.clock().strftime("%Y-%m-%d %H:%M UTC")))
        await Scheduler(self.table.announcer).tick()
        await self.table.announcer.drain()

    def show(self, user: str, posts: Sequence[Post], channel: str = CHANNEL) -> None:
        if any(not post.ephemeral for post in posts):
            self._where(channel)
        for post in posts:
            if post.ephemeral:
                self.private(user, plain_text(post.text or ""))
                self.show_controls(post)
            else:
                self.show_public(post)
            if post.image is not None:
                self.show_image(post)

    def show_public(self, post: Post) -> None:
        text = plain_text(post.text or "")
        if text:
            self.say(text)
        self.show_controls(post)

    def show_controls(self, post: Post) -> None:
        """A post's buttons by their labels, and its menu's options numbered, each pressed with
        ``/press``; they are remembered, so that a label or a number presses them."""
        if post.buttons:
            self.say(self.t("console.buttons", buttons=" · ".join(b.label for b in post.buttons)))
            self._shown = post.buttons
            for button in post.buttons:
                self._buttons.pop(fold(button.label), None)
                self._buttons[fold(button.label)] = button
        if post.menu is not None:
            self._menu = post.menu
            for i, (label, _value) in enumerate(post.menu.options, 1):
                self.say(f"  {i}. {label}")
            self.say(self.t("console.menu"))

    def private(self, user: str, text: str) -> None:
        self.say(self.t("console.private", user=user))
        if text:
            self.say(text)

    def show_image(self, post: Post) -> Path:
        """Write the post's image and its alt text; print the image's path, then the alt text."""
        assert post.image is not None
        path = self.save_image(post.image, post.filename)
        self.say(self.t("console.image", path=str(path)))
        self.write_alt(path, post.alt)
        return path

    def write_alt(self, image: Path, alt: str) -> None:
        """The alt text beside the image (same name, ``.txt``), and printed after its path, for a
        screen reader in the terminal; no file when the image has none."""
        if not alt:
            return
        image.with_suffix(".txt").write_text(alt + "\n", encoding="utf-8")
        self.say(self.t("console.alt", text=alt))

    def save_image(self, data: bytes, filename: str) -> Path:
        self.image_dir.mkdir(parents=True, exist_ok=True)
        if self._next_image is None:
            self._next_image = next_image_number(self.image_dir)
        name = Path(filename or "board.png").name
        path = self.image_dir / f"{self._next_image:04d}-{name}"
        self._next_image += 1
        path.write_bytes(data)
        return path


def _moment(text: str) -> datetime | None:
    """A UTC date and time as typed: ``2026-03-28 21:00``, ``2026-03-28T21:00Z``, ``... UTC``."""
    cleaned = text.strip().removesuffix("UTC").strip().removesuffix("Z").replace("T", " ")
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
