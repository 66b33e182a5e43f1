"""``/notify text:on``: a player who reads with a screen reader gets the position as text with every
board they are given (their move's confirmation, ``/hand``, ``/game board``, the direct message at
their turn), in their language, with their own hidden coins and nobody else's; the others get
nothing more. Real War Chest rules (hidden hands and bags), drawings stood in for."""

from __future__ import annotations

import random
from dataclasses import replace

import engine
import i18n
from table import Commands
from tests.table import test_play_by_post
from tests.table.conftest import current
from tests.table.test_play_by_post import Service, ctx

HEAD = "render.tb.units"
"""The line the War Chest text board's walk through the units starts with."""


def has_text_board(text: str, locale: str = "en") -> bool:
    return i18n.t(HEAD, locale) in text.splitlines()


service = test_play_by_post.service
"""The play-by-post tests' fixture: commands over a real store, their DMs recorded."""


async def open_warchest(commands: Commands) -> None:
    await commands.new(ctx("alice"), "warchest", options="armies=first")
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    await commands.announcer.drain()


async def test_the_text_board_comes_with_every_board_of_a_player_who_asked(service: Service) -> None:
    cmds = service.commands
    (answer,) = await cmds.notify(ctx("alice"), text=True)
    assert "/notify text:off" in answer.text and "/notify dm:on" in answer.text, "both choices shown"
    await cmds.notify(ctx("alice"), dm=True)
    await open_warchest(cmds)
    game = engine.get_game("warchest")
    pick = random.Random(3)
    for _ in range(6):
        table = await current(cmds)
        (player,) = table.to_act()
        action = str(pick.choice(game.legal_actions(table.state, player)))
        posts = await cmds.play(ctx(player), action)
        await cmds.announcer.drain()
        assert all(post.ephemeral for post in posts)
        if player == "alice":
            confirmation, board = posts
            assert not has_text_board(confirmation.text) and has_text_board(board.text)
            after = await current(cmds)
            own = after.game.view(after.state, "alice")["private"]["hand"]
            assert "Alice: your coins" in board.text or not own, board.text
            assert "Bob: your coins" not in board.text
        else:
            assert len(posts) == 1, "bob did not ask"

    hand, text = await cmds.hand(ctx("alice"))
    assert hand.image is not None and has_text_board(text.text) and text.ephemeral
    assert len(await cmds.hand(ctx("bob"))) == 1

    shown = await cmds.board(ctx("alice"))
    assert not shown[0].ephemeral and shown[0].image is not None
    assert shown[-1].ephemeral and has_text_board(shown[-1].text)
    assert len(await cmds.board(ctx("alice"), text=False)) == 1, "text:false is the image alone"
    assert len(await cmds.board(ctx("bob"))) == 1

    assert service.outlet.dms, "alice's turns came by direct message"
    for user, dm in service.outlet.dms:
        assert user == "alice" and has_text_board(dm.text) and "It is your turn" in dm.text

    await cmds.notify(ctx("alice"), text=False)
    table = await current(cmds)
    (player,) = table.to_act()
    posts = await cmds.play(ctx(player), str(game.legal_actions(table.state, player)[0]))
    assert len(posts) == 1, "off is off"


async def test_the_text_board_speaks_the_players_language(service: Service) -> None:
    cmds = service.commands
    french = replace(ctx("alice"), locale="fr")
    (answer,) = await cmds.notify(french, text=True)
    assert "/notifier texte:non" in answer.text
    await open_warchest(cmds)
    _hand, text = await cmds.hand(french)
    assert has_text_board(text.text, "fr") and "Alice : vos pièces" in text.text, text.text
