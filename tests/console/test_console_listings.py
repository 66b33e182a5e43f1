"""The console prints a player's card and the list of open games when they are first sent, and again
each time they change, in the console's language: it takes messages at any pace."""

from __future__ import annotations

from pathlib import Path

from tests.console._support import blocks, run_clean

SCRIPT = """\
alice: /game new game:warchest options:seed=5
bob: /game join
bob: /games card:true
alice: /settings games_channel:console
alice: /game start
alice: /play action:deploy lancer e1
bob: /games card:false
alice: /play action:pass
"""


def test_the_card_and_the_list_are_printed_again_when_they_change(tmp_path: Path) -> None:
    run = run_clean(tmp_path, SCRIPT, locale="fr")
    _new, _join, card, listed, start, move, stop, other = blocks(run.out)
    assert "[message privé à bob]" in card and "**Vos parties, sur tous les serveurs**" in card
    assert "une table encore ouverte (2/2 assis)" in card, "the lobby bob sits at"
    assert "**Parties ouvertes sur ce serveur** (1)" in listed
    assert "[message privé à bob, dm-1, mis à jour sur place]" in start, "the game began: the card again"
    assert "on attend alice" in start.split("dm-1")[1]
    assert "[message privé à bob, dm-1, mis à jour sur place]" in move
    assert "**à vous de jouer** à Champ d'honneur" in move.split("dm-1")[1], "now it is bob's turn"
    assert "mis à jour sur place]" in move.split("dm-1")[1], "and the list of open games too"
    assert "n'est plus tenue à jour" in stop
    assert "dm-1" not in other, "a card stopped is no longer printed"
