"""Four-player War Chest (two teams) through slash commands on a fake Discord.

The lobby seats teams the way the engine expects them (teammates never side by side), players
who give no team fill the seats left so the teams come out even, and a whole game is played by
four users choosing among the bot's own autocomplete answers until one team wins. The table's
``seed=`` option and a seeded chooser biased towards control, attack and deploy fix the game:
about 95 moves, 20-30 s. The first tests check the seating rules themselves on stub games.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

import engine
from db import Seat
from engine.contract import Game
from table.core.errors import TableError
from table.play.lobby import seat_order, team_slots
from tests.discord.support import (
    WARCHEST_FAVOURITES,
    Played,
    Room,
    channel_figures,
    check_handover,
    choose_favourite,
    fake_discord,
    open_room,
    pinged,
    play,
    refused,
    refused_plays,
    start,
)

WAR_CHEST = engine.get_game("warchest")

SEED = 2  # with CHOOSER_SEED: the second team wins after 94 moves
CHOOSER_SEED = 20261130
MOVE_CAP = 400
TEAMMATE_CHECK_AT = 5


# ---- the seating rules, on stub games ---------------------------------------------------------


@dataclass
class StubGame:
    """Just enough of a game for ``team_slots``: a view whose seats show (or omit) teams."""

    teams: Sequence[int | None]

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> Any:
        return list(players)

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        return {"seats": [{"id": p, "team": self.teams[i]} for i, p in enumerate(state)]}


def stub(*teams: int | None) -> Game:
    return cast(Game, StubGame(teams))


def test_the_engine_decides_the_team_of_each_seat() -> None:
    assert team_slots(stub(0, 1, 0, 1), 4, {}) == [0, 1, 0, 1]
    assert team_slots(stub(0, 0, 1, 1), 4, {}) == [0, 0, 1, 1]
    # no teams: two players are two sides (a team picks the seat), more cannot choose at all
    assert team_slots(stub(None, None), 2, {}) == [0, 1]
    assert team_slots(stub(None, None, None), 3, {}) is None


def test_players_without_a_team_balance_the_teams() -> None:
    seats = [Seat("ann", "Ann"), Seat("ben", "Ben", 1), Seat("cat", "Cat", 1), Seat("dan", "Dan")]
    ordered = seat_order(seats, [0, 1, 0, 1])
    assert [s.player for s in ordered] == ["ann", "ben", "dan", "cat"]
    assert [s.team for s in ordered] == [0, 1, 0, 1]
    nobody_chose = seat_order([Seat(p, p) for p in "wxyz"], [0, 1, 0, 1])
    assert [(s.player, s.team) for s in nobody_chose] == [("w", 0), ("x", 1), ("y", 0), ("z", 1)]
    one_side_each = seat_order([Seat("ann", "Ann"), Seat("ben", "Ben", 0)], [0, 1])
    assert [(s.player, s.team) for s in one_side_each] == [("ben", None), ("ann", None)]
    with pytest.raises(TableError) as err:
        seat_order([Seat(p, p, 0) for p in "xyz"] + [Seat("w", "w")], [0, 1, 0, 1])
    assert err.value.msg.key == "table.error.team_full"


# ---- through the fake Discord ---------------------------------------------------------------------


@pytest.fixture
async def table4(tmp_path: Path) -> AsyncIterator[Room]:
    async with fake_discord(tmp_path) as bot:
        room = open_room(
            bot,
            ("Table ronde", "en-GB"),
            "war-room",
            ("alice", "fr"),
            ("bob", "en-GB"),
            ("carol", "en-US"),
            ("dave", "fr"),
        )
        await bot.start()
        yield room


async def seat_four(t: Room) -> Played:
    """Alice opens; Bob and Carol choose team 2; Dave asks for it too, is refused, joins without."""
    fake, chan = t.fake, t.chan
    alice, bob, carol, dave = t.by_name.values()
    r = await fake.slash(
        alice, chan, "game new", game="warchest", players=4, options=f"armies=first seed={SEED}"
    )
    assert not r.ephemeral and "(1/4" in r.content
    with pytest.raises(ValueError, match="above"):  # Discord itself offers teams 1 and 2 only
        await fake.slash(bob, chan, "game join", team=3)
    r = await fake.slash(bob, chan, "game join", team=2)
    assert not r.ephemeral and "team 2" in r.content
    r = await fake.slash(carol, chan, "game join", team=2)
    assert not r.ephemeral and "(3/4)" in r.content
    early = refused(await fake.slash(carol, chan, "game start"))
    assert "4" in early and "3" in early
    full = refused(await fake.slash(dave, chan, "game join", team=2))
    assert "équipe 2" in full and "complète" in full  # Dave's client is French
    r = await fake.slash(dave, chan, "game join")
    assert not r.ephemeral and "(4/4)" in r.content
    assert set(pinged(r)) == set(t.users), "a full table calls everyone to start"
    lobby = (await fake.slash(bob, chan, "game status")).content
    assert "bob (team 2)" in lobby and "carol (team 2)" in lobby
    return await start(t, dave)


async def test_the_lobby_seats_two_even_teams_alternately(table4: Room) -> None:
    alice, bob, carol, dave = table4.by_name.values()
    start = await seat_four(table4)
    record = await table4.record()
    assert record.status == "active"
    assert [s.player for s in record.seats] == [alice.id, bob.id, dave.id, carol.id]
    assert [s.team for s in record.seats] == [0, 1, 0, 1]
    for name, team in (("alice", 1), ("bob", 2), ("carol", 2), ("dave", 1)):
        assert f"{name} (team {team})" in start.content, start.content
    status = await table4.fake.slash(alice, table4.chan, "game status")
    assert status.ephemeral
    for name, team in (("alice", 1), ("bob", 2), ("carol", 2), ("dave", 1)):
        assert f"{name} (équipe {team})" in status.content, status.content
    late = refused(await table4.fake.slash(bob, table4.chan, "game join", team=1))
    assert "already started" in late


async def test_a_whole_four_player_game_to_a_team_victory(table4: Room) -> None:
    fake, chan = table4.fake, table4.chan
    r = await seat_four(table4)
    record = await table4.record()
    team_of = {s.player: s.team for s in record.seats}
    to_act = pinged(r)
    assert len(to_act) == 1 and to_act[0] in table4.users

    hand = await fake.slash(table4.users[to_act[0]], chan, "hand")
    assert hand.ephemeral and any(name.endswith(".png") for name, _ in hand.files)

    rng = random.Random(CHOOSER_SEED)
    moves = 0
    teammate_checked = False
    seen_actors: set[str] = set()
    while moves < MOVE_CAP:
        actor = table4.users[to_act[0]]
        seen_actors.add(actor.id)
        action = await choose_favourite(table4, actor, WARCHEST_FAVOURITES, rng)
        if not teammate_checked and moves >= TEAMMATE_CHECK_AT:
            teammate_checked = True
            mate = next(
                u for u in table4.users.values() if u is not actor and team_of[u.id] == team_of[actor.id]
            )
            await refused_plays(table4, (mate, action))
            assert await fake.autocomplete(mate, chan, "play", focused="action", action="") == []

        r = await play(table4, actor, action)
        moves += 1
        to_act = await check_handover(table4, r, to_act, WAR_CHEST)
        record = await table4.record()
        if record.status == "over":
            break
        assert len(to_act) == 1 and to_act[0] in table4.users, f"after {action!r}: {r.content!r}"
        assert f"<@{to_act[0]}>" in r.content, "the next player is named in the post"

    assert teammate_checked and seen_actors == set(table4.users)
    assert record.status == "over", f"no end after {moves} moves"
    assert record.result is not None and not record.result["draw"]
    winners = set(record.result["winners"])
    assert len(winners) == 2 and len({team_of[w] for w in winners}) == 1, "both members of one team win"
    assert set(pinged(r)) == set(table4.users), "the end is told to every player"
    assert re.search(r"Winners: <@\d+> and <@\d+>\.", r.content), r.content
    assert all(f"<@{w}>" in r.content for w in winners)
    late = refused(await fake.slash(table4.users[next(iter(winners))], chan, "play", action="pass royal"))
    assert late
    print(f"four-player game: {moves} moves; channel: {channel_figures(fake, chan)}; last post: {r.contents}")
