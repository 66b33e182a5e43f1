"""Front-end-neutral command handlers: each takes a ``Ctx`` and returns ``Post`` values.

The Discord cogs and the console call these and only send what comes back. Public posts
are written in the channel's language, ephemeral replies and errors in the caller's. A
refused request raises a ``GameError`` (the front end shows its message privately) and
changes nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import i18n
from engine.contract import Result
from engine.errors import BadInput, GameError, GameOver
from engine.text import Msg
from table import endings, lobby
from table.errors import NoGame, NotSeated, TableError
from table.events import decode_msg, decode_result
from table.options import format_options
from table.posts import Ctx, Post, mention
from table.tables import Table, Tables
from table.text import find_game, game_title, has_key, mentions, name_players_in, named

LOG_PAGE_SIZE = 10
MAX_TEXT = 1900  # under Discord's 2000 characters per message, with room for a suffix
MAX_CHOICES = 25  # Discord's autocomplete limit
MAX_CHOICE_LEN = 100

_VERSIONED = re.compile(r"^\s*v(\d+)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)

# Catalog prefixes naming the items a game's private view lists (coins, cards...).
_ITEM_KEYS = {"warchest": ("wc.unit.", "wc.coin."), "cryhavoc": ("ch.card.",)}


def split_version(text: str) -> tuple[int | None, str]:
    """``"v12:move archer c3 d4"`` -> ``(12, "move archer c3 d4")``; no prefix -> ``(None, text)``."""
    m = _VERSIONED.match(text or "")
    if m is None:
        return None, (text or "").strip()
    return int(m.group(1)), m.group(2).strip()


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Commands:
    """The commands of the bot, over a ``Tables``."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    # ---- text helpers --------------------------------------------------------------------

    @staticmethod
    def _t(key: str | Msg, locale: str, /, *, names: Mapping[str, str] | None = None, **params: Any) -> str:
        return i18n.t(key, locale, names=names, **params)

    def _game(self, table: Table, locale: str) -> str:
        return self._t_value(game_title(table.record.game), locale)

    def _t_value(self, value: Msg | str, locale: str) -> str:
        return self._t(value, locale) if isinstance(value, Msg) else value

    def _seats(self, table: Table, locale: str) -> str:
        parts = []
        for seat in table.record.seats:
            if seat.team is None:
                parts.append(seat.name)
            else:
                parts.append(self._t("table.seat.team", locale, name=seat.name, team=seat.team + 1))
        return ", ".join(parts) or "—"

    def _options(self, table: Table, locale: str) -> str:
        return format_options(table.record.options) or self._t("table.options.none", locale)

    def _turn(self, table: Table, locale: str) -> str:
        acting = table.to_act()
        return self._t("table.turn", locale, players=mentions(acting)) if acting else ""

    def _result_text(self, table: Table, result: Result | None, locale: str) -> str:
        if result is None:
            return self._t("table.result.aborted", locale)
        reason = self._t(result.reason, locale, names=table.names)
        if result.draw or not result.winners:
            return self._t("table.result.draw", locale, reason=reason)
        return self._t("table.result.win", locale, winners=mentions(result.winners), reason=reason)

    def _stored_result(self, table: Table) -> Result | None:
        data = table.record.result
        return None if data is None else decode_result(data)

    # ---- lobby ---------------------------------------------------------------------------

    async def new(self, ctx: Ctx, game: str, players: int | None = None, options: str = "") -> list[Post]:
        table = await lobby.create(self.tables, ctx, game, players, options)
        loc = ctx.channel_locale
        text = self._t(
            "table.new",
            loc,
            player=ctx.user_name,
            game=self._game(table, loc),
            seated=len(table.record.seats),
            players=table.record.players,
            options=self._options(table, loc),
        )
        return [Post(text)]

    async def join(self, ctx: Ctx, team: int | None = None) -> list[Post]:
        table = await lobby.join(self.tables, ctx, team)
        loc = ctx.channel_locale
        rec = table.record
        params: dict[str, Any] = {
            "player": ctx.user_name,
            "game": self._game(table, loc),
            "seated": len(rec.seats),
        }
        if team is None:
            text = self._t("table.joined", loc, players=rec.players, **params)
        else:
            text = self._t("table.joined_team", loc, players=rec.players, team=team, **params)
        pinged: tuple[str, ...] = ()
        if len(rec.seats) == rec.players:
            text += "\n" + self._t("table.ready", loc, players=mentions(rec.player_ids))
            pinged = tuple(rec.player_ids)
        return [Post(text, mentions=pinged)]

    async def leave(self, ctx: Ctx) -> list[Post]:
        left = await lobby.leave(self.tables, ctx)
        loc = ctx.channel_locale
        rec = left.table.record
        if left.closed:
            text = self._t("table.left_closed", loc, player=ctx.user_name)
        elif left.new_creator is not None:
            text = self._t(
                "table.left_new_creator",
                loc,
                player=ctx.user_name,
                creator=left.table.name(left.new_creator),
                seated=len(rec.seats),
                players=rec.players,
            )
        else:
            text = self._t(
                "table.left", loc, player=ctx.user_name, seated=len(rec.seats), players=rec.players
            )
        return [Post(text)]

    async def start(self, ctx: Ctx) -> list[Post]:
        table = await lobby.start(self.tables, ctx)
        loc = ctx.channel_locale
        image = await self.tables.board_image(table, loc)
        text = self._t("table.started", loc, game=self._game(table, loc), seats=self._seats(table, loc))
        text = "\n".join(filter(None, [text, self._turn(table, loc)]))
        return [Post(_clip(text), image=image, mentions=tuple(table.to_act()))]

    # ---- looking -------------------------------------------------------------------------

    async def _latest(self, channel: str) -> Table:
        """The open game, else the last one played here; a lobby closed unplayed does not count."""
        table = await self.tables.latest(channel)
        if table is None or (table.record.status == "aborted" and table.state is None):
            raise NoGame()
        return table

    async def status(self, ctx: Ctx) -> list[Post]:
        table = await self._latest(ctx.channel_id)
        loc = ctx.locale
        rec = table.record
        common: dict[str, Any] = {"game": self._game(table, loc), "seats": self._seats(table, loc)}
        if rec.status == "lobby":
            text = self._t(
                "table.status.lobby",
                loc,
                seated=len(rec.seats),
                players=rec.players,
                creator=table.name(rec.creator),
                options=self._options(table, loc),
                **common,
            )
        elif rec.status == "active":
            lines = [
                self._t(
                    "table.status.active",
                    loc,
                    version=rec.version,
                    waiting=named(table.to_act(), table.names),
                    options=self._options(table, loc),
                    **common,
                )
            ]
            for kind in ("draw", "abort"):
                votes = await self.tables.store.votes(rec.id, kind)
                if votes:
                    lines.append(
                        self._t(f"table.status.votes_{kind}", loc, players=named(votes, table.names))
                    )
            text = "\n".join(lines)
        else:
            text = self._t(
                "table.status.finished",
                loc,
                result=self._result_text(table, self._stored_result(table), loc),
                **common,
            )
        return [Post(_clip(text), ephemeral=True)]

    async def board(self, ctx: Ctx) -> list[Post]:
        table = await self._latest(ctx.channel_id)
        rec = table.record
        if table.state is None:
            raise TableError("table.error.not_started", seated=len(rec.seats), players=rec.players)
        loc = ctx.channel_locale
        image = await self.tables.board_image(table, loc)
        lines = [self._t("table.board", loc, game=self._game(table, loc), version=rec.version)]
        if rec.status == "active":
            lines.append(self._t("table.status.waiting", loc, players=named(table.to_act(), table.names)))
        else:
            lines.append(self._result_text(table, self._stored_result(table), loc))
        return [Post(_clip("\n".join(lines)), image=image)]

    async def log(self, ctx: Ctx, page: int = 1) -> list[Post]:
        """The rendered events, newest page first (page 1 holds the latest moves)."""
        table = await self._latest(ctx.channel_id)
        loc = ctx.locale
        rec = table.record
        total = await self.tables.store.count_actions(rec.id)
        pages = max(1, math.ceil(total / LOG_PAGE_SIZE))
        if not 1 <= page <= pages:
            raise TableError("table.error.bad_page", page=page, pages=pages)
        header = self._t("table.log.header", loc, game=self._game(table, loc), page=page, pages=pages)
        if total == 0:
            return [Post(header + "\n" + self._t("table.log.empty", loc), ephemeral=True)]
        end = total - (page - 1) * LOG_PAGE_SIZE
        begin = max(0, end - LOG_PAGE_SIZE)
        lines = [header]
        for entry in await self.tables.store.actions(rec.id, offset=begin, limit=end - begin):
            events = [self._t(decode_msg(e), loc, names=table.names) for e in entry.events]
            body = (
                " ".join(events)
                if events
                else self._t("table.log.silent", loc, player=table.name(entry.player), action=entry.action)
            )
            lines.append(_clip(f"{entry.seq}. {body}", 180))
        return [Post(_clip("\n".join(lines)), ephemeral=True)]

    async def rules(self, ctx: Ctx, game: str | None = None) -> list[Post]:
        loc = ctx.locale
        if game is not None:
            names = [find_game(game, self.tables.known_games, self.tables.game).name]
        else:
            table = await self.tables.latest(ctx.channel_id)
            names = [table.record.game] if table is not None else list(self.tables.known_games)
        parts = []
        for name in names:
            key = f"table.rules.summary.{name}"
            summary = self._t(key, loc) if has_key(key) else self._t("table.rules.no_summary", loc)
            title = self._t_value(game_title(name), loc)
            parts.append(
                self._t("table.rules.text", loc, game=title, summary=summary, path=f"docs/rules/{name}.md")
            )
        return [Post(_clip("\n\n".join(parts)), ephemeral=True)]

    async def help(self, ctx: Ctx) -> list[Post]:
        games = [self._t_value(game_title(g), ctx.locale) for g in self.tables.known_games]
        return [Post(_clip(self._t("table.help", ctx.locale, games=games)), ephemeral=True)]

    # ---- ending --------------------------------------------------------------------------

    async def resign(self, ctx: Ctx) -> list[Post]:
        table, result = await endings.resign(self.tables, ctx)
        text = self._result_text(table, result, ctx.channel_locale)
        return [Post(text, mentions=tuple(result.winners))]

    async def draw(self, ctx: Ctx) -> list[Post]:
        vote = await endings.draw(self.tables, ctx)
        loc = ctx.channel_locale
        if vote.done:
            return [Post(self._result_text(vote.table, vote.result, loc))]
        text = self._t(
            "table.draw.offered", loc, player=vote.table.name(ctx.user_id), others=mentions(vote.waiting)
        )
        return [Post(text, mentions=vote.waiting)]

    async def abort(self, ctx: Ctx) -> list[Post]:
        vote = await endings.abort(self.tables, ctx)
        loc = ctx.channel_locale
        game = self._game(vote.table, loc)
        if vote.done and vote.table.state is None:
            return [Post(self._t("table.abort.lobby", loc, player=ctx.user_name, game=game))]
        if vote.done:
            return [Post(self._t("table.abort.done", loc, game=game))]
        text = self._t(
            "table.abort.vote",
            loc,
            player=vote.table.name(ctx.user_id),
            votes=len(vote.voters),
            needed=len(vote.table.record.seats),
            waiting=mentions(vote.waiting),
        )
        return [Post(text, mentions=vote.waiting)]

    # ---- playing -------------------------------------------------------------------------

    async def _running(self, ctx: Ctx) -> Table:
        table = await self.tables.open(ctx.channel_id)
        if table is None:
            latest = await self.tables.store.latest_game(ctx.channel_id)
            if latest is not None and latest.state is not None:
                raise GameOver()
            raise NoGame()
        rec = table.record
        if rec.status != "active":
            raise TableError("table.error.not_started", seated=len(rec.seats), players=rec.players)
        if rec.seat_of(ctx.user_id) is None:
            raise NotSeated()
        return table

    async def play(self, ctx: Ctx, action: str) -> list[Post]:
        """Apply one action; the post carries the new board and pings whoever acts next."""
        version, text = split_version(action)
        if not text:
            raise BadInput(input=action)
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            try:
                moved = await self.tables.apply(table, ctx.user_id, text, version=version)
            except GameError as err:
                raise name_players_in(err, table.names) from None
        after = moved.table
        loc = ctx.channel_locale
        image = await self.tables.board_image(after, loc)
        lines = [self._t(e, loc, names=after.names) for e in moved.events]
        if moved.result is not None or after.record.status == "over":
            result = moved.result or self._stored_result(after)
            lines.append(self._result_text(after, result, loc))
            pinged = tuple(result.winners) if result else ()
        else:
            lines.append(self._turn(after, loc))
            pinged = tuple(after.to_act())
        return [Post(_clip("\n".join(filter(None, lines))), image=image, mentions=pinged)]

    async def hand(self, ctx: Ctx) -> list[Post]:
        """The caller's hidden information, privately: an image and a text listing."""
        table = await self._running(ctx)
        loc = ctx.locale
        view, image = await self.tables.private_image(table, ctx.user_id, loc)
        private = view.get("private") or {}
        lines = [self._t("table.hand.header", loc, game=self._game(table, loc))]
        shown = {k: v for k, v in private.items() if k != "seat"}
        if not shown:
            lines.append(self._t("table.hand.none", loc))
        for key, value in shown.items():
            label = self._t(f"table.private.{key}", loc) if has_key(f"table.private.{key}") else key
            lines.append(
                self._t("table.hand.line", loc, what=label, items=self._items(table.record.game, value, loc))
            )
        return [Post(_clip("\n".join(lines)), image=image, filename="hand.png", ephemeral=True)]

    def _item(self, game: str, item: Any, loc: str) -> str:
        for prefix in (*_ITEM_KEYS.get(game, ()), f"{game}.item."):
            if has_key(prefix + str(item)):
                return self._t(prefix + str(item), loc)
        return str(item)

    def _items(self, game: str, value: Any, loc: str) -> str:
        if isinstance(value, Mapping):
            parts = [f"{self._item(game, k, loc)} ×{n}" for k, n in value.items() if n]
        elif isinstance(value, (list, tuple)):
            parts = [self._item(game, v, loc) for v in value]
        else:
            return str(value)
        return ", ".join(parts) if parts else self._t("table.hand.empty", loc)

    async def turn_note(self, ctx: Ctx) -> str | None:
        """Why the caller has no move now, in their language: whose turn it is; None on their turn.

        A front end that lists the caller's moves says this instead of "no legal move" when the
        list is empty because someone else must act. Raises like ``play`` when there is no running
        game or the caller is not seated in it.
        """
        table = await self._running(ctx)
        acting = table.to_act()
        if ctx.user_id in acting:
            return None
        return self._t("error.not_your_turn", ctx.locale, waiting=named(acting, table.names))

    async def autocomplete(self, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
        """The caller's legal actions matching every typed word, as (label, "v<version>:<action>")."""
        try:
            table = await self._running(ctx)
        except GameError:
            return []
        game, state, rec = table.game, table.state, table.record
        if ctx.user_id not in table.to_act():
            return []
        _version, rest = split_version(typed)
        words = rest.lower().split()
        choices: list[tuple[str, str]] = []
        offered: set[str] = set()
        typed_act = _typed_action(table, ctx.user_id, rest)
        if typed_act is not None:
            text = str(typed_act)
            value = f"v{rec.version}:{text}"
            if len(value) <= MAX_CHOICE_LEN:
                label = self._t(game.label(state, typed_act), ctx.locale, names=table.names) or text
                choices.append((_clip(label, MAX_CHOICE_LEN), value))
                offered.add(text)
        for act in game.legal_actions(state, ctx.user_id):
            text = str(act)
            value = f"v{rec.version}:{text}"
            if len(value) > MAX_CHOICE_LEN or text in offered:
                continue
            label = self._t(game.label(state, act), ctx.locale, names=table.names) or text
            low_label, low_text = label.lower(), text.lower()
            if all(w in low_label or w in low_text for w in words):
                choices.append((_clip(label, MAX_CHOICE_LEN), value))
                if len(choices) == MAX_CHOICES:
                    break
        return choices


def _typed_action(table: Table, player: str, typed: str) -> Any | None:
    """The action the caller typed in full, when it is legal now; else None.

    Autocomplete lists the legal actions a game enumerates, and some legal actions are
    not among them: a Batailles troop recruited under a name the player makes up
    (``recruit cannon1 1 2 0 2 0 0``) while the list offers only default names. Such a
    text is tried on a copy of the state, so the player sees it offered (and can send
    it) exactly when ``/play`` would accept it.
    """
    if not typed.strip() or table.state is None:
        return None
    game = table.game
    try:
        action = game.parse_action(table.state, player, typed)
        game.apply(game.load(game.dump(table.state)), player, action)
    except (GameError, ValueError, IndexError):
        return None
    return action


__all__ = ["Commands", "Ctx", "Post", "mention", "split_version"]
