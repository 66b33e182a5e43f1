"""A result's JSON form keeps its players readable: the views carry it to the images and alt text."""

from __future__ import annotations

from engine.contract import Result
from engine.text import PlayerRef, msg
from render.catalog import message


def test_a_winning_teams_players_become_names_in_every_language() -> None:
    team = [PlayerRef("111"), PlayerRef("333")]
    result = Result(winners=("111", "333"), reason=msg("wc.result.markers_team", team=team), draw=False)
    reason = result.to_json()["reason"]
    assert reason["params"] == {"team": ["@111", "@333"]}
    names = {"111": "Alice", "333": "Carol"}
    assert message(reason, "en", names).startswith("Alice and Carol placed")
    assert message(reason, "fr", names).startswith("Alice et Carol ont placé")
