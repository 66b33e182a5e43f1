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
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from bot import Settings, build_bot
from db import GameRecord, Seat, open_store
from engine.contract import Game
from table.errors import TableError
from table.lobby import seat_order, team_slots
from tests.discord.test_end_to_end import FAVOURITES, board_png, pinged
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult
from tests.fakediscord.server import FakeDiscord

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


@dataclass
class Table4:
    fake: FakeDiscord
    chan: FakeChannel
    users: dict[str, FakeUser]
    database: Path

    @property
    def by_name(self) -> dict[str, FakeUser]:
        return {u.name: u for u in self.users.values()}

    async def record(self) -> GameRecord:
        store = await open_store(self.database)
        try:
            record = await store.latest_game(self.chan.id)
        finally:
            await store.close()
        assert record is not None
        return record


@pytest.fixture
async def table4(tmp_path: Path) -> AsyncIterator[Table4]:
    database = tmp_path / "bot.sqlite3"
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Table ronde", locale="en-GB")
        chan = fake.add_channel(guild, "war-room")
        users = [
            fake.add_user("alice", locale="fr"),
            fake.add_user("bob", locale="en-GB"),
            fake.add_user("carol", locale="en-US"),
            fake.add_user("dave", locale="fr"),
        ]
        await fake.start_bot(build_bot(Settings(database_path=database)))
        yield Table4(fake, chan, {u.id: u for u in users}, database)
        assert fake.unknown_requests == []
        assert fake.rejections == []


def refused(result: InteractionResult) -> str:
    """The text of an ephemeral refusal (no image), failing if the request was accepted."""
    assert result.ephemeral and result.content, f"not refused: {result.contents}"
    assert not result.files
    return result.content


async def seat_four(t: Table4) -> InteractionResult:
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
    r = await fake.slash(dave, chan, "game start")
    assert not r.ephemeral
    board_png(r)
    return r


async def test_the_lobby_seats_two_even_teams_alternately(table4: Table4) -> None:
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


async def choose(t: Table4, user: FakeUser, rng: random.Random) -> str:
    """A legal move for ``user`` among the bot's autocomplete answers, favouring decisive ones."""
    for typed in FAVOURITES:
        choices = await t.fake.autocomplete(user, t.chan, "play", focused="action", action=typed)
        assert len(choices) <= 25
        if choices:
            return str(rng.choice(choices)[1])
    raise AssertionError(f"{user.name} is asked to act but is offered no move")


async def test_a_whole_four_player_game_to_a_team_victory(table4: Table4) -> None:
    started = time.monotonic()
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
        action = await choose(table4, actor, rng)
        if not teammate_checked and moves >= TEAMMATE_CHECK_AT:
            teammate_checked = True
            mate = next(
                u for u in table4.users.values() if u is not actor and team_of[u.id] == team_of[actor.id]
            )
            version = (await table4.record()).version
            refused(await fake.slash(mate, chan, "play", action=action))
            assert await fake.autocomplete(mate, chan, "play", focused="action", action="") == []
            assert (await table4.record()).version == version, "a teammate's refused move changed the game"

        r = await fake.slash(actor, chan, "play", action=action)
        assert not r.ephemeral, f"{actor.name} played {action!r} and got {r.contents}"
        board_png(r)
        moves += 1
        record = await table4.record()
        if record.status == "over":
            break
        to_act = pinged(r)
        assert len(to_act) == 1 and to_act[0] in table4.users, f"after {action!r}: {r.content!r}"
        assert f"<@{to_act[0]}>" in r.content, "the next player is named in the post"

    assert teammate_checked and seen_actors == set(table4.users)
    assert record.status == "over", f"no end after {moves} moves"
    assert record.result is not None and not record.result["draw"]
    winners = set(record.result["winners"])
    assert len(winners) == 2 and len({team_of[w] for w in winners}) == 1, "both members of one team win"
    assert set(pinged(r)) == winners
    assert re.search(r"Winner: <@\d+>.*<@\d+>", r.content), r.content
    assert all(f"<@{w}>" in r.content for w in winners)
    late = refused(await fake.slash(table4.users[next(iter(winners))], chan, "play", action="pass royal"))
    assert late
    elapsed = time.monotonic() - started
    print(f"four-player game: {moves} moves in {elapsed:.1f} s; last post: {r.contents}")
    assert elapsed < 90, f"{moves} moves took {elapsed:.0f} s"
