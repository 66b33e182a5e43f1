"""The contract every game implements (see docs/architecture.md).

Tests, the table layer, the front ends and the random players rely only on these
names, so a new game plugs in by providing one object that satisfies ``Game``.
States are opaque to callers: only the game's own functions look inside them.

What the table layer and the front ends rely on, in short. ``engine.get_game(name)`` returns an object with
``new_game``, ``to_act``, ``legal_actions``, ``apply``, ``parse_action``, ``label``, ``is_over``, ``result``,
``view``, ``dump``, ``load``, ``sides`` (what each seat plays, as ids the catalog names, for the records),
plus ``name``, ``player_counts`` and ``option_specs``.

- Player ids are strings (Discord snowflakes, or console names).
- ``apply`` returns ``(new_state, events)``; events are ``engine.text.Msg`` values (catalog key and
  parameters), rendered by ``i18n.t``. A ``PlayerRef(id)`` parameter becomes a name or a mention.
- Errors are ``engine.errors.GameError`` and its subclasses, each carrying a ``Msg``.
- ``str(action)`` is the stable text form; ``parse_action(state, player, str(action)) == action``.
  ``label(state, action)`` is the localisable description shown in autocomplete. A game may add
  ``typed(action)``: the action's text in the reader's own words, reading back as that action (every game
  offers it: French verbs for a French reader; a game without it lists ``str(action)``).
- Players' words: ``parse_action(state, player, text, lexicon)`` reads ``text`` in the words of an
  ``engine.lexicon.Lexicon`` (without one, the text form alone), which the table layer hands in
  (``table.core.text.lexicon``). A test finds no accented letter and no French word of the catalogs in
  ``engine/``.
- Randomness comes from ``engine.rng.Rng``, whose integer state is stored inside the game state.

Words from views, the describers: each game's ``labels.py`` holds, beside the autocomplete labels (a menu's
words to the one who acts: "Deploy the Archer on c3", "End your turn"), ``last_description``: the same action
told in the third person for the whole table (``wc.did.*``, ``bt.did.*``, ``ch.did.*``: "{player} takes
control of f4 with their Light Cavalry"). The view's ``last.label`` carries it; the reader's side names
``{player}`` (the board's "Last action: ..." line). Hints in refusals quote legal action texts in the reader's
words through each parser's ``typed``, each reading back as its action (``tests/engine/test_typed_hints.py``);
``tests/table/test_words.py`` scans everything a player reads over seeded games of every game, size and
language for ids, raw action texts, English words in French and "you" in public descriptions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict

from engine.lexicon import PLAIN, Lexicon
from engine.text import Msg

JSON = str | int | float | bool | None | list["JSON"] | dict[str, "JSON"]
"""A JSON-safe value: dict, list, str, int, float, bool or None (a game's own saves and views are
``TypedDict``s of these; a save handed between layers is a ``dict[str, JSON]``)."""


@dataclass(frozen=True)
class OptionSpec:
    """One lobby option of a game, e.g. ``armies`` with its allowed values.

    ``choices`` empty means free text; ``default`` is used when the option is omitted.
    ``replaces`` names another option that this one, once given, makes moot (a map of one's own
    instead of a preset one), so that a table's options are told without the one set aside.
    """

    name: str
    choices: tuple[str, ...] = ()
    default: str = ""
    help: Msg | None = None
    replaces: str = ""


EncodedMsg = dict[str, JSON]
"""A ``Msg`` in a view or a record, as ``engine.text.encode_msg`` writes it: ``key`` and ``params``."""


class ResultJson(TypedDict):
    """``Result.to_json()``: how a game ended, as every game's view carries it. ``aborted`` is the
    table layer's mark on a game its players stopped."""

    winners: list[str]
    draw: bool
    scores: dict[str, int]
    reason: EncodedMsg
    aborted: NotRequired[bool]


@dataclass(frozen=True)
class Result:
    """How a game ended. ``winners`` empty with ``draw`` true is a draw."""

    winners: tuple[str, ...]
    reason: Msg
    draw: bool = False
    scores: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> ResultJson:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "scores": dict(self.scores),
            "reason": {"key": self.reason.key, "params": _plain(self.reason.params)},
        }


def _plain(params: Mapping[str, object]) -> dict[str, JSON]:
    """JSON-safe parameters: players as their text form (``@id``, which the front ends replace by a
    name), lists item by item, so that a winning team reads "Alice and Carol", not a list's repr."""
    return {k: _plain_value(v) for k, v in params.items()}


def _plain_value(value: object) -> JSON:
    if isinstance(value, (list, tuple)):
        return [_plain_value(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


if TYPE_CHECKING:
    # Defaults (PEP 696) let the table layer, which plays every game alike, write a bare ``Game``
    # (``Game[Any, Any, dict[str, Any]]``: views it passes on as JSON-like dicts) while each game's
    # own module checks ``Game[State, Action, View]``. At run time the engine imports the standard
    # library alone, and a type variable's default changes nothing there.
    from typing_extensions import TypeVar

    S = TypeVar("S", default=Any)
    A = TypeVar("A", default=Any)
    V = TypeVar("V", covariant=True, default=dict[str, Any])
else:
    from typing import TypeVar

    S = TypeVar("S")
    A = TypeVar("A")
    V = TypeVar("V", covariant=True)


class Action(Protocol):
    """A frozen dataclass whose ``str()`` parses back through ``parse_action``."""

    def __str__(self) -> str: ...


class Game(Protocol[S, A, V]):
    """What ``engine.get_game(name)`` returns: a game over states ``S``, actions ``A`` and views ``V``
    (each game's view is a ``TypedDict`` beside its ``view()``, which its renderers take).

    A game may also offer ``typed(action) -> Msg``: the action's text in the reader's own words, in
    backquotes, reading back through ``parse_action`` as that action (every game does), so a
    list of moves shows a French player French texts; without it the list shows ``str(action)``.
    It may also name where players' words for it are written, ``words`` (``engine.lexicon.Sources``):
    the table layer then hands ``parse_action`` those words in every language the catalogs hold."""

    name: str
    player_counts: tuple[int, ...]
    option_specs: Sequence[OptionSpec]

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> S: ...

    def to_act(self, state: S) -> list[str]: ...

    def legal_actions(self, state: S, player: str) -> list[A]: ...

    def apply(self, state: S, player: str, action: A) -> tuple[S, list[Msg]]: ...

    def parse_action(self, state: S, player: str, text: str, lexicon: Lexicon = PLAIN) -> A:
        """The action ``text`` names: its text form, or the players' words ``lexicon`` holds (built
        from the catalogs by the caller that knows them, from the game's ``words``)."""
        ...

    def can_undo(self, before: S, steps: Sequence[tuple[str, A]], player: str) -> Msg | None:
        """None when ``player`` may take back ``steps`` (``(actor, action)`` pairs played in order from
        ``before``: their own last action, then any computer players' replies): no die rolled or
        draw since and nothing hidden shown to them; else a message saying why not (``engine.undo``)."""
        ...

    def default_action(self, state: S, player: str) -> A | None:
        """The neutral choice of ``player``'s pending decision (pass, decline, end), played for them
        when a table's deadline passes with the policy ``skip``; None when there is none."""
        ...

    def label(self, state: S, action: A) -> Msg: ...

    def sides(self, state: S) -> list[list[str]]:
        """What each seat plays, in seat order, as ids the catalog names: War Chest's units drafted
        (or dealt), a Batailles army, a Cry Havoc faction. Records count wins by them, so a server
        sees which units, armies or factions win; public, as every one of them is on the table."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result | None: ...

    def view(self, state: S, player: str | None) -> V: ...

    def dump(self, state: S) -> dict[str, JSON]: ...

    def load(self, data: dict[str, JSON]) -> S: ...
