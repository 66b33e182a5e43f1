"""The hosting benchmark runs on both stores and reports what it measured (never how fast: figures
are for the README, not for assertions)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from bench.hosting import HEADER, burst


async def test_the_hosting_burst_plays_its_moves_on_both_stores(tmp_path: Path, postgres_url: str) -> None:
    played = await burst("sqlite", tmp_path / "bench.sqlite3", 2, 3, store_only=False)
    written = await burst("postgresql", postgres_url, 2, 3, store_only=True)
    assert (played.games, played.moves) == (2, 6) and (written.games, written.moves) == (2, 6)
    assert written.size > 0, "the PostgreSQL tables grew by the games written"
    assert played.p50 <= played.p99 and written.p50 <= written.p99
    assert len(written.line().split()) == len(HEADER.split()) - 2  # "p50 ms" and "p99 ms" are two words


async def test_the_move_bench_times_each_move_to_its_board_being_handed_over() -> None:
    """A few moves through the real pool: every move shows a board, handed over before the
    announcer's bookkeeping is done."""
    from bench.move_latency import run

    result = await run(4, "cryhavoc")
    assert result["moves"] == 4
    assert 0 < result["p50"] <= result["settled"]
    assert result["bytes"] > 1000 and result["floor"] > 0


def test_the_decision_bench_stops_at_real_choices_and_reports_each_level(capsys: Any) -> None:
    """Its positions are seeded, spread over a game and each a choice between several actions;
    every table and level gets a row."""
    import engine
    from bench.decision_times import main, position

    found = position("cryhavoc", 3, 5)
    assert found is not None and found == position("cryhavoc", 3, 5), "the same seed, the same position"
    state, seat = found
    game = engine.get_game("cryhavoc")
    loaded = game.load(state)
    player = game.to_act(loaded)[0]
    assert seat == [s["id"] for s in game.view(loaded, None)["seats"]].index(player)
    assert len(game.legal_actions(loaded, player)) > 1
    assert position("cryhavoc", 3, 1) != found, "another seed, another position"
    main(["1", "--levels", "easy", "--tables", "cryhavoc:2,batailles:2"])
    rows = [
        line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| cryhavoc") or line.startswith("| batailles")
    ]
    assert [row.split(" | ")[:4] for row in rows] == [
        ["| cryhavoc", "2", "easy", "1"],
        ["| batailles", "2", "easy", "1"],
    ]


@pytest.mark.parametrize("bench", ["ai_levels", "bot_turns", "month", "aimless"])
@pytest.mark.parametrize("argv", [["--help"], ["--decided"], ["--rounds", "3"]])
def test_the_long_benches_show_their_usage_instead_of_running_on_an_unknown_option(
    bench: str, argv: list[str], capsys: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """A run plays for minutes or hours: a mistyped option must not start one with the defaults."""
    main = importlib.import_module(f"bench.{bench}").main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    assert "Usage:" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == [], "no game was played"


async def test_the_bot_turn_bench_times_a_players_wait_for_the_bots() -> None:
    """Through the table layer, with the real pools: the first wait starts at ``/game start`` and a
    Batailles bot's deployment is filed apart from its turns."""
    from bench.bot_turns import run

    waits = await run("batailles", 2, "easy", 2, coalesce=0)
    assert sorted(waits) == ["deployment", "turn"]
    assert len(waits["deployment"]) == 1 and len(waits["turn"]) == 1
    assert all(t > 0 for times in waits.values() for t in times)


def test_the_undo_bench_compares_both_rules_at_every_table(capsys: Any) -> None:
    """A row per game, table size and setting; the new rule allows at least what the old one did
    with people only (it takes back less and blocks on less), and something against bots, where the
    old one allowed nothing."""
    from bench.undoable import main

    main(["1", "warchest"])
    rows = [
        line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| warchest")
    ]
    assert [(r[1], r[2]) for r in rows] == [("2", "people"), ("2", "bots"), ("4", "people"), ("4", "bots")]
    for row in rows:
        old, new = (float(cell.rstrip(" %|")) for cell in row[4:6])
        assert int(row[3]) > 0
        assert new >= old if row[2] == "people" else old == 0
    assert float(rows[0][5].rstrip(" %|")) > float(rows[0][4].rstrip(" %")), (
        "own coins face up no longer block"
    )


async def test_the_ratings_bench_recomputes_every_game_it_wrote() -> None:
    from bench.ratings import run

    figures = await run(60, 8)
    assert figures["games"] == 60 and 8 <= figures["players"] <= 32
    assert figures["filled"] == 60, "every result recorded without sides gets them"


def test_the_figures_command_gives_each_figure_as_a_ratio_with_the_load(capsys: Any) -> None:
    """Tiny sizes through every part: a row per figure, each with its ratio to what it is held to
    (where it has one) and the machine's load beside it."""
    from bench.figures import main

    main(["--only", "move,burst,startup", "--moves", "2", "--channels", "3", "--games", "20", "--runs", "1"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line.strip("|").split(" | ") for line in lines if line.startswith("| ") and "figure" not in line]
    by_name = {row[0].strip(): row for row in rows}
    moves = {name for name in by_name if name.startswith("move")}
    assert {"move warchest 2p p50", "move batailles 2p p50", "move cryhavoc 2p p50"} <= moves
    assert {
        "burst moves/s",
        "burst loop lateness p99",
        "burst slowest autocomplete",
        "start-up ready, 20 games",
        "start-up store open",
    } <= set(by_name)
    held = [name for name in by_name if name.startswith("move") or "lateness" in name or "ready" in name]
    for name in held:
        assert float(by_name[name][3]) > 0, f"{name} has its ratio"
    for row in rows:
        assert len(row[-1].split()) == 3 and all(float(x) >= 0 for x in row[-1].split()), "the load"


async def test_a_few_days_of_the_month_keep_everyones_quiet_hours_and_time_off() -> None:
    """The month's bench, shortened: tables are played, players pinged and reminded, and nothing
    reaches anyone in their quiet hours."""
    from bench.month import simulate

    figures = await simulate(days=2, tables=5, seed=3)
    assert figures.moves > 0 and figures.pings > 0 and figures.games == 5
    assert (figures.quiet_pings, figures.quiet_actions, figures.away_forfeits) == (0, 0, 0)
    assert "(goal 0)" in figures.lines()[-1]


async def test_the_listings_bench_counts_the_requests_of_cards_and_lists_and_the_forced_moves() -> None:
    """The same moves with cards and lists on and off: the handovers cost the same, the cards and
    lists come on top; every move of the run is a decision made by hand, the forced ones besides."""
    from bench.listings import run

    on = await run(3, 30, 5.0, 1, cards=True)
    off = await run(3, 30, 5.0, 1, cards=False)
    assert on.moves == off.moves == 30 and on.handovers == off.handovers > 0
    assert (off.cards, off.lists) == (0, 0) and on.cards > 0 and on.lists > 0
    assert sum(on.decisions.values()) == 30 and on.forced == off.forced
    assert sum(on.tables.values()) == 3


def test_the_league_bench_pairs_a_swiss_round_and_counts_its_standings(capsys: Any) -> None:
    from bench.leagues import main

    main(["20", "3", "1"])
    out = capsys.readouterr().out
    assert "Swiss of 20 players, round 4" in out and "rematches: 0; players with two byes: 0" in out


async def test_the_burst_deals_each_bot_games_of_its_own_tree_with_the_moves_to_send(tmp_path: Path) -> None:
    """``bench.burst`` and ``bench.restart`` make each bot's games with that bot's own revision (an
    older engine refuses a newer save format): the games are dealt by a separate process on the
    tree's path, started, with a legal move for the player to act, the first ``unannounced`` of them
    already played into the store."""
    import engine
    from bench.burst import ROOT, make_games
    from db import open_store
    from tests.fakediscord.server import FakeDiscord

    async with FakeDiscord() as fake:
        made = await make_games(fake, tmp_path, 3, ("warchest", "cryhavoc"), (ROOT,), unannounced=1)
    database, tables = made[ROOT]
    store = await open_store(database)
    try:
        for n, table in enumerate(tables):
            record = await store.open_game(table.channel.id)
            assert record is not None and record.state is not None
            game = engine.get_game(record.game)
            state = game.load(record.state)
            assert table.to_act.id in table.players
            version, _, action = table.value.partition(":")  # the autocomplete's value: "v<version>:<move>"
            assert record.game == ("warchest", "cryhavoc")[n % 2]
            if n == 0:  # its move is stored, not yet announced
                assert version == f"v{record.version - 1}"
            else:
                assert version == f"v{record.version}" and table.to_act.id in game.to_act(state)
                assert str(game.parse_action(state, table.to_act.id, action)) == action
    finally:
        await store.close()


def test_decision_times_turns_files_a_batailles_deployment_apart() -> None:
    """``--turns`` times seat 0's runs of decisions: the run that places its troops is a deployment,
    the runs of play are turns, and every searched decision is counted within them."""
    from bench.decision_times import waits

    found = waits("batailles", 2, "easy", 1, 0)
    assert len(found["deployment"]) == 1 and len(found["turn"]) == 1
    assert found["decision"], "an easy turn searches its decisions"
    assert sum(found["decision"]) <= found["turn"][0] + found["deployment"][0] + 1e-9
