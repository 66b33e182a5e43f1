"""The commands of a play-by-post service around the games: where it is my turn, notifications,
server settings, and moderation.

``Service`` also holds what every group of handlers shares: the channel's language, the listings
and the announcer, and the length of a message. Like every handler these take a ``Ctx`` and
return ``Post`` values, refuse with a ``GameError`` and change nothing when they refuse. Every
moderation act is posted publicly and kept in the game's log (a note), so nobody's game ends in
silence.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import i18n
from engine.contract import Result
from engine.text import Msg, PlayerRef, msg
from table.core.errors import NoGame, TableError
from table.core.events import encode_msg, encode_result
from table.core.marks import channel_link, mention, moment
from table.core.posts import Ctx, Post, is_bot
from table.core.settings import KEYS, LANGUAGE, TableSettings, server_defaults, server_locale
from table.core.text import clip
from table.core.wording import Wording
from table.play.lobby import guard, human_heir, require_open
from table.play.own_time import OwnTime
from table.posting.faults import Paused
from table.posting.listings import player_owner, server_owner
from table.posting.outlet import OutletError, Refused

if TYPE_CHECKING:
    from db import GameRecord
    from table.core.tables import Table, Tables
    from table.posting.announce import Announcer

log = logging.getLogger(__name__)


class Service:
    """``/games`` (and a player's card of all their games), ``/notify``, ``/settings`` (and a server's
    list of games), ``/game kick`` and ``/game end``: built from the tables, the announcer, the
    players' own time and the words."""

    def __init__(self, tables: Tables, announcer: Announcer, own_times: OwnTime, words: Wording) -> None:
        self.tables = tables
        self.announcer = announcer
        self.own_times = own_times
        self.words = words

    def clip(self, text: str, limit: int | None = None) -> str:
        """``text`` cut to ``limit`` characters, by default to what one of the front end's messages
        holds."""
        return clip(text, self.tables.limits.text if limit is None else limit)

    async def public(self, ctx: Ctx) -> str:
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

    def listed(self, record: GameRecord, *left: str) -> None:
        """A lobby changed (opened, a seat taken or left, closed): the cards of its people (and of
        those who ``left``) and its server's list of games show it in their turn. A running game's
        changes reach them through its posts."""
        self.announcer.listings.changed(record, *left)

    async def announce(self, ctx: Ctx, table: Table) -> None:
        """Have the channel shown what the store now holds (a handover post, or the board in place)."""
        await self._adopt(ctx, table.record)
        self.announcer.poke(table)

    # ---- where is it my turn ---------------------------------------------------------------------

    async def games(self, ctx: Ctx, card: bool | None = None) -> list[Post]:
        """The caller's open games on this server, those waiting for them first, players away (the
        caller too) with when they are back; ``card`` turns on or off the card of all their games, in
        every server, kept up to date in their direct messages."""
        note = None if card is None else await self._keep_card(ctx, card)
        posts = await self._games(ctx)
        if note is not None:
            posts[0] = Post(posts[0].text + "\n\n" + note, ephemeral=True)
        return posts

    async def _keep_card(self, ctx: Ctx, on: bool) -> str:
        """Keep (or stop keeping) the caller's card; what they are told of it. A new card is sent at
        once, so that a player who cannot be sent direct messages learns it now."""
        owner, store = player_owner(ctx.user_id), self.tables.store
        if not on:
            await store.drop_listing(owner)
            return self.words.t("svc.card.off", ctx.locale)
        listing = await store.put_listing(owner, channel=None, locale=ctx.locale)
        listings = self.announcer.listings
        if listing.message is not None:
            listings.touch(owner)  # the card stands: edited in its turn
            return self.words.t("svc.card.on", ctx.locale)
        try:
            if await listings.refresh(owner) is None:
                return self.words.t("svc.card.unreachable", ctx.locale)
        except OutletError as exc:  # kept behind: the timed loop sends it
            log.warning("sending the card of %s failed: %s", ctx.user_id, exc)
        return self.words.t("svc.card.on", ctx.locale)

    async def _games(self, ctx: Ctx) -> list[Post]:
        loc = ctx.locale
        found = await self.tables.store.games_of(ctx.user_id, ctx.guild_id)
        mine: list[str] = []
        others: list[str] = []
        away = (
            await self.own_times.away_of(found[0][0], {p for r, _ in found for p in r.player_ids})
            if found
            else {}
        )
        for record, current in found:
            table = self.tables.table(record)
            where = channel_link(record.channel)
            line = self.words.game_line(table, current, loc, where=where, reader=ctx.user_id, away=away)
            (mine if ctx.user_id in table.to_act() else others).append(line)
        if not mine and not others:
            return [Post(self.words.t("svc.games.none", loc), ephemeral=True)]
        lines = [self.words.t("svc.games.header", loc, count=len(mine))]
        if ctx.user_id in away:
            lines.append(self.words.t("svc.away.me", loc, until=moment(away[ctx.user_id], "f")))
        lines += [f"• {line}" for line in mine + others]
        return [Post(clip("\n".join(lines), self.tables.limits.text), ephemeral=True)]

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
        own = await self.own_times.own_time(ctx, timezone, quiet, remind)  # refused before anything changes
        if dm is not None:
            await store.set_notify(ctx.user_id, dm)
        if text is not None:
            await store.set_text_board(ctx.user_id, text)
        key = "svc.notify.on" if await store.notify(ctx.user_id) else "svc.notify.off"
        text_key = "svc.notify.text_on" if await store.text_board(ctx.user_id) else "svc.notify.text_off"
        lines = [self.words.t(key, ctx.locale), self.words.t(text_key, ctx.locale), *own]
        return [Post("\n".join(lines), ephemeral=True)]

    # ---- server settings -------------------------------------------------------------------------

    async def settings(
        self,
        ctx: Ctx,
        *,
        games_channel: str | None = None,
        games_list: bool | None = None,
        **changes: str | None,
    ) -> list[Post]:
        """Show the server's settings, or change some (Manage Server only). ``games_channel`` keeps
        the list of the server's open games in that channel; ``games_list=False`` stops it."""
        if ctx.guild_id is None:
            raise TableError("svc.error.no_server")
        store = self.tables.store
        wanted = {k: v.strip() for k, v in changes.items() if v is not None and v.strip()}
        listing = games_channel is not None or games_list is not None
        if (wanted or listing) and not ctx.admin:
            raise TableError("svc.error.admin_only")
        if listing:
            await self._games_list(ctx, ctx.guild_id, games_channel, games_list)
        if wanted:
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
        text = self.words.t(
            "svc.settings.show",
            ctx.locale,
            language=shown.get(LANGUAGE) or self.words.t("svc.settings.language_default", ctx.locale),
            pace=pace.describe(),
        )
        kept = await store.listings([server_owner(ctx.guild_id)])
        if kept and kept[0].channel is not None:
            where = channel_link(kept[0].channel)
            text += "\n" + self.words.t("svc.settings.games_channel", ctx.locale, channel=where)
        else:
            text += "\n" + self.words.t("svc.settings.no_games_channel", ctx.locale)
        if wanted or listing:
            text = self.words.t("svc.settings.saved", ctx.locale) + "\n" + text
        return [Post(text, ephemeral=True)]

    async def _games_list(self, ctx: Ctx, guild: str, channel: str | None, on: bool | None) -> None:
        """Keep the server's list of open games in ``channel`` (its first message sent at once, so
        that a channel that refuses the bot is named now), or stop keeping it (``on`` False)."""
        store, owner = self.tables.store, server_owner(guild)
        if on is False:
            await store.drop_listing(owner)
            return
        if channel is None:
            kept = await store.listings([owner])
            channel = kept[0].channel if kept else None
            if channel is None:
                raise TableError("svc.error.games_list_channel")
        listing = await store.put_listing(owner, channel=channel, locale=await self.public(ctx))
        listings = self.announcer.listings
        if listing.message is not None:
            listings.touch(owner)
            return
        # a manager's choice of the channel is worth a try now, even where the bot was refused before
        await self.announcer.channels.faults.retry_now(channel)
        try:
            await listings.refresh(owner)
        except (Refused, Paused) as exc:
            await store.drop_listing(owner)
            missing = exc.missing if isinstance(exc, Refused) else ()
            where = channel_link(channel)
            if not missing:
                raise TableError("svc.error.games_list_refused_plain", channel=where) from exc
            permissions = [Msg(f"perm.{name}") for name in missing]
            raise TableError("svc.error.games_list_refused", channel=where, permissions=permissions) from exc
        except OutletError as exc:  # kept behind: the timed loop posts it
            log.warning("posting the list of games of %s in %s failed: %s", guild, channel, exc)

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
        self.listed(record, player)
        loc = await self.public(ctx)
        text = self.words.t(note, loc, names={ctx.user_id: ctx.user_name})
        if record.status == "aborted":
            text += " " + self.words.t("table.left_closed", loc, player=name)
        else:
            text += " " + self.words.t(
                "svc.seats_left", loc, seated=len(record.seats), players=record.players
            )
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
        await self.announce(ctx, ended)
        return [
            Post(
                self.words.t("svc.ended_ack", ctx.locale, game=self.words.game(ended, ctx.locale)),
                ephemeral=True,
            )
        ]
