"""Small helpers to turn messages, players and games into the text of a Post.

Every long text is cut into messages by one routine, ``split`` (from the start for replies and help, from the
end for a handover post whose last message carries the board); the cogs run it on the Discord text, keeping
Discord's own markup whole. ``clip``, ``shorten`` and ``split`` never cut inside a mark
(``table.core.marks``), and a test scans ``table/`` for Discord's markup. ``mentions`` names a computer player
instead of mentioning it, and ``pings`` leaves it out of every post's pings, direct messages and reminders.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence

import i18n
from engine.contract import Game
from engine.errors import BadInput, GameError
from engine.lexicon import Lexicon
from engine.text import Msg, PlayerRef
from table.core.marks import WHOLE, mention
from table.core.posts import is_bot

_TITLE_KEYS = ("table.game", "cmd.choice.game")
"""Catalog prefixes of a game's display names: the table's, and the slash command's choice."""


def has_key(key: str) -> bool:
    """Whether the catalog defines ``key`` (in English, the fallback language)."""
    return key in i18n.catalog(i18n.DEFAULT)


def game_title(name: str | None) -> Msg | str:
    """A game's display name (``table.game.<name>``), or its id when the catalog has none."""
    if name is None:
        return "?"
    key = f"table.game.{name}"
    return Msg(key) if has_key(key) else name


def mentions(players: Iterable[str], names: Mapping[str, str] | None = None) -> list[str]:
    """Mentions of ``players``, as a list: the catalog joins it ("@a, @b and @c") in the reader's language.

    A computer player is named, never mentioned (``names`` holds its seat's name)."""
    return [(names or {}).get(p, p) if is_bot(p) else mention(p) for p in players]


def pings(players: Iterable[str]) -> tuple[str, ...]:
    """Whom a post about ``players`` may ping: the people among them, never a computer player."""
    return tuple(p for p in players if not is_bot(p))


def named(players: Iterable[str], names: Mapping[str, str]) -> list[str]:
    """Display names of ``players``, as a list for the catalog to join."""
    return [names.get(p, p) for p in players]


def _resolve(value: object, names: Mapping[str, str]) -> object:
    if isinstance(value, PlayerRef):
        return names.get(value.id, value.id)
    if isinstance(value, Msg):
        return resolve_players(value, names)
    if isinstance(value, (list, tuple)):
        return [_resolve(v, names) for v in value]
    return value


def resolve_players(message: Msg, names: Mapping[str, str]) -> Msg:
    """The same message with every player replaced by a display name.

    Errors are rendered by the front end without the table's names; resolving players
    here means a refusal reads "waiting for Alice" rather than a raw snowflake.
    """
    return Msg(message.key, {k: _resolve(v, names) for k, v in message.params.items()})


def name_players_in(err: GameError, names: Mapping[str, str]) -> GameError:
    """Rewrite ``err``'s message in place with display names; returns it for ``raise``."""
    err.msg = resolve_players(err.msg, names)
    return err


_WHOLE_OR_LINE = re.compile(f"({WHOLE.pattern}|\n)")


def cut_point(text: str, at: int, whole: re.Pattern[str] = WHOLE) -> int:
    """The place nearest before ``at`` where ``text`` may be cut without splitting what ``whole``
    finds (a mark: a mention, a channel, a moment): ``at`` itself unless one straddles it, else where
    that one begins."""
    for found in whole.finditer(text, max(0, at - 64), at + 64):
        if found.start() < at < found.end():
            return found.start()
    return at


def clip(text: str, limit: int, whole: re.Pattern[str] = WHOLE) -> str:
    """``text`` cut to at most ``limit`` characters from its end, an ellipsis marking the cut, and
    never inside a mention or a moment: what is kept still pings and reads as it should."""
    if len(text) <= limit:
        return text
    return text[: cut_point(text, max(0, limit - 1), whole)] + "…"


def split(text: str, limit: int, *, from_end: bool = False, whole: re.Pattern[str] = WHOLE) -> list[str]:
    """``text`` as messages of at most ``limit`` characters: every long text the bot sends is cut here.

    From the start (``from_end`` false): each message as full as it can be, cut at a line's end (the
    blank lines there left out), else at a space, else before ``limit`` but never inside what
    ``whole`` finds. From the end: the last message as full as it can be (it carries the board, and
    its text is what later edits replace), always between lines, every line kept and a line longer
    than a message clipped (``clip``). Always at least one piece (maybe empty), so an image alone
    still makes a message.
    """
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    if from_end:
        rest = "\n".join(clip(line, limit, whole) for line in text.split("\n"))
        while len(rest) > limit:
            cut = rest.find("\n", len(rest) - limit - 1)  # every line fits, so one starts in reach
            pieces.insert(0, rest[cut + 1 :])
            rest = rest[:cut]
        return [rest, *pieces]
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit + 1)
        if cut <= 0:
            cut = rest.rfind(" ", 0, limit + 1)
        if cut <= 0:
            cut = cut_point(rest, limit, whole) or limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    return [*pieces, rest]


SHORTENED_TAIL = 12
"""The most characters a shortened stretch keeps of its end, after the ellipsis: the few words that
close a sentence or lead into a mention ("(" before two mentions and ": the game is over.)")."""


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, taken from its longest stretches of plain words
    (an ellipsis where each was shortened, near its end) rather than from the end of the text:
    every mention and timestamp stays whole and every line stays, so a post squeezed this way
    still pings whom it names. Only a text of little but mentions is cut from its end (``clip``)."""
    if len(text) <= limit:
        return text
    parts = _WHOLE_OR_LINE.split(text)  # plain stretches at even places, what stays whole between
    excess = len(text) - limit
    while excess > 0:
        longest = max(range(0, len(parts), 2), key=lambda i: len(parts[i]))
        stretch = parts[longest]
        if len(stretch) <= 1:
            break
        keep = max(0, len(stretch) - excess - 1)
        tail = min(keep // 4, SHORTENED_TAIL)
        parts[longest] = stretch[: keep - tail].rstrip() + "…" + stretch[len(stretch) - tail :]
        excess -= len(stretch) - len(parts[longest])
    return clip("".join(parts), limit)


def _fold(text: str) -> str:
    """Lower case, no accents, letters and digits only: "Champ d'honneur" -> "champdhonneur"."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if c.isalnum())


def find_game(typed: str, known: Sequence[str], get: Callable[[str], Game]) -> Game:
    """The game a player named: by its id or by its display name in any language, forgiving case,
    accents, spaces and apostrophes ("war chest", "Champ d'honneur", "cryhavoc").

    An unknown name is refused with the display names of the known games, never their ids.
    """
    wanted = _fold(typed)
    for name in known:
        titles = (i18n.t(f"{prefix}.{name}", lang) for prefix in _TITLE_KEYS for lang in i18n.LOCALES)
        spellings = {name, *titles}
        if wanted in {_fold(s) for s in spellings}:
            return get(name)
    try:
        return get(typed.strip().lower())
    except BadInput:
        games = [game_title(name) for name in known]
        raise BadInput("error.unknown_game", game=typed.strip(), games=games) from None


def lexicon(game: Game) -> Lexicon:
    """The words players may type for ``game``'s actions, in every language of the catalogs: what
    ``parse_action`` reads a typed move with (a game that names no ``words`` reads its texts alone)."""
    return i18n.lexicon(getattr(game, "words", None))
