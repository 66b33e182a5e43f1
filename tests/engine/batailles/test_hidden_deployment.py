"""Both armies deploy at the same time, each unseen by the other until both are deployed.

While the deployment lasts, a seat's view shows its own troops where they stand and only how many
of the other army's are placed; the public view (a spectator's, the channel's board) shows neither
army's places; what everyone is told of a deployment (its event, the board's last action) names the
troop, never its place; and a computer player's sample of the position knows no more than its seat.
Once both armies are deployed, everything is shown.
"""

from __future__ import annotations

import json
import re
from typing import Any

import engine
from ai.batailles.determinize import determinize, observation
from engine.rng import Rng

GAME = engine.get_game("batailles")
A, B = "alice", "bob"
ZONE = re.compile(r"\b[a-h][1-9]\b")


def placed(view: dict[str, Any], seat: int) -> dict[str, str]:
    return {t["name"]: t["label"] for t in view["troops"] if t["seat"] == seat and t["label"]}


def test_each_side_sees_its_own_deployment_and_the_public_board_neither() -> None:
    s = GAME.new_game([A, B], seed=3, options={"armies": "raiders", "map": "open_field"})
    s, events = GAME.apply(s, A, GAME.parse_action(s, A, "deploy horse1 c2 e"))
    s, _ = GAME.apply(s, B, GAME.parse_action(s, B, "deploy horse1 f8 s"))
    assert not ZONE.search(" ".join(str(e) for e in events)), events

    public = GAME.view(s, None)
    assert placed(public, 0) == {} and placed(public, 1) == {}
    assert [t["name"] for t in public["troops"] if t["hidden"]] == ["horse1", "horse1"]
    assert [seat["deployed"] for seat in public["seats"]] == [1, 1]
    assert public["last"]["zones"] == [] and public["last"]["label"]["key"] == "bt.did.deploy_hidden"
    assert public["since"] == [] and public["private"] is None
    assert not ZONE.search(json.dumps(public["last"]))

    alice = GAME.view(s, A)
    assert placed(alice, 0) == {"horse1": "c2"} and placed(alice, 1) == {}
    assert alice["private"] == {"seat": 0, "deployment": ["horse1 c2"]}
    bob = GAME.view(s, B)
    assert placed(bob, 1) == {"horse1": "f8"} and placed(bob, 0) == {}
    assert bob["last"]["text"] == "deploy horse1 f8 s", "bob's own deployment is his to see"


def test_everything_is_shown_once_both_armies_are_deployed() -> None:
    s = GAME.new_game([A, B], seed=3, options={"armies": "raiders", "map": "open_field"})
    events: list[Any] = []
    while GAME.view(s, None)["phase"] == "deploy":
        player = GAME.to_act(s)[0]
        s, events = GAME.apply(s, player, GAME.legal_actions(s, player)[0])
    assert "bt.ev.deployed" in [e.key for e in events]
    public = GAME.view(s, None)
    assert len(placed(public, 0)) == len(placed(public, 1)) == 6
    assert not any(t["hidden"] for t in public["troops"]) and public["private"] is None


def test_a_computer_player_does_not_see_the_other_sides_deployment() -> None:
    s = GAME.new_game([A, B], seed=3, options={"armies": "raiders", "map": "open_field"})
    for text in ("deploy horse1 f8 s", "deploy horse2 g9 w"):
        s, _ = GAME.apply(s, B, GAME.parse_action(s, B, text))
    obs = observation(s, 0)
    said = json.dumps(obs)
    assert "f8" not in said and "g9" not in said, "the observation holds none of bob's places"
    assert obs["hidden"] == ["horse1", "horse2"]
    seen = set()
    for n in range(12):
        sample = determinize(obs, Rng(n))
        assert GAME.view(sample, A) == GAME.view(s, A), "the sample shows alice exactly what she sees"
        bob = {t.name: t.zone for t in sample.troops if t.seat == 1 and t.zone is not None}
        assert set(bob) == {"horse1", "horse2"} and all(z[1] in (7, 8) for z in bob.values())
        seen.add(tuple(sorted(bob.values())))
    assert len(seen) > 1, "bob's places are drawn at random, not copied"
