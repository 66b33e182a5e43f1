"""Playing with buttons and menus: what a press or a pick does, over the same commands as typing.

Every button carries its game and the version of the post it sits under. A press is checked
against the channel's current game: a button of a finished game, or of a position that moved on,
answers privately and offers what is current instead; a press by someone who may not do it says
why. Nothing here knows Discord: a front end turns ``Post.buttons`` and ``Post.menu`` into its own
components and calls ``press`` and ``pick`` with what was chosen.

Undo by consent follows Board Game Arena: a player takes back one action at a time, their last one
not taken back yet, as long as nobody else has played since; it is refused only when a die was
rolled or something drawn at random since, or something hidden was shown to them or their team (the
engine's ``can_undo`` says, ``engine.undo`` states the rule). What they showed of their own does
not block. The other sides accept or decline by button (with two players, the opponent alone); a
computer player consents without being asked. Against computer players only, the undo is applied at
once and also takes back the bots' replies played since that action (the same rule over the whole
span); it is then the person's turn again, so no bot plays until they do. A forced move, played for a
player whom the rules left no other, is taken back with the action before it. The game is rebuilt by
replaying its seed and log without the moves taken back, which stay in the log, marked undone, and
the undo's own row names them (their first event each, as the log showed them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable
from typing import Protocol

from db import ActionRecord, GameRecord, Seat, VoteKind
from engine.errors import StaleAction
from engine.text import Msg, PlayerRef, msg
from table.core.errors import NoGame, NotSeated, TableError, player_facing
from table.core.events import decode_msg, encode_msg
from table.core.marks import mention
from table.core.posts import Ctx, Post, is_bot, pictured
from table.core.replay import handovers, played, replay
from table.core.tables import Table, Tables, ended_view
from table.core.text import named
from table.core.wording import Wording
from table.play import lobby
from table.play.finishing import Finishing
from table.play.lobby import FIXED_SEED, guard
from table.play.looking import Looking
from table.play.playing import Playing
from table.play.seating import Seating
from table.play.service import Service
from table.posting.menus import moves_menu, vote_buttons

MAX_FRAMES = 240
"""A replay longer than this shows evenly spread handovers (the first and last always)."""


def _step(entry: ActionRecord) -> Msg:
    """A move taken back, as the table read it: its first event (what the player did), quoted; a
    move without events is named by its text, as the log does."""
    if entry.events:
        return msg("svc.undo.step", event=decode_msg(entry.events[0]))
    return msg(
        "svc.undo.step", event=msg("table.log.silent", player=PlayerRef(entry.player), action=entry.action)
    )


class _Why(Protocol):
    """``/game why``, told of the move ``upto`` made when a post's "Why?" is pressed."""

    def __call__(self, ctx: Ctx, upto: int | None = None) -> Awaitable[list[Post]]: ...


class Clicks:
    """``press`` and ``pick`` for buttons and menus, ``undo``, ``rematch``, the replay and the final board.

    A press does what the typed command does, so this is built from the groups whose handlers the
    buttons stand for (``Seating``, ``Looking``, ``Finishing``, ``Playing``, and ``why``), with the
    tables, the service and the words."""

    def __init__(
        self,
        tables: Tables,
        service: Service,
        words: Wording,
        *,
        seating: Seating,
        looking: Looking,
        finishing: Finishing,
        playing: Playing,
        why: _Why,
    ) -> None:
        self.tables = tables
        self.service = service
        self.words = words
        self.seating = seating
        self.looking = looking
        self.finishing = finishing
        self.playing = playing
        self.why = why

    # ---- presses -------------------------------------------------------------------------------------

    async def _game_of(self, ctx: Ctx, game_id: int, version: int) -> Table:
        """The channel's game a button belongs to; a button of another game is refused, and so is
        one of a version the game never reached (no post of the bot's shows one)."""
        record = await self.tables.store.get_game(game_id)
        if record is None or record.channel != ctx.channel_id:
            raise NoGame()
        if version > record.version:
            raise TableError("svc.error.unknown_button")
        return self.tables.table(record)

    async def press(self, ctx: Ctx, game_id: int, version: int, action: str) -> list[Post]:
        """What pressing ``action`` (as carried by the button) does for the caller."""
        name, _sep, arg = action.partition(":")
        if name in ("replay", "final") and arg.isdigit():  # /history: any finished game of this server
            record = await self.tables.store.get_game(int(arg))
            if record is None or record.guild != ctx.guild_id or record.state is None:
                raise NoGame()
            found = self.tables.table(record)
            return await (self.replay(ctx, found) if name == "replay" else self.final_board(ctx, found))
        table = await self._game_of(ctx, game_id, version)
        if name in ("join", "leave", "start"):
            return await self._press_lobby(ctx, table, name, arg)
        if name in ("rules", "log", "rematch", "replay", "details", "why"):
            if name == "why":
                return await self.why(ctx, upto=version)
            if name == "details":
                return await self.looking.details(ctx)
            if name == "rules":
                return await self.looking.rules(ctx, table.record.game)
            if name == "log":
                return await self.looking.log(ctx)
            if name == "replay":
                return await self.replay(ctx)
            return await self.rematch(ctx, game_id)
        if not table.record.is_open:
            raise TableError("svc.error.button_over", game=self.words.game(table, ctx.locale))
        if name == "hand":
            return await self.playing.hand(ctx)
        if name == "moves":
            posts = [] if version == table.record.version else [self._moved_on(ctx, table, version)]
            return [*posts, await self.moves(ctx)]
        if name in ("draw_accept", "abort_accept"):
            self._check_version(table, version)
            if name == "draw_accept":
                return await self.finishing.draw(ctx, answering=True)
            return await self.finishing.abort(ctx, answering=True)
        if name in ("draw_decline", "abort_decline"):
            self._check_version(table, version)
            return await self.decline(ctx, "draw" if name == "draw_decline" else "abort")
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
            self.words.t("svc.menu.moved_on", ctx.locale, given=version, current=table.record.version),
            ephemeral=True,
        )

    async def _press_lobby(self, ctx: Ctx, table: Table, name: str, arg: str) -> list[Post]:
        """Join, leave or start from the lobby post, which is then shown anew (the seats)."""
        if name == "join":
            posts = await self.seating.join(ctx, int(arg) if arg.isdigit() else None)
        elif name == "leave":
            posts = await self.seating.leave(ctx)
        else:
            posts = await self.seating.start(ctx)
            started = await self.tables.store.get_game(table.record.id)
            assert started is not None
            loc = await self.service.public(ctx)
            text = self.words.t(
                "svc.lobby.started",
                loc,
                game=self.words.game(table, loc),
                seats=self.words.seats(self.tables.table(started), loc),
            )
            return [Post(text, update=True), *posts]
        fresh = await self.tables.store.get_game(table.record.id)
        assert fresh is not None
        loc = await self.service.public(ctx)
        first, *rest = posts
        seats = self.words.t("svc.lobby.seats", loc, seats=self.words.seats(self.tables.table(fresh), loc))
        said = first.text.split("\n")[0]  # the lobby post shows who is seated; the call to start follows
        ready, people = self.seating.ready(fresh, loc)
        return [
            dataclasses.replace(first, text=f"{said}\n{seats}", update=True, mentions=()),
            *rest,
        ] + ([Post(ready, mentions=people)] if first.mentions and ready else [])

    # ---- the moves menu ------------------------------------------------------------------------------

    async def moves(self, ctx: Ctx, prefix: str = "", page: int = 0) -> Post:
        """The caller's legal moves as a menu (privately); why not, when they may not act."""
        table = await self.playing.running(ctx)
        if ctx.user_id not in table.to_act():
            waiting = [table.name(p) for p in table.to_act()]
            raise TableError("svc.error.not_your_turn_menu", waiting=waiting)
        assert table.state is not None
        labels = {
            str(a): self.words.t(table.game.label(table.state, a), ctx.locale, names=table.names) or str(a)
            for a in table.game.legal_actions(table.state, ctx.user_id)
        }
        menu = moves_menu(table, ctx.user_id, ctx.locale, labels, self.tables.limits, prefix, page)
        return Post(menu.title, ephemeral=True, menu=menu)

    async def pick(self, ctx: Ctx, game_id: int, version: int, value: str) -> list[Post]:
        """A choice in the moves menu: a group opens, a page turns, a move is played (version-checked)."""
        table = await self._game_of(ctx, game_id, version)
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
            posts = await self.playing.play(ctx, f"v{version}:{rest}")
        except StaleAction:
            return [self._moved_on(ctx, table, version), await self.moves(ctx)]
        return [dataclasses.replace(post, update=True) for post in posts[:1]] + posts[1:]

    # ---- votes ---------------------------------------------------------------------------------------

    async def decline(self, ctx: Ctx, kind: VoteKind) -> list[Post]:
        """Refuse a standing draw offer or abort vote: it is withdrawn, and the channel is told."""
        async with self.tables.lock(ctx.channel_id):
            table = await self.playing.running(ctx)
            votes = await self.tables.store.votes(table.record.id, kind)
            if not votes:
                raise TableError("svc.error.no_draw_offer" if kind == "draw" else "svc.error.no_abort_vote")
            await self.tables.store.clear_votes(table.record.id, kind)
        loc = await self.service.public(ctx)
        return [Post(self.words.t(f"svc.{kind}.declined", loc, player=ctx.user_name), update=True)]

    # ---- undo by consent -----------------------------------------------------------------------------

    async def _takeback(self, table: Table, player: str) -> list[ActionRecord]:
        """The moves an undo by ``player`` takes back: their last move not taken back yet and, at a
        table where every other seat is a computer player, the bots' moves since. Moves taken back
        before and the undo rows are passed over, so asking again steps one action further back.
        A forced move (played for its player, who had no choice) is nobody's answer: it goes back
        with the action before it, whoever it was played for. Refused when there is none, or when
        another person has played since (they answered it)."""
        log = await self.tables.store.actions(table.record.id)
        bots_only = all(is_bot(p) for p in table.record.player_ids if p != player)
        span: list[ActionRecord] = []
        for entry in reversed(log):
            if entry.undone or entry.kind != "move":
                continue
            span.append(entry)
            if entry.auto:
                continue
            if entry.player == player:
                return span[::-1]
            if not (bots_only and is_bot(entry.player)):
                raise TableError("svc.error.undo_answered", player=table.name(entry.player))
        raise TableError("svc.error.nothing_to_undo")

    def _deciders(self, table: Table, player: str) -> list[str]:
        """The people who answer ``player``'s request: every person of another side (a computer
        player consents without being asked, so a side of bots only is never waited for)."""
        side = table.side_of(player)
        return [p for p in table.record.player_ids if table.side_of(p) != side and not is_bot(p)]

    async def undo(self, ctx: Ctx) -> list[Post]:
        """Ask to take back one's last action (one more each time); the other people accept or decline.
        Against computer players only, it is taken back at once, with the bots' replies since."""
        async with self.tables.lock(ctx.channel_id):
            table = await self.playing.running(ctx)
            if table.record.seat_of(ctx.user_id) is None:
                raise NotSeated()
            others = self._deciders(table, ctx.user_id)
            standing = await self.tables.store.undo_request(table.record.id)
            if (
                others
                and standing is not None
                and standing.player == ctx.user_id
                and standing.version == table.record.version
            ):  # asked again while the request stands: it is not posted twice
                waiting = [p for p in others if p not in standing.accepted]
                raise TableError("svc.error.undo_waiting", players=named(waiting, table.names))
            span = await self._takeback(table, ctx.user_id)
            why = await self._undo_refusal(table, ctx.user_id, span)
            if why is not None:
                raise TableError(why.key, **why.params)
            if others:
                await player_facing(
                    self.tables.store.request_undo(
                        table.record.id, ctx.user_id, first=span[0].seq, version=table.record.version
                    )
                )
            else:
                record, steps = await self._take_back(table, ctx.user_id, span[0].seq)
        loc = await self.service.public(ctx)
        if not others:
            await self.service.announce(ctx, self.tables.table(record))
            return [Post(self.words.t("svc.undo.done", loc, names=table.named, steps=steps))]
        text = self.words.t(
            "svc.undo.asked",
            loc,
            names=table.named,
            player=ctx.user_name,
            step=_step(span[0]),
            others=[mention(p) for p in others],
        )
        return [Post(text, mentions=tuple(others), buttons=vote_buttons("undo", table, loc))]

    async def _undo_refusal(self, table: Table, player: str, span: list[ActionRecord]) -> Msg | None:
        """The engine's word on taking back ``span``, replayed from the position before it."""
        log = await self.tables.store.actions(table.record.id)
        first = span[0].seq
        moves = played(e for e in log if e.seq < first)
        game = table.game
        before = replay(game, table.record.player_ids, table.record.seed, table.record.options, moves)
        state, steps = before, []
        for entry in span:
            action = game.parse_action(state, entry.player, entry.action)
            steps.append((entry.player, action))
            state, _events = game.apply(state, entry.player, action)
        return game.can_undo(before, steps, player)

    async def accept_undo(self, ctx: Ctx, version: int) -> list[Post]:
        async with self.tables.lock(ctx.channel_id):
            table = await self.playing.running(ctx)
            request = await self.tables.store.undo_request(table.record.id)
            if request is None or request.version != version or request.version != table.record.version:
                raise TableError("svc.error.no_undo_request")
            if table.record.seat_of(ctx.user_id) is None:
                raise NotSeated()
            if table.side_of(ctx.user_id) == table.side_of(request.player):
                raise TableError("svc.error.undo_own_side")
            request = await player_facing(
                self.tables.store.accept_undo(table.record.id, ctx.user_id, version=version)
            )
            others = {table.side_of(p) for p in self._deciders(table, request.player)}
            agreed = {table.side_of(p) for p in request.accepted}
            if not others <= agreed:
                loc = await self.service.public(ctx)
                return [Post(self.words.t("svc.undo.accepted_one", loc, player=ctx.user_name))]
            record, steps = await self._take_back(table, request.player, request.first)
        await self.service.announce(ctx, self.tables.table(record))
        loc = await self.service.public(ctx)
        return [Post(self.words.t("svc.undo.done", loc, names=table.named, steps=steps), update=True)]

    async def _take_back(self, table: Table, player: str, first: int) -> tuple[GameRecord, list[Msg]]:
        """Store the taking back of the moves from ``first`` on, in one transaction: they stay in the
        log, marked undone, and the undo row's event says which they were. The record after, and the
        moves taken back as the table read them, for the answer to say."""
        log = await self.tables.store.actions(table.record.id)
        span = [e for e in log if e.seq >= first and e.kind == "move" and not e.undone]
        kept = played(e for e in log if e.seq < first)
        game = table.game
        state = replay(game, table.record.player_ids, table.record.seed, table.record.options, kept)
        replies = len(span) - 1
        steps = [_step(e) for e in span]
        event = (
            msg("svc.undo.event", player=PlayerRef(player), steps=steps)
            if not replies
            else msg("svc.undo.event_bots", player=PlayerRef(player), steps=steps, replies=replies)
        )
        record = await guard(
            self.tables.store.apply_undo(
                table.record.id,
                version=table.record.version,
                player=player,
                undone=[e.seq for e in span],
                events=[encode_msg(event)],
                state=game.dump(state),
            )
        )
        return record, steps

    async def decline_undo(self, ctx: Ctx, version: int) -> list[Post]:
        async with self.tables.lock(ctx.channel_id):
            table = await self.playing.running(ctx)
            request = await self.tables.store.undo_request(table.record.id)
            if request is None or request.version != version:
                raise TableError("svc.error.no_undo_request")
            if table.record.seat_of(ctx.user_id) is None:
                raise NotSeated()
            if ctx.user_id == request.player:
                raise TableError("svc.error.undo_own_side")
            await self.tables.store.clear_undo(table.record.id)
        loc = await self.service.public(ctx)
        return [Post(self.words.t("svc.undo.declined", loc, player=ctx.user_name), update=True)]

    # ---- replay --------------------------------------------------------------------------------------

    async def replay(self, ctx: Ctx, table: Table | None = None) -> list[Post]:
        """The whole game as an animation, for the caller: a frame at the start and at each handover,
        rebuilt from the seed and the log (the public view only: nothing hidden is drawn). The
        channel's latest game, or ``table``'s."""
        table = table or await self.looking.latest(ctx.channel_id)
        if table.state is None:
            raise TableError(
                "table.error.not_started", seated=len(table.record.seats), players=table.record.players
            )
        record, game = table.record, table.game
        log = await self.tables.store.actions(record.id)
        frames = handovers(game, record.player_ids, record.seed, record.options, played(log))
        if frames and table.state is not None:  # the last frame shows how the table ended the game
            frames[-1] = ended_view(frames[-1], record, game.is_over(table.state))
        if len(frames) > MAX_FRAMES:
            step = (len(frames) - 1) / (MAX_FRAMES - 1)
            frames = [frames[round(i * step)] for i in range(MAX_FRAMES)]
        picture = await self.tables.picture("replay", {"frames": frames}, table.names, ctx.locale)
        text = self.words.t(
            "svc.replay.ready", ctx.locale, game=self.words.game(table, ctx.locale), frames=len(frames)
        )
        return [Post(text, filename="replay.gif", ephemeral=True, **pictured(picture))]

    async def final_board(self, ctx: Ctx, table: Table) -> list[Post]:
        """The last board of a game of the server (``/history``'s button), for the caller alone: the
        position it ended on with its result, or where it stands when it has not ended."""
        loc = ctx.locale
        picture = await self.tables.board_image(table, loc)
        rec = table.record
        lines = [self.words.t("rating.history.final_ready", loc, game=self.words.game(table, loc), id=rec.id)]
        if rec.status == "over":
            lines.append(self.words.result_text(table, self.words.stored_result(table), loc))
        elif rec.status == "aborted":
            lines.append(self.words.t("rating.history.aborted_board", loc))
        return [Post("\n".join(lines), ephemeral=True, **pictured(picture))]

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
                    "table.error.channel_busy", game=self.words.game(self.tables.table(record), ctx.locale)
                ) from exc
            for seat in record.seats:
                if seat.player != ctx.user_id:
                    await self.tables.store.add_seat(created.id, Seat(seat.player, seat.name, seat.team))
        started = await lobby.start(self.tables, ctx)
        await self.service.announce(ctx, started)
        return [
            Post(
                self.words.t("svc.rematch.ack", ctx.locale, game=self.words.game(started, ctx.locale)),
                ephemeral=True,
            )
        ]
