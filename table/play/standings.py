"""A server's records: ``/leaderboard``, ``/history`` and ``/stats``.

They read what the store keeps of finished games (``db.ResultRecord``) and the ratings made from
them (``db.ratings``), in the server the command is typed in. Lists are text that reads on a phone:
one short line per player or game, ten to a page. Players are named by mention, which Discord shows
as their current name (a post names nobody to ping).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

import i18n
from db import ResultRecord, Standing
from db.ratings import POOLS, Change, outcome
from engine.text import PlayerRef, msg
from table.core.clock import discord_time, parse_stamp
from table.core.errors import TableError
from table.core.events import encode_msg
from table.core.posts import Button, Ctx, Post, mention
from table.core.ratings import NO_GUILD, points, pool_title
from table.core.settings import server_locale
from table.core.wording import Wording

if TYPE_CHECKING:
    from table.core.tables import Tables

PAGE_SIZE = 10
"""Players or games per page."""
PROVISIONAL = 5
"""Players with fewer rated games than this are listed apart, below the ranked ones."""
MAX_TEXT = 1900


def pool_named(typed: str | None) -> str | None:
    """The rating pool a player typed: its id (``warchest-teams``) or its title in any language
    ("War Chest in teams", "Champ d'honneur"); None when nothing was typed."""
    if typed is None or not typed.strip():
        return None
    word = typed.strip().lower()
    for pool in POOLS:
        if word == pool or any(word == i18n.t(f"rating.pool.{pool}", lang).lower() for lang in i18n.LOCALES):
            return pool
    raise TableError("rating.error.bad_game", game=typed, choices=", ".join(POOLS))


def _page(page: int, total: int) -> tuple[int, int]:
    """The page's first index and the number of pages; a page out of range is refused."""
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if not 1 <= page <= pages:
        raise TableError("table.error.bad_page", page=page, pages=pages)
    return (page - 1) * PAGE_SIZE, pages


def _guild(ctx: Ctx) -> str:
    return ctx.guild_id or NO_GUILD


class StandingCommands(Wording):
    """``/leaderboard``, ``/history`` and ``/stats``."""

    tables: Tables

    # ---- /leaderboard ----------------------------------------------------------------------------

    async def leaderboard(self, ctx: Ctx, game: str | None = None, page: int = 1) -> list[Post]:
        """The server's rated players of one game (or of each game played), best conservative rating
        first; players with fewer than ``PROVISIONAL`` rated games after them, apart."""
        loc = ctx.locale
        chosen = pool_named(game)
        pools = [chosen] if chosen else list(POOLS)
        sections = []
        for pool in pools:
            standings = await self.tables.store.standings(_guild(ctx), pool)
            if standings or chosen:
                sections.append(self._board(pool, standings, page, loc))
        if not sections:
            return [Post(self._t("rating.board.none", loc), ephemeral=True)]
        return [Post("\n\n".join(sections)[:MAX_TEXT])]

    def _board(self, pool: str, standings: list[Standing], page: int, loc: str) -> str:
        ranked = [s for s in standings if s.games >= PROVISIONAL]
        newcomers = [s for s in standings if s.games < PROVISIONAL]
        rows: list[tuple[int | None, Standing]] = [(i, s) for i, s in enumerate(ranked, start=1)]
        rows += [(None, s) for s in newcomers]
        start, pages = _page(page, len(rows))
        title = self._t("rating.board.title", loc, pool=pool_title(pool, loc), page=page, pages=pages)
        lines = [f"**{title}**"]
        if not rows:
            lines.append(self._t("rating.board.empty", loc))
        shown_apart = False
        for rank, standing in rows[start : start + PAGE_SIZE]:
            if rank is None and not shown_apart:
                lines.append(self._t("rating.board.provisional", loc, games=PROVISIONAL))
                shown_apart = True
            lines.append(self._row(rank, standing, loc))
        return "\n".join(lines)

    def _row(self, rank: int | None, s: Standing, loc: str) -> str:
        return self._t(
            "rating.board.row",
            loc,
            rank=f"{rank}." if rank is not None else "•",
            player=mention(s.player),
            rating=points(s.rating.ordinal, loc),
            games=s.games,
            wins=s.wins,
        )

    # ---- /history --------------------------------------------------------------------------------

    async def history(
        self, ctx: Ctx, player: str | None = None, game: str | None = None, page: int = 1
    ) -> list[Post]:
        """The server's finished games, newest first (only ``player``'s, only one game's, when given)."""
        loc = ctx.locale
        pool = pool_named(game)
        store = self.tables.store
        found = await store.results(_guild(ctx), pool=pool, player=player)
        if not found:
            return [Post(self._t("rating.history.none", loc), ephemeral=True)]
        start, pages = _page(page, len(found))
        title = self._t("rating.history.title", loc, page=page, pages=pages)
        if player is not None:
            title = self._t("rating.history.title_of", loc, player=mention(player), page=page, pages=pages)
        lines = [f"**{title}**"]
        shown = found[start : start + PAGE_SIZE]
        for result in shown:
            lines.append(await self._history_line(result, loc))
        buttons = tuple(
            Button(f"replay:{r.game_id}", self._t("rating.history.replay", loc, id=r.game_id), r.game_id)
            for r in shown
        )
        return [Post("\n".join(lines)[:MAX_TEXT], buttons=buttons)]

    async def _history_line(self, result: ResultRecord, loc: str) -> str:
        record = await self.tables.store.get_game(result.game_id)
        names = {s.player: s.name for s in record.seats} if record else {}
        when = discord_time(parse_stamp(result.finished_at), "d")
        if record is not None and record.status == "aborted":
            players = ", ".join(names.get(p.player, p.player) for p in result.places)
            outcome_text = self._t("rating.history.aborted", loc, players=players)
        else:
            ordered = sorted(result.places, key=lambda p: (p.rank, p.side))
            outcome_text = " · ".join(
                self._t(
                    "rating.history.place",
                    loc,
                    rank=p.rank,
                    player=names.get(p.player, p.player),
                    change=_delta(result.change_of(p.player), loc),
                )
                for p in ordered
            )
        unrated = "" if result.rated else " " + self._t("rating.history.unrated", loc)
        return self._t(
            "rating.history.line",
            loc,
            id=result.game_id,
            when=when,
            game=pool_title(result.pool, loc),
            outcome=outcome_text + unrated,
        )

    # ---- /game unrate ----------------------------------------------------------------------------

    async def unrate(self, ctx: Ctx, typed: int | str) -> list[Post]:
        """A moderator takes finished game number ``typed`` ("12" or "#12") of this server out of the
        ratings, which follow at once (recomputed without it); the game's log keeps who did it."""
        if not ctx.moderator:
            raise TableError("svc.error.moderator_only")
        number = str(typed).strip().lstrip("#")
        if not number.isdigit():
            raise TableError("rating.error.bad_number", value=str(typed))
        game = int(number)
        store = self.tables.store
        found = await store.result_of(game)
        if found is None or found.guild != _guild(ctx):
            raise TableError("rating.error.no_result", id=game)
        if not found.rated:
            raise TableError("rating.error.not_rated", id=game)
        await store.unrate(game)
        record = await store.get_game(game)
        note = msg("rating.note.unrated", player=PlayerRef(ctx.user_id))
        await store.add_note(game, record.version if record else 0, ctx.user_id, encode_msg(note))
        loc = await server_locale(store, ctx.guild_id, ctx.channel_locale)
        return [Post(self._t("rating.unrated", loc, id=game, pool=pool_title(found.pool, loc)))]

    # ---- /stats ----------------------------------------------------------------------------------

    async def stats(
        self, ctx: Ctx, player: str | None = None, game: str | None = None, public: bool = False
    ) -> list[Post]:
        """A player's record in this server (the caller's by default): rating, games, wins, by side or
        faction, and the current streak, per game; only to the caller unless ``public``."""
        loc = ctx.locale
        who = player or ctx.user_id
        chosen = pool_named(game)
        store = self.tables.store
        sections = []
        chart: bytes | None = None
        for pool in [chosen] if chosen else list(POOLS):
            results = [r for r in await store.results(_guild(ctx), pool=pool, player=who) if r.rated]
            if not results and not chosen:
                continue
            standing = next((s for s in await store.standings(_guild(ctx), pool) if s.player == who), None)
            sections.append(self._card(who, pool, standing, results, loc))
            if chart is None and results:
                chart = await self._chart(who, pool, results, loc)
        if not sections:
            sections = [self._t("rating.stats.none", loc, player=mention(who))]
        head = self._t("rating.stats.title", loc, player=mention(who))
        text = "\n\n".join([f"**{head}**", *sections])[:MAX_TEXT]
        return [Post(text, image=chart, filename="rating.png", ephemeral=not public)]

    async def _chart(self, who: str, pool: str, results: list[ResultRecord], loc: str) -> bytes:
        """The player's conservative rating after each rated game of ``pool`` (oldest first), drawn."""
        changes = [c for r in reversed(results) if (c := r.change_of(who)) is not None]
        view = {
            "title": pool_title(pool, loc),
            "start": changes[0].before.ordinal if changes else 0.0,
            "points": [c.after.ordinal for c in changes],
            "caption": self._t("rating.chart.caption", loc, games=len(changes)),
        }
        return await self.tables.drawer.draw("chart", view, names={}, locale=loc)

    def _card(
        self, who: str, pool: str, standing: Standing | None, results: list[ResultRecord], loc: str
    ) -> str:
        title = f"__{pool_title(pool, loc)}__"
        if standing is None or not results:
            return "\n".join([title, self._t("rating.stats.unrated", loc)])
        outcomes: list[str] = []
        factions: Counter[str] = Counter()
        faction_wins: Counter[str] = Counter()
        for result in results:  # newest first
            place = result.place_of(who)
            if place is None:
                continue
            result_of_player = outcome(place, result.places)
            outcomes.append(result_of_player)
            if place.faction:
                factions[place.faction] += 1
                faction_wins[place.faction] += result_of_player == "win"
        losses = standing.games - standing.wins - standing.draws
        lines = [
            title,
            self._t(
                "rating.stats.rating",
                loc,
                rating=points(standing.rating.ordinal, loc),
                mu=points(standing.rating.mu, loc),
                sigma=points(standing.rating.sigma, loc),
            ),
            self._t(
                "rating.stats.record",
                loc,
                games=standing.games,
                wins=standing.wins,
                draws=standing.draws,
                losses=losses,
            ),
        ]
        last = results[0].change_of(who)
        if last is not None:
            lines.append(self._t("rating.stats.last", loc, change=points(last.delta, loc, signed=True)))
        if outcomes:
            run = len(outcomes) - len(list(_after_run(outcomes)))
            lines.append(self._t(f"rating.stats.streak.{outcomes[0]}", loc, count=run))
        for faction, played in factions.most_common(5):
            lines.append(
                self._t(
                    "rating.stats.faction", loc, faction=faction, games=played, wins=faction_wins[faction]
                )
            )
        return "\n".join(lines)


def _after_run(outcomes: list[str]) -> list[str]:
    """The outcomes after the first run of equal ones."""
    first = outcomes[0]
    for i, value in enumerate(outcomes):
        if value != first:
            return outcomes[i:]
    return []


def _delta(change: Change | None, loc: str) -> str:
    return "" if change is None else f" ({points(change.delta, loc, signed=True)})"
