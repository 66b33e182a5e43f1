"""``CryHavoc``: the object the rest of the bot uses (``engine.get_game("cryhavoc")``).

Taking an action back (``can_undo``, the rule of ``engine.undo``). Random, and blocking: the
generator moving (a shuffle, a War Party drawn from the box), a card taken from any face-down deck
(a faction deck, a terrain deck: drawing at the start of a round, a card that says draw, the first
half of a draw-two-keep-one) and an event stack turned over. Hidden, and blocking when the asker can
now see it: a card that leaves another player's hand (it lands face up in their discard pile, as do
the cards they drew and did not keep), a face-down exploration token turned over, a War Party token
resolved (which War Party it was). The asker's own cards paid, played or discarded, and the card
they chose to keep, never block: the others consent and keep what they saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from engine.contract import Game, OptionSpec, Result
from engine.cryhavoc import battle, flow, setup, turns
from engine.cryhavoc.actions import (
    DONE,
    Action,
    Discard,
    Done,
    Keep,
    Ransom,
    ransom,
)
from engine.cryhavoc.content import SKILLS
from engine.cryhavoc.labels import action_label
from engine.cryhavoc.parse import WORDS, hints, match, typed
from engine.cryhavoc.state import FORMAT, UPGRADES, Phase, Record, St, clone, from_save, n_players, saved
from engine.cryhavoc.view import CryHavocView, view
from engine.defaults import neutral_default
from engine.errors import BadInput, GameOver, IllegalAction, NotYourTurn
from engine.lexicon import PLAIN, Lexicon, Sources
from engine.saves import Save, upgraded
from engine.text import Msg, PlayerRef, encode_msg, msg
from engine.undo import RANDOM, SHOWN, Step, undo_refusal


def faction_word(st: St, side: int) -> str:
    """How a side is named in action texts: its faction (neutral Trogs are ``trogs`` too)."""
    return "trogs" if side >= n_players(st) else str(st["factions"][side])


def revealed(before: St, after: St, _actor: str, asker: str) -> str | None:
    """``RANDOM`` or ``SHOWN`` for one step from ``before`` to ``after``, as the module says."""
    pairs = list(zip(before["seats"], after["seats"], strict=True))
    if any(len(now["deck"]) < len(was["deck"]) for was, now in pairs):
        return RANDOM
    if any(len(after["terrain"][t]) < len(cards) for t, cards in before["terrain"].items()):
        return RANDOM
    if len(after["revealed"]) > len(before["revealed"]):
        return RANDOM
    mine = before["players"].index(asker) if asker in before["players"] else None
    for seat, (was, now) in enumerate(pairs):
        if seat != mine and len(now["discard"]) > len(was["discard"]):
            return SHOWN
    for rid, reg in before["regions"].items():
        now_reg = after["regions"][rid]
        if reg["explore"] is not None and now_reg["explore"] is None:
            return SHOWN
        token = reg["token"]
        if token is not None and token["kind"] == "war_party" and now_reg["token"] != token:
            return SHOWN
    return None


def legal_for(st: St, seat: int) -> list[Action]:
    phase = st["phase"]
    if flow.acting_seat(st) != seat:
        return []
    if phase == Phase.DISCARD:
        return turns.legal_discard(st, seat)
    if phase == Phase.ACTIONS:
        return turns.legal_actions(st, seat)
    if phase == Phase.BATTLE:
        return battle.legal(st, seat)
    if phase == Phase.PRISONERS:
        out: list[Action] = []
        if flow.can_ransom(st, seat):
            out = [ransom(faction_word(st, h)) for h in flow.holders_of(st, seat)]
        return [*out, DONE]
    return []


def play(st: St, seat: int, a: Action) -> list[Msg]:
    """Apply a legal action to ``st`` in place and run the automatic steps that follow."""
    ev: list[Msg] = []
    phase = st["phase"]
    if phase == Phase.DISCARD:
        assert isinstance(a, Discard), a
        turns.apply_discard(st, seat, a, ev)
        flow.after_discard(st, ev)
    elif phase == Phase.ACTIONS:
        if turns.apply(st, seat, a, ev):
            st["done"] += 1
        flow.after_action(st, ev)
    elif phase == Phase.BATTLE:
        battle.apply(st, seat, a, ev)
        flow.after_battle(st, ev)
    elif phase == Phase.PRISONERS:
        if isinstance(a, Done):
            ev.append(msg("ch.ev.done", player=PlayerRef(st["players"][seat])))
            flow.ransom_done(st, ev)
        elif isinstance(a, Ransom):
            holder = next(h for h in flow.holders_of(st, seat) if faction_word(st, h) == a.faction)
            flow.ransom(st, seat, holder, ev)
    return ev


def public_record(before: St, seat: int, action: Action) -> Record:
    """What everyone learns of ``action`` (played by ``seat`` from ``before``): the state's ``last``.

    Its text (the action's own words) and its label in catalog terms, so the board says it in the
    reader's language. The card kept from a draw is hidden: the record leaves it out.
    """
    if isinstance(action, Keep):
        return {"seat": seat, "text": "keep", "label": encode_msg(msg("ch.label.keep_hidden")), "regions": []}
    return {
        "seat": seat,
        "text": str(action),
        "label": encode_msg(action_label(before, action)),
        "regions": touched_regions(before, seat, action),
    }


TRAIL_MAX = 64
"""The most moves a stretch keeps: far more than one turn's, so that a state stays small."""


def remember(st: St, record: Record, acting: int | None) -> None:
    """Record ``record`` (``public_record`` of the action just played on ``st``) as the last action
    and, when it touched regions, in the stretch of moves since the players to act last changed
    (``trail``), which the map marks; ``acting`` is who acted before it. The first action after a
    handover (``handed``) starts a new stretch."""
    st["last"] = record
    trail = [] if st["handed"] else list(st["trail"])
    if record.get("regions"):
        trail = [*trail, record][-TRAIL_MAX:]
    st["trail"] = trail
    st["handed"] = flow.acting_seat(st) != acting


BATTLE_VERBS = frozenset({"place", "play", "fold", "capture", "kill"})
"""Verbs of the battle under way: they touch its region."""


def touched_regions(before: St, seat: int, a: Action) -> list[str]:
    """The regions ``action`` touches, read from the state before it (the board frames them):
    a step's start and end, a retreat's battle region and refuge, the region of a structure, a
    skill or the battle under way, and the headquarters that a recruitment fills. Cards, draws,
    passes, the end of an action and ransoms touch no region."""
    fight = before["fight"]
    if a.verb == "go":
        return [a.origin, a.to]
    if a.verb == "skill":
        named = [a.region] if a.region in before["regions"] else []
        recruits = any(e["do"] == "recruit" for e in SKILLS[a.skill])
        return named or ([before["hq"][seat]] if recruits else [])
    if a.verb == "recruit" or (a.verb == "pay" and _recruiting(before)):
        return [before["hq"][seat]]
    if a.verb == "construct" or a.verb == "activate":
        return [a.region]
    if fight is None:
        return []
    if a.verb == "retreat":
        return [fight["region"], a.region]
    if a.verb in BATTLE_VERBS:
        return [fight["region"]]
    return []


def _recruiting(before: St) -> bool:
    """Whether a card paid in ``before`` pays for a recruitment."""
    pending = before["pending"]
    return pending is not None and pending["kind"] == "recruit"


class CryHavoc:
    """Cry Havoc for 2 to 4 players, with the project's own map and faction content."""

    name: str = "cryhavoc"
    player_counts: tuple[int, ...] = setup.PLAYER_COUNTS
    option_specs: Sequence[OptionSpec] = (
        OptionSpec("skills", choices=setup.SKILL_CHOICES, default="basic", help=msg("ch.option.skills")),
    )
    words: Sources = WORDS

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> St:
        return setup.new_game(players, seed, options)

    def to_act(self, state: St) -> list[str]:
        seat = flow.acting_seat(state)
        return [] if seat is None else [state["players"][seat]]

    def _seat(self, state: St, player: str) -> int | None:
        players: list[str] = state["players"]
        return players.index(player) if player in players else None

    def can_undo(self, before: St, steps: Sequence[Step], player: str) -> Msg | None:
        """None when ``player`` may take back ``steps`` played from ``before`` (the module's rule)."""
        return undo_refusal(self.apply, before, steps, player, rng_of=lambda s: s["rng"], revealed=revealed)

    def default_action(self, state: St, player: str) -> Action | None:
        """What a deadline's ``skip`` plays for an absent player (see ``engine.defaults``)."""
        return neutral_default(self.legal_actions(state, player), ("fold", "done", "end", "pass"))

    def legal_actions(self, state: St, player: str) -> list[Action]:
        seat = self._seat(state, player)
        return [] if seat is None else legal_for(state, seat)

    def _check_turn(self, state: St, player: str, text: str) -> int:
        if state["phase"] == Phase.OVER:
            raise GameOver("ch.error.game_over", input=text)
        seat = self._seat(state, player)
        if seat is None:
            raise NotYourTurn("ch.error.not_player", player=PlayerRef(player))
        if flow.acting_seat(state) != seat:
            raise NotYourTurn(
                "ch.error.not_your_turn", input=text, waiting=[PlayerRef(p) for p in self.to_act(state)]
            )
        return seat

    def apply(self, state: St, player: str, action: Action) -> tuple[St, list[Msg]]:
        seat = self._check_turn(state, player, str(action))
        legal = legal_for(state, seat)
        if action not in legal:
            raise IllegalAction("ch.error.illegal", input=str(action), legal=hints(legal, action.verb))
        new = clone(state)
        last = public_record(state, seat, action)
        events = play(new, seat, action)
        remember(new, last, flow.acting_seat(state))
        return new, events

    def parse_action(self, state: St, player: str, text: str, lexicon: Lexicon = PLAIN) -> Action:
        seat = self._check_turn(state, player, text)
        return match(text, legal_for(state, seat), lexicon)

    def label(self, state: St, action: Action) -> Msg:
        return action_label(state, action)

    def typed(self, action: Action) -> Msg:
        """``action``'s text in the reader's words, in backquotes; it reads back as ``action``."""
        return typed(action)

    def is_over(self, state: St) -> bool:
        return bool(state["phase"] == Phase.OVER)

    def result(self, state: St) -> Result | None:
        r = state["result"]
        if r is None:
            return None
        players = state["players"]
        winner = players[r["winners"][0]]
        scores = {p: state["vp"][i] for i, p in enumerate(players)}
        return Result(
            winners=(winner,),
            reason=msg("ch.result.vp", player=PlayerRef(winner), vp=state["vp"][r["winners"][0]]),
            scores=scores,
        )

    def sides(self, state: St) -> list[list[str]]:
        """Each seat's faction."""
        return [[str(faction)] for faction in state["factions"][: len(state["players"])]]

    def view(self, state: St, player: str | None) -> CryHavocView:
        result = self.result(state)
        return view(state, player, None if result is None else result.to_json())

    def dump(self, state: St) -> Save:
        return saved(state)

    def load(self, data: Save) -> St:
        """The state of a save of any format up to ``FORMAT``, older ones upgraded step by step."""
        try:
            # A JSON round trip, not ``clone``: a save comes from outside, and what JSON cannot hold
            # is refused here (tuples become lists) rather than kept in the state.
            return from_save(upgraded(json.loads(json.dumps(data)), "fmt", FORMAT, UPGRADES, "ch"))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadInput("ch.error.bad_save", error=str(exc)) from None


GAME = CryHavoc()
_CONFORMS: Game[St, Action, CryHavocView] = (
    GAME  # mypy checks here that CryHavoc satisfies the engine contract
)
