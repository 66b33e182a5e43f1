"""Batailles: a square-grid miniatures wargame for two players (rules: docs/rules/batailles.md).

``GAME`` implements ``engine.contract.Game``. Modules: ``board`` (zones, terrain, map
format), ``troops`` (profiles, preset armies), ``actions`` (decisions and their text),
``state`` (the state and its JSON form), ``combat`` (lines of fire and dice), ``rules``
(legality and effects), ``view`` (what the renderer draws).

Taking an action back (``can_undo``, the rule of ``engine.undo``): nothing is hidden in Batailles
(both armies, every troop's zone and characteristics are on the table), so only dice block: an
attack's, a morale test's, a reroll's, the initiative roll at the start of a turn. Every other
step (deploy, move, face, coordinate, end of an activation) is taken back one at a time, as long as
no die was rolled since.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.batailles import rules
from engine.batailles.actions import WORDS, Action, parse, typed
from engine.batailles.board import PRESET_MAPS, parse_map, preset_map
from engine.batailles.labels import action_label
from engine.batailles.state import Phase, State, clone, dump, load
from engine.batailles.troops import PRESET_ARMIES, Troop, preset_army
from engine.batailles.view import BataillesView, build_view
from engine.contract import Game, OptionSpec, Result
from engine.defaults import neutral_default
from engine.errors import BadInput, GameOver
from engine.lexicon import PLAIN, Lexicon
from engine.saves import Save
from engine.text import Msg, PlayerRef, msg
from engine.undo import Step, nothing_hidden, undo_refusal

DEFAULT_MAX_ROUNDS = 15


class Batailles:
    """The game object: stateless; every method takes the state it works on."""

    name: str = "batailles"
    player_counts: tuple[int, ...] = (2,)
    option_specs: Sequence[OptionSpec] = (
        OptionSpec("map", PRESET_MAPS, "default", msg("bt.opt.map")),
        OptionSpec("armies", (*PRESET_ARMIES, "build"), "classic", msg("bt.opt.armies")),
        OptionSpec("hardcore", ("off", "on"), "off", msg("bt.opt.hardcore")),
        OptionSpec("custom_map", (), "", msg("bt.opt.custom_map"), replaces="map"),
        OptionSpec("max_rounds", (), str(DEFAULT_MAX_ROUNDS), msg("bt.opt.max_rounds")),
    )
    words = WORDS

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> State:
        if len(players) != 2:
            raise BadInput("bt.err.players", count=len(players))
        opts = {spec.name: spec.default for spec in self.option_specs}
        for key, value in (options or {}).items():
            if key not in opts:
                raise BadInput("bt.err.option", option=key, options=", ".join(opts))
            opts[key] = str(value).strip()
        for spec in self.option_specs:
            if spec.choices and opts[spec.name] not in spec.choices:
                raise BadInput(
                    "bt.err.option_value",
                    option=spec.name,
                    value=opts[spec.name],
                    choices=", ".join(spec.choices),
                )
        board = parse_map(opts["custom_map"]) if opts["custom_map"] else preset_map(opts["map"])
        rounds = opts["max_rounds"]
        if not rounds.isdigit() or not 1 <= int(rounds) <= 99:
            raise BadInput("bt.err.max_rounds", value=rounds)
        troops: list[Troop] = []
        if opts["armies"] != "build":
            for seat in (0, 1):
                troops += [Troop(name, seat, profile) for name, profile in preset_army(opts["armies"])]
        state = State(
            players=list(players),
            options=opts,
            board=board,
            rng=seed,
            phase=Phase.BUILD if opts["armies"] == "build" else Phase.DEPLOY,
            troops=troops,
            hardcore=opts["hardcore"] == "on",
            max_rounds=int(rounds),
        )
        for seat in (0, 1):
            if len(state.army(seat)) > rules.army_cap(state, seat):
                raise BadInput("bt.err.army_too_big", most=rules.army_cap(state, seat))
        return state

    def to_act(self, state: State) -> list[str]:
        return [state.players[seat] for seat in rules.to_act(state)]

    def can_undo(self, before: State, steps: Sequence[Step], player: str) -> Msg | None:
        """None when ``player`` may take back ``steps`` played from ``before`` (the module's rule)."""
        return undo_refusal(
            self.apply, before, steps, player, rng_of=lambda s: s.rng, revealed=nothing_hidden
        )

    def default_action(self, state: State, player: str) -> Action | None:
        """What a deadline's ``skip`` plays for an absent player (see ``engine.defaults``)."""
        return neutral_default(self.legal_actions(state, player), ("done", "end", "ready"))

    def legal_actions(self, state: State, player: str) -> list[Action]:
        seats = [i for i, p in enumerate(state.players) if p == player]
        return rules.legal(state, seats[0]) if seats else []

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Msg]]:
        if state.phase == Phase.OVER:
            raise GameOver()
        seat = self._seat(state, player)
        new = clone(state)
        events = rules.apply(new, seat, action)
        return new, events

    def parse_action(self, state: State, player: str, text: str, lexicon: Lexicon = PLAIN) -> Action:
        self._seat(state, player)
        return parse(text, lexicon)

    def label(self, state: State, action: Action) -> Msg:
        return action_label(action)

    def typed(self, action: Action) -> Msg:
        """``action``'s text as a reader of the message's language types it (their verbs and directions)."""
        return typed(action)

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def result(self, state: State) -> Result | None:
        o = state.outcome
        if o is None:
            return None
        losses = state.losses
        return Result(
            winners=tuple(state.players[w] for w in o["winners"]),
            reason=rules.result_msg(state),
            draw=o["draw"],
            scores={state.players[0]: losses[1], state.players[1]: losses[0]},
        )

    def sides(self, state: State) -> list[list[str]]:
        """Each seat's army: the preset both seats field, or ``build`` for armies the players made."""
        return [[str(state.options.get("armies", "classic"))] for _ in state.players]

    def view(self, state: State, player: str | None) -> BataillesView:
        result = self.result(state)
        return build_view(state, player, result.to_json() if result else None)

    def dump(self, state: State) -> Save:
        return dump(state)

    def load(self, data: Save) -> State:
        return load(data)

    @staticmethod
    def _seat(state: State, player: str) -> int:
        if player not in state.players:
            raise BadInput("bt.err.not_a_player", player=PlayerRef(player))
        return state.players.index(player)


GAME = Batailles()
_CONFORMS: Game[State, Action, BataillesView] = (
    GAME  # mypy checks here that Batailles satisfies the engine contract
)

__all__ = ["GAME", "Batailles", "State"]
