"""The commands of a play-by-post service around the games: where it is my turn, notifications,
server settings, and moderation.

``Commands`` inherits these handlers; like every handler they take a ``Ctx`` and return ``Post``
values, refuse with a ``GameError`` and change nothing when they refuse. Every moderation act is
posted publicly and kept in the game's log (a note), so nobody's game ends in silence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import i18n
from engine.contract import Result
from engine.text import PlayerRef, msg
from table.core.clock import discord_time, parse_stamp
from table.core.errors import NoGame, TableError
from table.core.events import encode_msg, encode_result
from table.core.posts import Ctx, Post, is_bot, mention
from table.core.settings import KEYS, LANGUAGE, TableSettings, server_defaults, server_locale
from table.play.lobby import guard, human_heir, require_open
from table.play.own_time import OwnTimeCommands

if TYPE_CHECKING:
    from db import GameRecord
    from table.core.tables import Table, Tables
    from table.posting.announce import Announcer


class ServiceCommands(OwnTimeCommands):
    """``/games``, ``/notify``, ``/settings``, ``/game kick`` and ``/game end`` (and ``/away``)."""

    tables: Tables
    announcer: Announcer

    async def _public(self, ctx: Ctx) -> str:
        """The language of public posts here: the server's setting, else what the front end says."""
        return await server_locale(self.tables.store, ctx.guild_id, ctx.channel_locale)

    async def _adopt(self, ctx: Ctx, record: GameRecord) -> None:
        """Keep what the front end says of the game's place up to date in the store: its server
        (games opened before servers were stored) and the language Discord now gives for it."""
        store = self.tables.store
        if ctx.guild_id is not None and record.guild is None:
            await store.set_guild(record.id, ctx.guild_id)
        if ctx.channel_locale and ctx.channel_locale != record.locale:
            await store.set_locale(record.id, ctx.channel_locale)

    async def _announce(self, ctx: Ctx, table: Table) -> None:
        """Have the channel shown what the store now holds (a handover post, or the board in place)."""
        await self._adopt(ctx, table.record)
        self.announcer.poke(table)

    # ---- where is it my turn ---------------------------------------------------------------------

    async def games(self, ctx: Ctx) -> list[Post]:
        """The caller's open games on this server, those waiting for them first; players away (the
        caller too) with when they are back."""
        loc = ctx.locale
        found = await self.tables.store.games_of(ctx.user_id, ctx.guild_id)
        mine, others = [], []
        away = await self._away_of(found[0][0], {p for r, _ in found for p in r.player_ids}) if found else {}
        for record, current in found:
            table = self.tables.table(record)
            game = self._game(table, loc)
            where = f"<#{record.channel}>"
            if record.status == "lobby":
                others.append(
                    self._t(
                        "svc.games.lobby",
                        loc,
                        game=game,
                        where=where,
                        seated=len(record.seats),
                        players=record.players,
                    )
                )
                continue
            acting = table.to_act()
            since = current.waiting_since if current is not None else None
            when = discord_time(parse_stamp(since)) if since else "—"
            if ctx.user_id in acting:
                mine.append(self._t("svc.games.yours", loc, game=game, where=where, since=when))
            else:
                waiting = self._waiting_names(table, acting, away, loc)
                others.append(
                    self._t("svc.games.waiting", loc, game=game, where=where, waiting=waiting, since=when)
                )
        if not mine and not others:
            return [Post(self._t("svc.games.none", loc), ephemeral=True)]
        lines = [self._t("svc.games.header", loc, count=len(mine))]
        if ctx.user_id in away:
            lines.append(self._t("svc.away.me", loc, until=discord_time(away[ctx.user_id], "f")))
        lines += [f"• {line}" for line in mine + others]
        return [Post("\n".join(lines)[:1900], ephemeral=True)]

    # ---- notifications ---------------------------------------------------------------------------

    async def notify(
        self,
        ctx: Ctx,
        dm: bool | None = None,
        text: bool | None = None,
        timezone: str | None = None,
        quiet: str | None = None,
        remind: str | None = None,
    ) -> list[Post]:
        """Turn the direct message on a handover (and on reminders) on or off, and the text board
        with every board the player is given (for a screen reader); set the player's time zone, quiet
        hours and own reminder pace (``own_time``); None leaves a choice as it is. The answer shows
        every choice."""
        store = self.tables.store
        own = await self.own_time(ctx, timezone, quiet, remind)  # refused before anything changes
        if dm is not None:
            await store.set_notify(ctx.user_id, dm)
        if text is not None:
            await store.set_text_board(ctx.user_id, text)
        key = "svc.notify.on" if await store.notify(ctx.user_id) else "svc.notify.off"
        text_key = "svc.notify.text_on" if await store.text_board(ctx.user_id) else "svc.notify.text_off"
        lines = [self._t(key, ctx.locale), self._t(text_key, ctx.locale), *own]
        return [Post("\n".join(lines), ephemeral=True)]

    # ---- server settings -------------------------------------------------------------------------

    async def settings(self, ctx: Ctx, **changes: str | None) -> list[Post]:
        """Show the server's settings, or change some (Manage Server only)."""
        if ctx.guild_id is None:
            raise TableError("svc.error.no_server")
        store = self.tables.store
        wanted = {k: v.strip() for k, v in changes.items() if v is not None and v.strip()}
        if wanted:
            if not ctx.admin:
                raise TableError("svc.error.admin_only")
            unknown = set(wanted) - {*KEYS, LANGUAGE}
            if unknown:
                raise TableError("svc.error.unknown_setting", setting=", ".join(sorted(unknown)))
            current = await store.guild_settings(ctx.guild_id)
            if LANGUAGE in wanted:
                lang = i18n.find(wanted[LANGUAGE])
                if lang is None:
                    raise TableError(
                        "svc.error.bad_language", value=wanted[LANGUAGE], choices=", ".join(i18n.LOCALES)
                    )
                current[LANGUAGE] = lang
            pace = TableSettings.parse(
                {k: v for k, v in wanted.items() if k in KEYS}, await server_defaults(store, ctx.guild_id)
            )
            current.update(pace.to_options())
            await store.set_guild_settings(ctx.guild_id, current)
        shown = await store.guild_settings(ctx.guild_id)
        pace = await server_defaults(store, ctx.guild_id)
        text = self._t(
            "svc.settings.show",
            ctx.locale,
            language=shown.get(LANGUAGE) or self._t("svc.settings.language_default", ctx.locale),
            pace=pace.describe(),
        )
        if wanted:
            text = self._t("svc.settings.saved", ctx.locale) + "\n" + text
        return [Post(text, ephemeral=True)]

    # ---- moderation ------------------------------------------------------------------------------

    def _require_moderator(self, ctx: Ctx) -> None:
        if not ctx.moderator:
            raise TableError("svc.error.moderator_only")

    async def kick(self, ctx: Ctx, player: str) -> list[Post]:
        """Remove a player from the lobby: its creator or a moderator may (a vanished player)."""
        async with self.tables.lock(ctx.channel_id):
            table = await require_open(self.tables, ctx.channel_id)
            record = table.record
            if record.status != "lobby":
                raise TableError("svc.error.kick_running")
            if ctx.user_id != record.creator and not ctx.moderator:
                raise TableError("svc.error.kick_who", creator=table.name(record.creator))
            if record.seat_of(player) is None:
                raise TableError("svc.error.kick_not_seated", player=mention(player))
            name = table.name(player)
            heir = human_heir(record, player)
            record = await guard(self.tables.store.remove_seat(record.id, player, heir=heir))
            note = msg("svc.kicked", actor=PlayerRef(ctx.user_id), player=name)
            await self.tables.store.add_note(record.id, record.version, ctx.user_id, encode_msg(note))
        loc = await self._public(ctx)
        text = self._t(note, loc, names={ctx.user_id: ctx.user_name})
        if record.status == "aborted":
            text += " " + self._t("table.left_closed", loc, player=name)
        else:
            text += " " + self._t("svc.seats_left", loc, seated=len(record.seats), players=record.players)
        return [Post(text)]

    async def removebot(self, ctx: Ctx) -> list[Post]:
        """Take the last computer player seated off the lobby (its creator or a moderator may): the
        counterpart of ``addbot``, since a bot is no Discord user that ``kick`` could name."""
        table = await require_open(self.tables, ctx.channel_id)
        bots = [seat.player for seat in table.record.seats if is_bot(seat.player)]
        if not bots:
            raise TableError("svc.error.no_bot")
        return await self.kick(ctx, bots[-1])

    async def end(self, ctx: Ctx, winner: str | None = None) -> list[Post]:
        """A moderator ends a running game: ``winner``'s side wins, or (None) a draw."""
        self._require_moderator(ctx)
        async with self.tables.lock(ctx.channel_id):
            table = await self.tables.open(ctx.channel_id)
            if table is None:
                raise NoGame()
            record = table.record
            if record.status != "active":
                raise TableError("table.error.not_started", seated=len(record.seats), players=record.players)
            if winner is not None and record.seat_of(winner) is None:
                raise TableError("svc.error.end_not_seated", player=mention(winner))
            reason = msg("svc.reason.moderator_end", player=PlayerRef(ctx.user_id))
            if winner is None:
                result = Result(winners=(), reason=reason, draw=True)
            else:
                side = table.side_of(winner)
                result = Result(
                    winners=tuple(p for p in record.player_ids if table.side_of(p) == side), reason=reason
                )
            record = await guard(
                self.tables.store.finish_game(
                    record.id, version=record.version, status="over", result=encode_result(result)
                )
            )
            await self.tables.store.add_note(record.id, record.version, ctx.user_id, encode_msg(reason))
        ended: Table = self.tables.table(record)
        await self._announce(ctx, ended)
        return [
            Post(self._t("svc.ended_ack", ctx.locale, game=self._game(ended, ctx.locale)), ephemeral=True)
        ]
