"""``WarChest``: the object the rest of the bot uses (``engine.get_game("warchest")``).

Taking an action back (``can_undo``, the rule of ``engine.undo``): a coin drawn from a bag is random
(the generator moves: the end of a round, a Warrior Priest's draw), and it blocks. What is hidden is
the coins of a hand: a coin that leaves another player's hand face up (deploy, bolster, move,
control, attack, tactic, the Royal Coin paying the Royal Guard) shows the asker a coin they could not
see, and blocks, also when that player is the asker's teammate (each player's hand is their own).
A coin discarded face down (initiative, recruit, pass) shows nothing. The asker's own coins played
face up never block: the others consent and keep what they saw. The coin a recruit takes comes from
the public supply, and the draft's picks are public.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Game, OptionSpec, Result
from engine.defaults import neutral_default
from engine.errors import BadInput, GameOver, IllegalAction, NotYourTurn
from engine.jsonvalues import copy_json
from engine.lexicon import PLAIN, Lexicon, Sources
from engine.saves import Save, upgraded
from engine.text import Msg, PlayerRef, msg
from engine.undo import SHOWN, Step, undo_refusal
from engine.warchest import parse, rules, setup
from engine.warchest.actions import Action
from engine.warchest.board import board_map
from engine.warchest.labels import action_label
from engine.warchest.state import FORMAT, UPGRADES, Phase, State
from engine.warchest.trail import remember
from engine.warchest.view import WarChestView, view


def revealed(before: State, after: State, _actor: str, asker: str) -> str | None:
    """``SHOWN`` when a coin left the hand of a seat other than ``asker``'s without going face down
    (bags are drawn through the generator, which ``engine.undo`` checks first)."""
    mine = before.seat_of(asker)
    for si, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
        if si == mine:
            continue
        left_hand = len(was.hand) - len(now.hand)
        face_down = len(now.discard_down) - len(was.discard_down)
        if left_hand > max(face_down, 0):
            return SHOWN
    return None


class WarChest:
    """War Chest for two players, or four in two teams."""

    name: str = "warchest"
    player_counts: tuple[int, ...] = setup.PLAYER_COUNTS
    option_specs: Sequence[OptionSpec] = (
        OptionSpec("armies", choices=setup.ARMIES, default="random", help=msg("wc.option.armies")),
    )
    words: Sources = parse.WORDS

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> State:
        return setup.new_game(players, seed, options)

    def to_act(self, state: State) -> list[str]:
        seat = rules.acting_seat(state)
        return [] if seat is None else [state.players[seat]]

    def can_undo(self, before: State, steps: Sequence[Step], player: str) -> Msg | None:
        """None when ``player`` may take back ``steps`` played from ``before`` (the module's rule)."""
        return undo_refusal(self.apply, before, steps, player, rng_of=lambda s: s.rng, revealed=revealed)

    def default_action(self, state: State, player: str) -> Action | None:
        """What a deadline's ``skip`` plays for an absent player (see ``engine.defaults``)."""
        return neutral_default(self.legal_actions(state, player), ("skip", "guard stack", "pass"))

    def legal_actions(self, state: State, player: str) -> list[Action]:
        seat = state.seat_of(player)
        if seat is None:
            return []
        cached = state.cache.get(seat)
        if cached is None:
            cached = rules.legal_for(state, seat)
            state.cache[seat] = cached
        return list(cached)

    def _check_turn(self, state: State, player: str, text: str) -> int:
        if state.phase == Phase.OVER:
            raise GameOver("wc.error.game_over", input=text)
        seat = state.seat_of(player)
        if seat is None:
            raise NotYourTurn("wc.error.not_player", player=PlayerRef(player))
        if rules.acting_seat(state) != seat:
            raise NotYourTurn(
                "wc.error.not_your_turn", input=text, waiting=[PlayerRef(p) for p in self.to_act(state)]
            )
        return seat

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Msg]]:
        seat = self._check_turn(state, player, str(action))
        legal = self.legal_actions(state, player)
        if action not in legal:
            verb = getattr(action, "verb", None)
            raise IllegalAction("wc.error.illegal", input=str(action), legal=parse.hints(legal, verb))
        new = state.clone()
        touched = rules.touched_hexes(state, seat, action)
        events = rules.play(new, seat, action)
        remember(new, seat, action, touched, (state.board, rules.acting_seat(state)))
        return new, events

    def parse_action(self, state: State, player: str, text: str, lexicon: Lexicon = PLAIN) -> Action:
        self._check_turn(state, player, text)
        return parse.match(text, self.legal_actions(state, player), lexicon)

    def label(self, state: State, action: Action) -> Msg:
        return action_label(state, action)

    def typed(self, action: Action) -> Msg:
        """``action``'s text in the reader's words, in backquotes; it reads back as ``action``."""
        return parse.typed(action)

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def result(self, state: State) -> Result | None:
        r = state.result
        if r is None:
            return None
        winners = tuple(state.players[s] for s in r["winners"])
        scores = placed_markers(state)
        if r["draw"]:
            reason = msg("wc.result.stall", rounds=rules.STALL_ROUNDS)
            return Result(winners=(), reason=reason, draw=True, scores=scores)
        if len(winners) == 1:
            reason = msg("wc.result.markers", player=PlayerRef(winners[0]))
        else:
            reason = msg("wc.result.markers_team", team=[PlayerRef(w) for w in winners])
        return Result(winners=winners, reason=reason, draw=False, scores=scores)

    def sides(self, state: State) -> list[list[str]]:
        """Each seat's unit cards (drafted or dealt), alphabetical: the same set reads the same."""
        return [sorted(seat.units) for seat in state.seats]

    def view(self, state: State, player: str | None) -> WarChestView:
        result = self.result(state)
        return view(state, player, None if result is None else result.to_json())

    def dump(self, state: State) -> Save:
        return state.to_json()

    def load(self, data: Save) -> State:
        """The state of a save of any format up to ``FORMAT``, older ones upgraded step by step."""
        try:
            return State.from_json(upgraded(copy_json(data), "format", FORMAT, UPGRADES, "wc"))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadInput("wc.error.bad_save", error=str(exc)) from None


GAME = WarChest()
_CONFORMS: Game[State, Action, WarChestView] = (
    GAME  # mypy checks here that WarChest satisfies the engine contract
)


def placed_markers(state: State) -> dict[str, int]:
    """Each player's count of control markers their side placed from its supply (those on its start
    locations not counted): what a league orders players with equal points by."""
    board = board_map(state.board_name)
    placed: dict[str, int] = {}
    for seat_index, player in enumerate(state.players):
        team = state.seats[seat_index].team
        supply = board.markers - len(board.start[team])
        placed[player] = supply - state.markers[team]
    return placed
