"""Playing a move: ``/play`` (a move typed, or begun and answered with the moves it may become),
the caller's hand, their legal moves and the move field's autocomplete.

A move is answered privately; what the channel sees of it is the announcer's.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping

from engine import registry
from engine.errors import BadInput, GameError, GameOver, IllegalAction
from table.bots.players import away_stand_ins, may_have_bots, returned_note, stand_ins_in
from table.core.errors import NoGame, NotSeated, TableError, Unreadable
from table.core.events import encode_msg
from table.core.posts import Ctx, Post, pictured, post_nonce
from table.core.tables import Table, Tables
from table.core.text import game_title, has_key, lexicon, name_players_in, named
from table.core.wording import Wording
from table.play import listing
from table.play.looking import Looking
from table.play.own_time import OwnTime
from table.play.service import Service
from table.posting.announce import OutletError

log = logging.getLogger(__name__)


VERSION_DIGITS = 18
"""No game reaches a version of more digits (the store keeps versions as 64-bit integers)."""
_VERSIONED = re.compile(r"^\s*v(\d+)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)


def split_version(text: str) -> tuple[int | None, str]:
    """``"v12:move archer c3 d4"`` -> ``(12, "move archer c3 d4")``; no prefix -> ``(None, text)``.

    A number of more than ``VERSION_DIGITS`` digits is read as its first ``VERSION_DIGITS + 1``:
    still beyond any version a game reaches, and never the thousands of digits Python refuses to read.
    """
    m = _VERSIONED.match(text or "")
    if m is None:
        return None, (text or "").strip()
    digits = m.group(1).lstrip("0") or "0"
    return int(digits[: VERSION_DIGITS + 1]), m.group(2).strip()


class Playing:
    """``/play``, ``/game hand``, the legal moves and their autocomplete: built from the tables, the
    service (the channel's language, the announcer), the text board of ``Looking``, the players' own
    time (a move ends time off) and the words."""

    def __init__(
        self, tables: Tables, service: Service, looking: Looking, own_times: OwnTime, words: Wording
    ) -> None:
        self.tables = tables
        self.service = service
        self.looking = looking
        self.own_times = own_times
        self.words = words

    async def running(self, ctx: Ctx, *, reclaim: bool = True) -> Table:
        """The channel's running game, the caller seated in it. A caller a bot was playing for takes
        their seat back (``reclaim``): any command of theirs in the game says they are here."""
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
        if table.unreadable:
            raise Unreadable(game=game_title(rec.game))
        if reclaim:
            await self._reclaim(ctx, table)
        return table

    async def _reclaim(self, ctx: Ctx, table: Table) -> None:
        """The caller is back: the bot standing in for them since a deadline stops, and the channel
        is told (one standing in for their time off stops when it ends: a move, ``/away for:off``)."""
        rec = table.record
        if not may_have_bots(rec):
            return
        notes = await self.tables.store.notes(rec.id)
        if ctx.user_id not in stand_ins_in(notes) or ctx.user_id in away_stand_ins(notes):
            return
        await self.tables.store.add_note(
            rec.id, rec.version, ctx.user_id, encode_msg(returned_note(ctx.user_id))
        )
        loc = await self.service.public(ctx)
        text = self.words.t(
            "svc.bot.back", loc, player=table.name(ctx.user_id), game=self.words.game(table, loc)
        )
        try:
            nonce = post_nonce(
                f"g{rec.id}", f"v{rec.version}", "back", ctx.user_id, limits=self.tables.limits
            )
            await self.service.announcer.outlet.send(ctx.channel_id, Post(text, nonce=nonce))
        except OutletError:
            log.warning("telling channel %s that %s is back failed", ctx.channel_id, ctx.user_id)

    async def play(self, ctx: Ctx, action: str) -> list[Post]:
        """Apply one action; the player gets a short private confirmation with what happened.

        A move begun (``pass`` where a coin must be named, a group of moves chosen in autocomplete) is
        answered with the moves it may become, not with a refusal.

        The channel is shown the move by the announcer: a new post mentioning whoever acts next
        when the turn passes, else the turn's post updated in place.
        """
        version, text = split_version(action)
        if not text:
            raise BadInput(input=action)
        if listing.group_words(text) is not None:
            return await self.legal_moves(ctx, text)
        async with self.tables.lock(ctx.channel_id):
            table = await self.running(ctx)
            back = await self.own_times.back_by_move(
                ctx, table.record
            )  # any move of theirs ends their time off
            try:
                moved = await self.tables.apply(table, ctx.user_id, text, version=version)
            except (BadInput, IllegalAction) as err:
                begun = ctx.user_id in table.to_act() and listing.begins(
                    text, self._moves_listed(table, ctx.user_id, ctx.locale, text)
                )
                if not begun:
                    raise name_players_in(err, table.names) from None
                moved = None
            except GameError as err:
                raise name_players_in(err, table.names) from None
            finally:
                if back:
                    await self.own_times.returned(ctx, table.record)
        if moved is None:  # a move begun, not a mistake: the moves it may become
            return await self.legal_moves(ctx, text)
        await self.service.announce(ctx, moved.table)
        after = moved.table
        loc = ctx.locale
        lines = [self.words.t(e, loc, names=after.named) for e in moved.events]
        for step in moved.forced:  # what the rules then left without a choice, played at once
            said = " ".join(self.words.t(e, loc, names=after.named) for e in step.events) or self.words.t(
                "table.log.silent", loc, player=after.name(step.player), action=str(step.action)
            )
            lines.append(self.words.t("svc.log.auto", loc, line=said))
        if after.record.status == "active" and ctx.user_id in after.to_act():
            lines.append(self.words.t("svc.still_your_turn", loc))
        text = self.words.t(
            "svc.played", loc, events=" ".join(filter(None, lines)) or self.words.t("svc.nothing_shown", loc)
        )
        return [
            Post(self.service.clip(text), ephemeral=True),
            *await self.looking.text_board_if_asked(ctx, after),
        ]

    async def hand(self, ctx: Ctx) -> list[Post]:
        """The caller's hidden information, privately: an image and a text listing."""
        table = await self.running(ctx)
        loc = ctx.locale
        view, picture = await self.tables.private_image(table, ctx.user_id, loc)
        private = view.get("private") or {}
        lines = [self.words.t("table.hand.header", loc, game=self.words.game(table, loc))]
        shown = {k: v for k, v in private.items() if k != "seat"} if isinstance(private, dict) else {}
        if not shown:
            lines.append(self.words.t("table.hand.none", loc))
        for key, value in shown.items():
            label = self.words.t(f"table.private.{key}", loc) if has_key(f"table.private.{key}") else key
            lines.append(
                self.words.t(
                    "table.hand.line", loc, what=label, items=self._items(table.record.game, value, loc)
                )
            )
        hand = Post(
            self.service.clip("\n".join(lines)), filename="hand.png", ephemeral=True, **pictured(picture)
        )
        return [hand, *await self.looking.text_board_if_asked(ctx, table)]

    def _item(self, game: str, item: object, loc: str) -> str:
        entry = registry.find(game)
        for prefix in (*(entry.item_keys if entry is not None else ()), f"{game}.item."):
            if has_key(prefix + str(item)):
                return self.words.t(prefix + str(item), loc)
        return str(item)

    def _items(self, game: str, value: object, loc: str) -> str:
        if isinstance(value, Mapping):
            parts = [f"{self._item(game, k, loc)} ×{n}" for k, n in value.items() if n]
        elif isinstance(value, (list, tuple)):
            parts = [self._item(game, v, loc) for v in value]
        else:
            return str(value)
        return ", ".join(parts) if parts else self.words.t("table.hand.empty", loc)

    async def legal_moves(self, ctx: Ctx, typed: str = "") -> list[Post]:
        """The caller's legal moves matching ``typed`` (all of them for nothing), privately, each as the
        caller types it in their language with its description: what ``/play`` alone, or a move
        begun, answers. A list too long for a message is grouped by first words with a count each
        (``listing.grouped``), and says so, and how to narrow it; a caller who may not act now is
        told whose turn it is."""
        table = await self.running(ctx, reclaim=False)
        loc = ctx.locale
        acting = table.to_act()
        if ctx.user_id not in acting:
            return [
                Post(
                    self.words.t("error.not_your_turn", loc, waiting=named(acting, table.names)),
                    ephemeral=True,
                )
            ]
        _version, rest = split_version(typed)
        words = listing.group_words(rest)
        shown_typed = rest if words is None else words
        entries = self._moves_listed(table, ctx.user_id, loc, rest)
        if not entries:
            key = "svc.list.none" if shown_typed else "svc.list.no_moves"
            return [Post(self.words.t(key, loc, typed=shown_typed), ephemeral=True)]
        head = (
            self.words.t("svc.list.matching", loc, typed=shown_typed)
            if shown_typed
            else self.words.t("svc.list.all", loc)
        )
        for limit in range(self.tables.limits.choices, 0, -1):
            shown, left = listing.grouped(entries, limit, self._group_name(loc))
            lines = [head]
            if any(entry.group for entry in shown):
                lines.append(self.words.t("svc.list.grouped", loc, count=len(entries)))
            for entry in shown:
                said = f"{entry.said} {listing.GROUP_MARK}" if entry.group else entry.said
                lines.append(f"  {said}  —  {entry.label}")
            if left:
                lines.append(self.words.t("svc.list.more", loc, count=left))
            text = "\n".join(lines)
            if len(text) <= self.tables.limits.text:
                break
        return [Post(self.service.clip(text), ephemeral=True)]

    def _group_name(self, locale: str) -> Callable[[str, int], str]:
        """How a group of moves is named in ``locale``: what their labels share, and how many they are."""
        return lambda what, count: self.words.t("svc.menu.group", locale, what=what, count=count)

    def _moves_listed(self, table: Table, player: str, locale: str, typed: str) -> list[listing.Entry]:
        """``player``'s legal moves that fit ``typed``, in ``locale``'s words: those a group's words begin
        (``deploy inf1 …``), else those holding every typed word (``listing.matches``)."""
        game, state = table.game, table.state
        words = listing.group_words(typed)
        entries = []
        for act in game.legal_actions(state, player):
            said = self._said(game, act, locale)
            if words is not None and not listing.starts(words, said):
                continue
            text = str(act)
            label = self.words.t(game.label(state, act), locale, names=table.names) or text
            if words is not None or listing.matches(typed, label, text, said):
                entries.append(listing.Entry(label, said, text))
        if not entries and words:  # words typed before a "…" that begin no move: as if typed alone
            return self._moves_listed(table, player, locale, words)
        return entries

    async def autocomplete(self, ctx: Ctx, typed: str, *, in_words: bool = False) -> list[tuple[str, str]]:
        """The caller's legal actions matching every typed word, as (label, "v<version>:<action>").

        A typed word matches the label, the action text or the action as the reader types it in their
        language (``recruter`` finds ``recruit``). Discord shows the label and sends the value back, so
        its values keep the action text (within Discord's length); ``in_words`` puts the reader's own words
        in the value instead (the console lists the values), which read back as the same action.

        A list holds the front end's ``limits.choices`` (Discord's 25): past them the moves are grouped
        by their first words (``listing``), a group's value being its words and ``…``, which ``/play``
        answers with the group's moves, and typing its words narrows the choices to it. When even the
        groups do not fit, the last choice says how many moves more words would reach."""
        # The quick read path: a keystroke never waits for the moves a burst is storing.
        table = await self.tables.peek(ctx.channel_id)
        if table is None or table.unreadable or table.record.seat_of(ctx.user_id) is None:
            return []
        game, state, rec = table.game, table.state, table.record
        if ctx.user_id not in table.to_act():
            return []
        _version, rest = split_version(typed)
        limits = self.tables.limits
        choices: list[tuple[str, str]] = []
        offered: set[str] = set()
        typed_act = _typed_action(table, ctx.user_id, rest)
        if typed_act is not None:
            text = str(typed_act)
            if len(f"v{rec.version}:{text}") <= limits.choice:
                label = self.words.t(game.label(state, typed_act), ctx.locale, names=table.names) or text
                said = self._said(game, typed_act, ctx.locale) if in_words else text
                choices.append((self.service.clip(label, limits.choice), f"v{rec.version}:{said}"))
                offered.add(text)
        entries = [
            entry
            for entry in self._moves_listed(table, ctx.user_id, ctx.locale, rest)
            if len(f"v{rec.version}:{entry.text}") <= limits.choice and entry.text not in offered
        ]
        shown, left = listing.grouped(entries, limits.choices - len(choices), self._group_name(ctx.locale))
        for entry in shown:
            if entry.group:
                value = f"{entry.said} {listing.GROUP_MARK}"
            else:
                value = f"v{rec.version}:{entry.said if in_words else entry.text}"
            if len(value) <= limits.choice:
                choices.append((self.service.clip(entry.label, limits.choice), value))
        if left:
            more = self.words.t("svc.list.more_choice", ctx.locale, count=left)
            choices.append(
                (
                    self.service.clip(more, limits.choice),
                    self.service.clip(f"{rest} {listing.GROUP_MARK}".strip(), limits.choice),
                )
            )
        return choices

    def _said(self, game: object, act: object, locale: str) -> str:
        """``act`` as a reader of ``locale`` types it: the game's ``typed`` words without their
        backquotes, else the action text (a game without words of its own, such as Batailles)."""
        typed = getattr(game, "typed", None)
        return self.words.t(typed(act), locale).strip("`") if typed is not None else str(act)


def _typed_action(table: Table, player: str, typed: str) -> object | None:
    """The action the caller typed in full, when it is legal now; else None.

    Autocomplete lists the legal actions a game enumerates, and some legal actions are
    not among them: a Batailles troop recruited under a name the player makes up
    (``recruit cannon1 1 2 0 2 0 0``) while the list offers only default names, another troop
    named while one acts (the list offers ``done``, then the activations). Such a
    text is tried on a copy of the state, so the player sees it offered (and can send
    it) exactly when ``/play`` would accept it.
    """
    if not typed.strip() or table.state is None:
        return None
    game = table.game
    try:
        action: object = game.parse_action(table.state, player, typed, lexicon(game))
        game.apply(game.load(game.dump(table.state)), player, action)
    except (GameError, ValueError, IndexError):
        return None
    return action
