"""The buttons under each post and the "My moves" menu, built from the rules alone.

A post's buttons depend on what the table is doing: a lobby offers Join, Leave and Start (and a team
each where the game has teams), a board offers My hand (where the game hides something), My moves and
Rules, a vote offers Accept and Decline, a finished game Rematch and the log. The moves menu pages
through ``legal_actions`` in groups that fit Discord's 25 options per menu: the moves are grouped by
their first words (every deploy, then every deploy of the Archer...), each group labelled by what its
moves' own labels share, in the reader's language, until a group is small enough to list its moves.
"""

from __future__ import annotations

from collections import OrderedDict

import i18n
from table.core.limits import Limits
from table.core.posts import Button, Menu
from table.core.tables import Table
from table.core.text import has_key


def _label(key: str, locale: str, **params: object) -> str:
    return i18n.t(key, locale, names=None, **params)


def lobby_buttons(
    table: Table, locale: str, teams: int | None, open_teams: frozenset[int] = frozenset()
) -> tuple[Button, ...]:
    """Join (a button per team where the game has teams), Leave and Start. A full table offers no
    Join, and a team game no Join for a team whose seats are taken (``open_teams``: those with room,
    1-based)."""
    game = table.record.id
    record = table.record
    if record.status != "lobby":
        return ()
    if len(record.seats) >= record.players:
        join: tuple[Button, ...] = ()
    elif teams:
        join = tuple(
            Button(f"join:{team}", _label("svc.button.join_team", locale, team=team), game, 0, "primary")
            for team in range(1, teams + 1)
            if team in open_teams
        )
    else:
        join = (Button("join", _label("svc.button.join", locale), game, 0, "primary"),)
    return (
        *join,
        Button("leave", _label("svc.button.leave", locale), game),
        Button("start", _label("svc.button.start", locale), game, 0, "success"),
    )


def hides_something(table: Table) -> bool:
    """Whether the game keeps something of a seat hidden from the others (a hand, a bag)."""
    if table.state is None or not table.record.seats:
        return False
    return bool(table.game.view(table.state, table.record.seats[0].player).get("private"))


def board_buttons(table: Table, locale: str, *, explained: bool = False) -> tuple[Button, ...]:
    """The buttons under a board; ``explained``: the move that made this version was a computer
    player's with its reasons kept, which "Why?" tells (``/game why`` for that move)."""
    record = table.record
    game, version = record.id, record.version
    why = (Button("why", _label("svc.button.why", locale), game, version),) if explained else ()
    if record.status != "active":
        return (
            Button("rematch", _label("svc.button.rematch", locale), game, version, "primary"),
            Button("replay", _label("svc.button.replay", locale), game, version),
            Button("log", _label("svc.button.log", locale), game, version),
            Button("details", _label("svc.button.details", locale), game, version),
            *why,
        )
    # the hidden part has its game's own name where it has one ("My deployment" in Batailles)
    named = f"svc.button.hand.{record.game}"
    key = named if has_key(named) else "svc.button.hand"
    hand = (Button("hand", _label(key, locale), game, version),) if hides_something(table) else ()
    return (
        *hand,
        Button("moves", _label("svc.button.moves", locale), game, version, "primary"),
        Button("details", _label("svc.button.details", locale), game, version),
        Button("rules", _label("svc.button.rules", locale), game, version),
        *why,
    )


def vote_buttons(kind: str, table: Table, locale: str) -> tuple[Button, ...]:
    game, version = table.record.id, table.record.version
    return (
        Button(f"{kind}_accept", _label("svc.button.accept", locale), game, version, "success"),
        Button(f"{kind}_decline", _label("svc.button.decline", locale), game, version, "danger"),
    )


def common_words(labels: list[str]) -> str:
    """The words every label starts with: what a group of moves has in common, as players read it."""
    split = [label.split() for label in labels]
    common: list[str] = []
    for words in zip(*split, strict=False):
        if all(w == words[0] for w in words):
            common.append(words[0])
        else:
            break
    return " ".join(common)


def moves_menu(
    table: Table,
    player: str,
    locale: str,
    labels: dict[str, str],
    limits: Limits,
    prefix: str = "",
    page: int = 0,
) -> Menu:
    """The options for ``player``'s legal moves starting with the words of ``prefix``.

    ``labels`` maps each legal action's text to its label in ``locale``. A group of up to 25 moves
    lists them; a bigger one lists its subgroups by the next word; more than 25 entries page, the
    last option of a full page turning to the next.
    """
    record = table.record
    words = prefix.split()
    texts = [t for t in labels if t.split()[: len(words)] == words and len(t) + 2 <= limits.choice]
    entries: list[tuple[str, str]]
    if len(texts) <= limits.choices:
        entries = [(labels[t][: limits.choice], f"a:{t}") for t in texts]
    else:
        groups: OrderedDict[str, list[str]] = OrderedDict()
        for text in texts:
            key = " ".join(text.split()[: len(words) + 1])
            groups.setdefault(key, []).append(text)
        entries = []
        for key, members in groups.items():
            if len(members) == 1:
                entries.append((labels[members[0]][: limits.choice], f"a:{members[0]}"))
                continue
            shared = common_words([labels[m] for m in members]) or key
            group = _label("svc.menu.group", locale, what=shared, count=len(members))
            entries.append((group[: limits.choice], f"g:{key}"))
    per_page = limits.choices if len(entries) <= limits.choices else limits.choices - 1
    pages = max(1, -(-len(entries) // per_page))
    page = min(max(page, 0), pages - 1)
    shown = entries[page * per_page : (page + 1) * per_page]
    if pages > 1:
        following = (page + 1) % pages
        shown.append(
            (_label("svc.menu.more", locale, page=following + 1, pages=pages), f"p:{following}:{prefix}")
        )
    title = (
        _label("svc.menu.title", locale)
        if not prefix
        else _label("svc.menu.title_group", locale, what=prefix)
    )
    return Menu(title, tuple(shown), record.id, record.version)
