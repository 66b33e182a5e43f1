"""Playing with buttons and menus: what a press or a pick does, over the same commands as typing.

Every button carries its game and the version of the post it sits under. A press is checked
against the channel's current game: a button of a finished game, or of a position that moved on,
answers privately and offers what is current instead; a press by someone who may not do it says
why. Nothing here knows Discord: a front end turns ``Post.buttons`` and ``Post.menu`` into its own
components and calls ``press`` and ``pick`` with what was chosen.

Undo by consent follows Board Game Arena: a player may ask to take back their own last actions of
the turn under way when nothing random happened and nothing hidden was shown since (the engine's
``can_undo`` says); the others accept or decline (with two players one acceptance suffices), and
the game is rebuilt by replaying its seed and log without the moves taken back, which stay in the
log, marked undone.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from db import GameRecord, Seat
from engine.errors import GameError, StaleAction
from engine.text import PlayerRef, msg
from table import lobby
from table.errors import NoGame, NotSeated, TableError
from table.events import encode_msg
from table.lobby import FIXED_SEED, guard, team_slots
from table.menus import lobby_buttons, moves_menu, vote_buttons
from table.posts import Ctx, Post
from table.replay import handovers, played, replay
from table.service import ServiceCommands
from table.settings import POLICIES
from table.tables import Table
from table.text import find_game

MAX_FRAMES = 240
"""A replay longer than this shows evenly spread handovers (the first and last always)."""


class ClickCommands(ServiceCommands):
    """``press`` and ``pick`` for buttons and menus, ``undo``, ``rematch``; and the lobby's buttons."""

    # ---- what posts carry ----------------------------------------------------------------------------

    def _fixed_seed(self, table: Table, locale: str) -> str:
        """Said in public whenever the creator chose the seed: whoever knows it knows every draw."""
        if table.record.settings.get(FIXED_SEED) != "yes":
            return ""
        return self._t("svc.lobby.fixed_seed", locale, seed=table.record.seed)

    def _lobby_buttons(self, table: Table, locale: str) -> tuple[Any, ...]:
        slots = team_slots(table.game, table.record.players, table.record.options)
        teams = max(slots) + 1 if slots and len(set(slots)) < len(slots) else None
        return lobby_buttons(table, locale, teams)

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
        return out[:25]

    # ---- presses -------------------------------------------------------------------------------------

    async def _game_of(self, ctx: Ctx, game_id: int) -> Table:
        """The channel's game a button belongs to; a button of another game is refused."""
        record = await self.tables.store.get_game(game_id)
        if record is None or record.channel != ctx.channel_id:
            raise NoGame()
        return self.tables.table(record)

    async def press(self, ctx: Ctx, game_id: int, version: int, action: str) -> list[Post]:
        """What pressing ``action`` (as carried by the button) does for the caller."""
        table = await self._game_of(ctx, game_id)
        name, _sep, arg = action.partition(":")
        if name in ("join", "leave", "start"):
            return await self._press_lobby(ctx, table, name, arg)
        if name in ("rules", "log", "rematch", "replay", "details"):
            if name == "details":
                return await self.details(ctx)
            if name == "rules":
                return await self.rules(ctx, table.record.game)
            if name == "log":
                return await self.log(ctx)
            if name == "replay":
                return await self.replay(ctx)
            return await self.rematch(ctx, game_id)
        if not table.record.is_open:
            raise TableError("svc.error.button_over", game=self._game(table, ctx.locale))
        if name == "hand":
            return await self.hand(ctx)
        if name == "moves":
            posts = [] if version == table.record.version else [self._moved_on(ctx, table, version)]
            return [*posts, await self.moves(ctx)]
        if name in ("draw_accept", "abort_accept"):
            self._check_version(table, version)
            return await (self.draw(ctx) if name == "draw_accept" else self.abort(ctx))
        if name in ("draw_decline", "abort_decline"):
            self._check_version(table, version)
            return await self.decline(ctx, name.split("_")[0])
        if name == "undo_accept":
            return await self.accept_undo(ctx, version)
        if name == "undo_decline":
            return await self.decline_undo(ctx, version)
        raise TableError("svc.error.unknown_button")

    def _check_version(self, table: Table, version: int) -> None:
        if version != table.record.version:
            raise StaleAction(given=version, current=table.record.version)

    def _moved_on(self, ctx: Ctx, table: Table, version: int) -> Post:
        return Post(
            self._t("svc.menu.moved_on", ctx.locale, given=version, current=table.record.version),
            ephemeral=True,
        )

    async def _press_lobby(self, ctx: Ctx, table: Table, name: str, arg: str) -> list[Post]:
        """Join, leave or start from the lobby post, which is then shown anew (the seats)."""
        if name == "join":
            posts = await self.join(ctx, int(arg) if arg.isdigit() else None)
        elif name == "leave":
            posts = await self.leave(ctx)
        else:
            posts = await self.start(ctx)
            started = await self.tables.store.get_game(table.record.id)
            assert started is not None
            loc = await self._public(ctx)
            text = self._t(
                "svc.lobby.started",
                loc,
                game=self._game(table, loc),
                seats=self._seats(self.tables.table(started), loc),
            )
            return [Post(text, update=True), *posts]
        fresh = await self.tables.store.get_game(table.record.id)
        assert fresh is not None
        loc = await self._public(ctx)
        first, *rest = posts
        seats = self._t("svc.lobby.seats", loc, seats=self._seats(self.tables.table(fresh), loc))
        said = first.text.split("\n")[0]  # the lobby post shows who is seated; the call to start follows
        return [
            dataclasses.replace(first, text=f"{said}\n{seats}", update=True, mentions=()),
            *rest,
        ] + (
            [
                Post(
                    self._t("table.ready", loc, players=[f"<@{p}>" for p in fresh.player_ids]),
                    mentions=tuple(fresh.player_ids),
                )
            ]
            if first.mentions
            else []
        )

    # ---- the moves menu ------------------------------------------------------------------------------

    async def moves(self, ctx: Ctx, prefix: str = "", page: int = 0) -> Post:
        """The caller's legal moves as a menu (privately); why not, when they may not act."""
        table = await self._running(ctx)
        if ctx.user_id not in table.to_act():
            waiting = [table.name(p) for p in table.to_act()]
            raise TableError("svc.error.not_your_turn_menu", waiting=waiting)
        assert table.state is not None
        labels = {
            str(a): self._t(table.game.label(table.state, a), ctx.locale, names=table.names) or str(a)
            for a in table.game.legal_actions(table.state, ctx.user_id)
        }
        menu = moves_menu(table, ctx.user_id, ctx.locale, labels, prefix, page)
        return Post(menu.title, ephemeral=True, menu=menu)

    async def pick(self, ctx: Ctx, game_id: int, version: int, value: str) -> list[Post]:
        """A choice in the moves menu: a group opens, a page turns, a move is played (version-checked)."""
        table = await self._game_of(ctx, game_id)
        kind, _sep, rest = value.partition(":")
        if kind == "g":
            return [dataclasses.replace(await self.moves(ctx, rest), update=True)]
        if kind == "p":
            page, _sep, prefix = rest.partition(":")
            return [
                dataclasses.replace(
                    await self.moves(ctx, prefix, int(page) if page.isdigit() else 0), update=True
                )
            ]
        if kind != "a":
            raise TableError("svc.error.unknown_button")
        try:
            posts = await self.play(ctx, f"v{version}:{rest}")
        except StaleAction:
            return [self._moved_on(ctx, table, version), await self.moves(ctx)]
        return [dataclasses.replace(post, update=True) for post in posts[:1]] + posts[1:]

    # ---- votes ---------------------------------------------------------------------------------------

    async def decline(self, ctx: Ctx, kind: str) -> list[Post]:
        """Refuse a standing draw offer or abort vote: it is withdrawn, and the channel is told."""
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            votes = await self.tables.store.votes(table.record.id, kind)  # type: ignore[arg-type]
            if not votes:
                raise TableError("svc.error.nothing_to_decline")
            await self.tables.store.clear_votes(table.record.id, kind)  # type: ignore[arg-type]
        loc = await self._public(ctx)
        return [Post(self._t(f"svc.{kind}.declined", loc, player=ctx.user_name), update=True)]

    # ---- undo by consent -----------------------------------------------------------------------------

    async def _takeback(self, table: Table, player: str) -> list[int]:
        """The seq numbers of ``player``'s own last moves, those after anyone else's last action (or
        the last undo): a move can be taken back as long as nobody has answered it."""
        log = await self.tables.store.actions(table.record.id)
        mine: list[int] = []
        for entry in reversed(log):
            if entry.undone:
                continue
            if entry.kind != "move" or entry.player != player:
                break
            mine.append(entry.seq)
        return sorted(mine)

    async def undo(self, ctx: Ctx) -> list[Post]:
        """Ask to take back one's own last actions of this turn; the others accept or decline."""
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            seqs = await self._takeback(table, ctx.user_id)
            if not seqs:
                raise TableError("svc.error.nothing_to_undo")
            why = await self._undo_refusal(table, ctx.user_id, seqs)
            if why is not None:
                raise TableError(why.key, **why.params)
            await self.tables.store.request_undo(
                table.record.id, ctx.user_id, first=seqs[0], version=table.record.version
            )
        others = [p for p in table.record.player_ids if table.side_of(p) != table.side_of(ctx.user_id)]
        loc = await self._public(ctx)
        text = self._t(
            "svc.undo.asked", loc, player=ctx.user_name, count=len(seqs), others=[f"<@{p}>" for p in others]
        )
        return [Post(text, mentions=tuple(others), buttons=vote_buttons("undo", table, loc))]

    async def _undo_refusal(self, table: Table, player: str, seqs: list[int]) -> Any:
        log = await self.tables.store.actions(table.record.id)
        moves = played(e for e in log if e.seq < seqs[0])
        game = table.game
        before = replay(game, table.record.player_ids, table.record.seed, table.record.options, moves)
        state, actions = before, []
        for entry in log:
            if entry.seq in seqs:
                action = game.parse_action(state, player, entry.action)
                actions.append(action)
                state, _events = game.apply(state, player, action)
        return game.can_undo(before, actions, player)

    async def accept_undo(self, ctx: Ctx, version: int) -> list[Post]:
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            request = await self.tables.store.undo_request(table.record.id)
            if request is None or request.version != version or request.version != table.record.version:
                raise TableError("svc.error.no_undo_request")
            if table.side_of(ctx.user_id) == table.side_of(request.player):
                raise TableError("svc.error.undo_own_side")
            request = await self.tables.store.accept_undo(table.record.id, ctx.user_id, version=version)
            others = {table.side_of(p) for p in table.record.player_ids} - {table.side_of(request.player)}
            agreed = {table.side_of(p) for p in request.accepted}
            if not others <= agreed:
                loc = await self._public(ctx)
                return [Post(self._t("svc.undo.accepted_one", loc, player=ctx.user_name))]
            record = await self._take_back(table, request.player, request.first)
        await self._announce(ctx, self.tables.table(record))
        loc = await self._public(ctx)
        return [Post(self._t("svc.undo.done", loc, player=table.name(request.player)), update=True)]

    async def _take_back(self, table: Table, player: str, first: int) -> GameRecord:
        log = await self.tables.store.actions(table.record.id)
        undone = [e.seq for e in log if e.seq >= first and e.kind == "move" and not e.undone]
        kept = played(e for e in log if e.seq not in undone)
        game = table.game
        state = replay(game, table.record.player_ids, table.record.seed, table.record.options, kept)
        event = msg("svc.undo.event", player=PlayerRef(player), count=len(undone))
        return await guard(
            self.tables.store.apply_undo(
                table.record.id,
                version=table.record.version,
                player=player,
                undone=undone,
                events=[encode_msg(event)],
                state=game.dump(state),
            )
        )

    async def decline_undo(self, ctx: Ctx, version: int) -> list[Post]:
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            request = await self.tables.store.undo_request(table.record.id)
            if request is None or request.version != version:
                raise TableError("svc.error.no_undo_request")
            if ctx.user_id == request.player:
                raise TableError("svc.error.undo_own_side")
            await self.tables.store.clear_undo(table.record.id)
        loc = await self._public(ctx)
        return [Post(self._t("svc.undo.declined", loc, player=ctx.user_name), update=True)]

    # ---- replay --------------------------------------------------------------------------------------

    async def replay(self, ctx: Ctx) -> list[Post]:
        """The whole game as an animation, for the caller: a frame at the start and at each handover,
        rebuilt from the seed and the log (the public view only: nothing hidden is drawn)."""
        table = await self._latest(ctx.channel_id)
        if table.state is None:
            raise TableError(
                "table.error.not_started", seated=len(table.record.seats), players=table.record.players
            )
        record, game = table.record, table.game
        log = await self.tables.store.actions(record.id)
        frames = handovers(game, record.player_ids, record.seed, record.options, played(log))
        if len(frames) > MAX_FRAMES:
            step = (len(frames) - 1) / (MAX_FRAMES - 1)
            frames = [frames[round(i * step)] for i in range(MAX_FRAMES)]
        image = await self.tables.drawer.draw(
            "replay", {"frames": frames}, names=table.names, locale=ctx.locale
        )
        text = self._t("svc.replay.ready", ctx.locale, game=self._game(table, ctx.locale), frames=len(frames))
        return [Post(text, image=image, filename="replay.gif", ephemeral=True)]

    # ---- rematch -------------------------------------------------------------------------------------

    async def rematch(self, ctx: Ctx, game_id: int) -> list[Post]:
        """The same seats and options, a new seed: a player of the finished game deals it again."""
        record = await self.tables.store.get_game(game_id)
        if record is None or record.channel != ctx.channel_id:
            raise NoGame()
        if record.is_open:
            raise TableError("svc.error.rematch_running")
        if record.seat_of(ctx.user_id) is None:
            raise NotSeated()
        settings = {k: v for k, v in record.settings.items() if k != FIXED_SEED}
        async with self.tables.lock(ctx.channel_id):
            try:
                created = await self.tables.store.create_game(
                    channel=record.channel,
                    game=record.game,
                    creator=Seat(ctx.user_id, ctx.user_name),
                    players=record.players,
                    options=record.options,
                    seed=self.tables.new_seed(),
                    guild=record.guild,
                    locale=record.locale,
                    settings=settings,
                )
            except Exception as exc:  # another game opened here meanwhile
                raise TableError(
                    "table.error.channel_busy", game=self._game(self.tables.table(record), ctx.locale)
                ) from exc
            for seat in record.seats:
                if seat.player != ctx.user_id:
                    await self.tables.store.add_seat(created.id, Seat(seat.player, seat.name, seat.team))
        started = await lobby.start(self.tables, ctx)
        await self._announce(ctx, started)
        return [
            Post(self._t("svc.rematch.ack", ctx.locale, game=self._game(started, ctx.locale)), ephemeral=True)
        ]
