"""The lobby's commands: open a table, add a computer player, join, leave, start; and what a lobby
post carries (the pace, the call to start, its buttons).

The rules of seating are ``lobby``'s; these handlers word what they did for the channel.
"""

from __future__ import annotations

from typing import TypedDict

from db import GameRecord
from engine.errors import GameError
from table.core.posts import Button, Ctx, Post, is_bot
from table.core.settings import POLICIES, TableSettings
from table.core.tables import Table, Tables
from table.core.text import find_game, mentions, pings
from table.core.wording import Wording
from table.play import lobby
from table.play.lobby import FIXED_SEED, team_slots
from table.play.own_time import OwnTime
from table.play.service import Service
from table.posting.menus import lobby_buttons


class _Joined(TypedDict):
    """What the words of a join say: who, at which game, how many are seated."""

    player: str
    game: str
    seated: int


class Seating:
    """``/game new``, ``addbot``, ``join``, ``leave``, ``start`` and the options field's autocomplete:
    built from the tables, the service's posting (the channel's language, the listings, the announcer), the
    players' own time (away marks shown in the lobby) and the words."""

    def __init__(self, tables: Tables, service: Service, own_times: OwnTime, words: Wording) -> None:
        self.tables = tables
        self.service = service
        self.own_times = own_times
        self.words = words

    def _pace(self, table: Table, locale: str) -> str:
        """The lobby's line on reminders and the deadline, so players know before they join."""
        pace = TableSettings.of(table.record)
        shown = pace.to_options()
        remind = (
            self.words.t("svc.remind.off", locale)
            if pace.remind is None
            else self.words.t("svc.remind.every", locale, every=shown["remind"])
        )
        deadline = (
            self.words.t("svc.deadline.none", locale)
            if pace.deadline is None
            else self.words.t(
                "svc.deadline.after",
                locale,
                after=shown["deadline"],
                policy=self.words.t(f"svc.policy.{pace.on_deadline}", locale),
            )
        )
        lines = [self.words.t("svc.lobby.pace", locale, remind=remind, deadline=deadline)]
        if not pace.rated:
            lines.append(self.words.t("rating.lobby.unrated", locale))
        if not pace.auto:
            lines.append(self.words.t("svc.lobby.auto_off", locale))
        return " ".join(lines)

    # ---- lobby ---------------------------------------------------------------------------

    async def new(
        self,
        ctx: Ctx,
        game: str,
        players: int | None = None,
        options: str = "",
        bots: int = 0,
        level: str | None = None,
    ) -> list[Post]:
        """Open a table with the caller seated and ``bots`` computer players of ``level`` after them."""
        table = await lobby.create(self.tables, ctx, game, players, options, bots, level)
        self.service.listed(table.record)
        loc = await self.service.public(ctx)
        text = self.words.t(
            "table.new",
            loc,
            player=ctx.user_name,
            game=self.words.game(table, loc),
            seated=len(table.record.seats),
            players=table.record.players,
            options=self.words.options(table, loc),
        )
        lines = [
            text,
            self._pace(table, loc),
            self.own_times.away_policy(table, loc),
            self.fixed_seed(table, loc),
        ]
        seated_bots = [s.name for s in table.record.seats if is_bot(s.player)]
        if seated_bots:
            lines.append(self.words.t("table.bots_seated", loc, bots=seated_bots))
        lines += await self.own_times.away_lines(table, loc)
        return [self._lobby_post(table, loc, *lines)]

    def _lobby_post(self, table: Table, loc: str, *lines: str) -> Post:
        """A lobby post with its buttons; once the last seat is taken it asks the people seated (never
        a bot) to start, and pings them."""
        ready, people = self.ready(table.record, loc)
        return Post(
            "\n".join(filter(None, (*lines, ready))), mentions=people, buttons=self._lobby_buttons(table, loc)
        )

    async def addbot(self, ctx: Ctx, level: str | None = None) -> list[Post]:
        """A computer player of ``level`` takes the next seat of the lobby."""
        table, seat = await lobby.add_bot(self.tables, ctx, level)
        self.service.listed(table.record)
        loc = await self.service.public(ctx)
        rec = table.record
        text = self.words.t(
            "table.joined",
            loc,
            player=seat.name,
            game=self.words.game(table, loc),
            seated=len(rec.seats),
            players=rec.players,
        )
        return [self._lobby_post(table, loc, text)]

    async def join(self, ctx: Ctx, team: int | None = None) -> list[Post]:
        table = await lobby.join(self.tables, ctx, team)
        self.service.listed(table.record)
        loc = await self.service.public(ctx)
        rec = table.record
        params: _Joined = {
            "player": ctx.user_name,
            "game": self.words.game(table, loc),
            "seated": len(rec.seats),
        }
        if team is None:
            text = self.words.t("table.joined", loc, players=rec.players, **params)
        else:
            text = self.words.t("table.joined_team", loc, players=rec.players, team=team, **params)
        return [self._lobby_post(table, loc, text, *await self.own_times.away_lines(table, loc))]

    async def leave(self, ctx: Ctx) -> list[Post]:
        left = await lobby.leave(self.tables, ctx)
        self.service.listed(left.table.record, ctx.user_id)
        loc = await self.service.public(ctx)
        rec = left.table.record
        if left.closed:
            text = self.words.t("table.left_closed", loc, player=ctx.user_name)
        elif left.new_creator is not None:
            text = self.words.t(
                "table.left_new_creator",
                loc,
                player=ctx.user_name,
                creator=left.table.name(left.new_creator),
                seated=len(rec.seats),
                players=rec.players,
            )
        else:
            text = self.words.t(
                "table.left", loc, player=ctx.user_name, seated=len(rec.seats), players=rec.players
            )
        return [Post(text, buttons=self._lobby_buttons(left.table, loc))]

    async def start(self, ctx: Ctx) -> list[Post]:
        """Deal the game; the first handover post (board, seats, whose turn) goes to the channel."""
        table = await lobby.start(self.tables, ctx)
        await self.service.announce(ctx, table)
        return [
            Post(
                self.words.t("svc.started_ack", ctx.locale, game=self.words.game(table, ctx.locale)),
                ephemeral=True,
            )
        ]

    # ---- what lobby posts carry -------------------------------------------------------------------

    def fixed_seed(self, table: Table, locale: str) -> str:
        """Said in public whenever the creator chose the seed: whoever knows it knows every draw."""
        if table.record.settings.get(FIXED_SEED) != "yes":
            return ""
        return self.words.t("svc.lobby.fixed_seed", locale, seed=table.record.seed)

    def ready(self, record: GameRecord, locale: str) -> tuple[str, tuple[str, ...]]:
        """Once the last seat is taken, the call to start the game and whom it pings: the people seated,
        never a computer player (it is neither asked nor mentioned; it has no Discord account to
        mention). ``("", ())`` while a seat is free. The lobby's post and its Join button say it alike."""
        people = pings(record.player_ids) if len(record.seats) == record.players else ()
        if not people:
            return "", ()
        return self.words.t("table.ready", locale, players=mentions(people)), people

    def _lobby_buttons(self, table: Table, locale: str) -> tuple[Button, ...]:
        slots = team_slots(table.game, table.record.players, table.record.options)
        teams = max(slots) + 1 if slots and len(set(slots)) < len(slots) else None
        seated = [seat.team for seat in table.record.seats]
        room = frozenset(t + 1 for t in set(slots or ()) if seated.count(t) < (slots or []).count(t))
        return lobby_buttons(table, locale, teams, room)

    def options_autocomplete(self, ctx: Ctx, game: str, typed: str) -> list[tuple[str, str]]:
        """What ``/game new``'s options field can become as the user types: the last word completed to
        an option name (``arm`` -> ``armies=``) or to one of its values (``armies=dr`` -> ``armies=draft``),
        the words before it kept. Table options (seed, reminders, deadline) are offered too."""
        if not game:
            return []
        try:
            specs = find_game(game, self.tables.known_games, self.tables.game).option_specs
        except GameError:
            return []
        choices = {spec.name: tuple(spec.choices) for spec in specs}
        choices.update(
            {"seed": (), "remind": ("12h", "24h", "2d", "off"), "deadline": ("1d", "3d", "1w", "none")}
        )
        choices["on_deadline"] = POLICIES
        words = typed.split(" ")
        head, last = " ".join(words[:-1]), words[-1] if words else ""
        used = {w.split("=", 1)[0] for w in words[:-1] if "=" in w}
        key, sep, value = last.partition("=")
        if sep:
            endings = [f"{key}={v}" for v in choices.get(key, ()) if v.startswith(value)] or (
                [last] if last else []
            )
        else:
            endings = [f"{name}=" for name in choices if name.startswith(key) and name not in used]
        out = []
        for ending in endings:
            text = f"{head} {ending}".strip()
            if len(text) <= 100:
                out.append((text, text))
        return out[: self.tables.limits.choices]
