"""``/game rules [game] [topic]``: which game and which topic a reader means, and the text they get.

The game is the one named, else the one played in the channel; without either, a topic is looked
for in every game (autocomplete values name their game, ``warchest:archer``), and a bare request
lists the games. Everything is answered in the reader's own language: the replies are ephemeral.
"""

from __future__ import annotations

import i18n
from engine.errors import GameError
from table.core.errors import TableError
from table.core.posts import Ctx
from table.core.tables import Tables
from table.core.text import find_game, game_title, has_key
from table.rules.rule_topics import rulebook
from table.rules.rulebook import Rulebook, complete, render, split_choice, unknown_topic


def display_name(game: str, locale: str) -> str:
    return i18n.t(game_title(game), locale)


def _books(games: list[str]) -> list[Rulebook]:
    return [book for g in games if (book := rulebook(g)) is not None]


async def _games_meant(tables: Tables, ctx: Ctx, game: str | None, *, quick: bool = False) -> list[str]:
    """The game named, else the channel's, else every game the bot knows (``quick``: the channel's
    game read through the quick read path, for autocomplete)."""
    if game is not None and game.strip():
        return [find_game(game, tables.known_games, tables.game).name]
    table = await (tables.peek_latest if quick else tables.latest)(ctx.channel_id)
    if table is not None:
        return [table.record.game]
    return list(tables.known_games)


def _summary(game: str, locale: str) -> str:
    key = f"table.rules.summary.{game}"
    summary = i18n.t(key, locale) if has_key(key) else i18n.t("table.rules.no_summary", locale)
    return i18n.t("table.rules.text", locale, game=display_name(game, locale), summary=summary)


async def answer(tables: Tables, ctx: Ctx, game: str | None, topic: str | None) -> str:
    """The text of the page or topic asked for; raises ``TableError`` for an unknown one."""
    loc = ctx.locale
    chosen, typed = split_choice(topic or "", _books(list(tables.known_games)))
    if chosen is not None and not (game and game.strip()):
        games = [chosen]
    else:
        games = await _games_meant(tables, ctx, game)
    if not typed:
        if len(games) > 1:
            return "\n".join([i18n.t("table.rules.games", loc), *(_summary(g, loc) for g in games)])
        book = rulebook(games[0])
        if book is None:
            return _summary(games[0], loc)
        return render(book, book.by_id[book.pages[0]], display_name(book.game, loc), loc)
    books = _books(games)
    if not books:
        raise TableError("table.rules.no_topics", game=display_name(games[0], loc))
    hits = [(book, found) for book in books if (found := book.find(typed)) is not None]
    if len(hits) == 1:
        book, found = hits[0]
        return render(book, found, display_name(book.game, loc), loc)
    if hits:
        names = [display_name(b.game, loc) for b, _ in hits]
        raise TableError("table.rules.which_game", topic=typed, games=names)
    if len(books) == 1:
        raise unknown_topic(books[0], typed, display_name(books[0].game, loc), loc)
    names = [display_name(b.game, loc) for b in books]
    raise TableError("table.rules.unknown_topic_anywhere", topic=typed, games=names)


async def choices(tables: Tables, ctx: Ctx, typed: str, game: str | None) -> list[tuple[str, str]]:
    """Autocomplete of the topic option, for the game chosen (or played here, or all of them)."""
    try:
        games = await _games_meant(tables, ctx, game, quick=True)
    except GameError:  # an unknown game in the other option: offer every game's topics
        games = list(tables.known_games)
    books = _books(games)
    names = {book.game: display_name(book.game, ctx.locale) for book in books}
    return complete(books, typed, ctx.locale, names, tables.limits)
