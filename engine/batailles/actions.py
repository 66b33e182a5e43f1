"""Every decision a Batailles player makes, as a frozen dataclass with a stable text form.

``str(action)`` is what the action log stores and what players type; ``parse`` reads
it back (``parse(str(a)) == a``). Zones are written as labels (``c4``), directions
and facings as ``n e s w``, profiles as six numbers in the order movement, attack,
defence, range, command, logistics.

Players may type the same actions in their own words: the verbs and directions of each language's
catalog (``WORDS``), handed in as a ``Lexicon``, accents optional. They parse to the same actions,
whose text stays the English form above, so the log and replays read one way whatever language was
typed. ``typed`` gives an action's text in the reader's words (the catalog's ``bt.typed.*``), as hints
and the console's list quote it.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.batailles.board import FACINGS, Zone, label, parse_label
from engine.batailles.troops import Profile, check_name, check_profile
from engine.errors import BadInput
from engine.lexicon import PLAIN, Lexicon, Sources
from engine.matching import FOLDS_KEPT, typed_text
from engine.text import Msg, msg


@dataclass(frozen=True)
class Recruit:
    """Army building: add a troop with a name and a profile."""

    name: str
    profile: Profile

    def __str__(self) -> str:
        return f"recruit {self.name} " + " ".join(map(str, self.profile))


@dataclass(frozen=True)
class Dismiss:
    """Army building: take back a troop recruited by mistake."""

    name: str

    def __str__(self) -> str:
        return f"dismiss {self.name}"


@dataclass(frozen=True)
class Ready:
    """The army is complete (building), or the characteristics are final (hardcore)."""

    def __str__(self) -> str:
        return "ready"


@dataclass(frozen=True)
class Deploy:
    name: str
    zone: Zone
    facing: str

    def __str__(self) -> str:
        return f"deploy {self.name} {label(self.zone)} {self.facing}"


@dataclass(frozen=True)
class Activate:
    """Activate one troop, or several troops of one zone in coordination (names sorted)."""

    names: tuple[str, ...]

    def __str__(self) -> str:
        verb = "activate" if len(self.names) == 1 else "coordinate"
        return f"{verb} {'+'.join(self.names)}"


@dataclass(frozen=True)
class Move:
    """Move the activated troops one zone; entering it, they face ``facing`` for free."""

    direction: str
    facing: str

    def __str__(self) -> str:
        return f"move {self.direction} {self.facing}"


@dataclass(frozen=True)
class Face:
    direction: str

    def __str__(self) -> str:
        return f"face {self.direction}"


@dataclass(frozen=True)
class Attack:
    """Attack a zone; each activated troop spends ``dice`` attack points and rolls that many dice."""

    zone: Zone
    dice: int

    def __str__(self) -> str:
        return f"attack {label(self.zone)} {self.dice}"


@dataclass(frozen=True)
class Reroll:
    """Spend logistics points to reroll that many failed dice (0 keeps the roll)."""

    count: int

    def __str__(self) -> str:
        return f"reroll {self.count}"


@dataclass(frozen=True)
class Done:
    """End the current activation."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Morale:
    """Spend advantage points to make the opponent test the morale of a troop in ``zone``."""

    zone: Zone

    def __str__(self) -> str:
        return f"morale {label(self.zone)}"


@dataclass(frozen=True)
class Hold:
    """Morale test answer: the tested troop and the dice bought with advantage and command."""

    name: str
    dice: int

    def __str__(self) -> str:
        return f"hold {self.name} {self.dice}"


@dataclass(frozen=True)
class Lose:
    """Choose a troop removed as a loss."""

    name: str

    def __str__(self) -> str:
        return f"lose {self.name}"


@dataclass(frozen=True)
class Retrain:
    """Hardcore variant: pick a troop whose characteristics are spread again."""

    name: str

    def __str__(self) -> str:
        return f"retrain {self.name}"


@dataclass(frozen=True)
class SetProfile:
    """Hardcore variant: the new profile of the troop picked by ``Retrain``."""

    profile: Profile

    def __str__(self) -> str:
        return "profile " + " ".join(map(str, self.profile))


Action = (
    Recruit
    | Dismiss
    | Ready
    | Deploy
    | Activate
    | Move
    | Face
    | Attack
    | Reroll
    | Done
    | EndTurn
    | Morale
    | Hold
    | Lose
    | Retrain
    | SetProfile
)


WORDS = Sources(
    "batailles",
    catalog=(("bt.typed.verb", "verb"), ("bt.typed.dir", "direction")),
    kinds=frozenset({"verb", "direction", "lead-in"}),
)
"""Where players' words for Batailles are written: the verbs and directions hints show (``bt.typed.*``),
and ``words/batailles.json`` for the other forms, and the words a verb may come after (``lead-in``:
a pronoun dropped before the verb, or elided onto it when the lead-in ends with an apostrophe)."""


@dataclass(frozen=True)
class _Reading:
    """A lexicon as ``parse`` reads it, every form folded (``_fold``) word by word."""

    verbs: dict[tuple[str, ...], str]
    lengths: tuple[int, ...]
    """The numbers of words of the verbs, most first: the longest verb the text begins with wins."""
    directions: dict[str, str]
    pronouns: frozenset[str]
    elisions: tuple[str, ...]


@functools.lru_cache(maxsize=8)
def _reading(lexicon: Lexicon) -> _Reading:
    verbs: dict[tuple[str, ...], str] = {}
    for form, verb in lexicon.pairs("verb"):
        verbs.setdefault(tuple(_fold(w) for w in _split(form)), verb)
    directions: dict[str, str] = {}
    for form, direction in lexicon.pairs("direction"):
        directions.setdefault(_fold(form.strip()), direction)
    lead_ins = [_fold(form.strip().replace("\u2019", "'")) for form, _word in lexicon.pairs("lead-in")]
    return _Reading(
        verbs,
        tuple(sorted({len(k) for k in verbs}, reverse=True)),
        directions,
        frozenset(w for w in lead_ins if not w.endswith("'")),
        tuple(w for w in lead_ins if w.endswith("'")),
    )


def parse(text: str, lexicon: Lexicon = PLAIN) -> Action:
    """Read an action's text form (or the players' words of ``lexicon``); ``BadInput`` quotes the text
    and the expected shape."""
    reading = _reading(lexicon)
    words = _words(text, reading)
    if not words:
        raise BadInput("bt.err.parse", input=text)
    verb, args = words[0], words[1:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise BadInput("bt.err.parse", input=text)
    try:
        return parser(args, reading.directions)
    except (ValueError, IndexError):
        raise BadInput("bt.err.parse_args", input=text, usage=msg(f"bt.usage.{verb}")) from None


def typed(a: Action) -> Msg:
    """``a``'s text in the reader's words (the catalog's ``bt.typed.*``, forms of ``WORDS``), in
    backquotes as a hint quotes it; it parses back as ``a``. Names, zones and numbers are the same in
    every language; a profile's six numbers stay one word of the text."""
    verb, *rest = str(a).split()
    words: list[Msg | str] = [msg(f"bt.typed.verb.{verb}")]
    if isinstance(a, (Recruit, SetProfile)):
        words += [*rest[:-6], " ".join(rest[-6:])]
    elif isinstance(a, (Deploy, Move, Face)):  # directions come last; a troop's name may be ``w``
        directions = {Deploy: 1, Move: 2, Face: 1}[type(a)]
        words += [*rest[:-directions], *(msg(f"bt.typed.dir.{d}") for d in rest[-directions:])]
    else:
        words += rest
    return typed_text(words)


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _fold(word: str) -> str:
    """Lower case without accents, so a verb typed with or without them reads alike (remembered per word:
    the same verbs and words come back with every action parsed)."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _split(text: str) -> list[str]:
    """The typed words, in lower case, with one apostrophe for the keyboard's two."""
    return text.strip().lower().replace("\u2019", "'").split()


def _words(text: str, reading: _Reading) -> list[str]:
    """The typed words with the verb (of one word or several) read as the text's, after
    a pronoun the lexicon drops, or elides onto the verb."""
    words = _split(text)
    if not words:
        return words
    if _fold(words[0]) in reading.pronouns and len(words) > 1:
        words = words[1:]
    first = _fold(words[0])
    for elision in reading.elisions:
        if first.startswith(elision):
            first = first.removeprefix(elision)
            break
    folded = [first, *(_fold(w) for w in words[1 : max(reading.lengths, default=1)])]
    for n in reading.lengths:
        verb = reading.verbs.get(tuple(folded[:n])) if len(words) >= n else None
        if verb is not None:
            return [verb, *words[n:]]
    return words


def _n(text: str) -> int:
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


def _zone(text: str) -> Zone:
    zone = parse_label(text)
    if zone is None:
        raise ValueError(text)
    return zone


def _dir(text: str, directions: Mapping[str, str]) -> str:
    text = directions.get(_fold(text), text)
    if text not in FACINGS:
        raise ValueError(text)
    return text


def _exact(args: list[str], count: int) -> list[str]:
    if len(args) != count:
        raise ValueError(args)
    return args


def _move(args: list[str], directions: Mapping[str, str]) -> Move:
    """``move <direction> <facing>``; without a facing, the troop faces the way it moved (``move n``
    is ``move n n``), which is what a troop marching on does."""
    if len(args) == 1:
        return Move(_dir(args[0], directions), _dir(args[0], directions))
    return Move(_dir(_exact(args, 2)[0], directions), _dir(args[1], directions))


def _profile(args: list[str]) -> Profile:
    return check_profile(tuple(_n(a) for a in _exact(args, 6)))


def _names(text: str) -> tuple[str, ...]:
    names = tuple(sorted(check_name(n) for n in text.split("+")))
    if len(set(names)) != len(names):
        raise ValueError(text)
    return names


_PARSERS: dict[str, Callable[[list[str], Mapping[str, str]], Action]] = {
    "recruit": lambda a, d: Recruit(check_name(a[0]), _profile(a[1:])),
    "dismiss": lambda a, d: Dismiss(check_name(_exact(a, 1)[0])),
    "ready": lambda a, d: Ready() if not a else _fail(),
    "deploy": lambda a, d: Deploy(check_name(_exact(a, 3)[0]), _zone(a[1]), _dir(a[2], d)),
    "activate": lambda a, d: Activate(_names(_exact(a, 1)[0])),
    "coordinate": lambda a, d: Activate(_names(_exact(a, 1)[0])),
    "move": _move,
    "face": lambda a, d: Face(_dir(_exact(a, 1)[0], d)),
    "attack": lambda a, d: Attack(_zone(_exact(a, 2)[0]), _n(a[1])),
    "reroll": lambda a, d: Reroll(_n(_exact(a, 1)[0])),
    "done": lambda a, d: Done() if not a else _fail(),
    "end": lambda a, d: EndTurn() if not a else _fail(),
    "morale": lambda a, d: Morale(_zone(_exact(a, 1)[0])),
    "hold": lambda a, d: Hold(check_name(_exact(a, 2)[0]), _n(a[1])),
    "lose": lambda a, d: Lose(check_name(_exact(a, 1)[0])),
    "retrain": lambda a, d: Retrain(check_name(_exact(a, 1)[0])),
    "profile": lambda a, d: SetProfile(_profile(a)),
}
"""Each verb's reader of its arguments, given the directions the lexicon names."""


def _fail() -> Action:
    raise ValueError("unexpected arguments")
