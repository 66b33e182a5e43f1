"""The level ladder's bench publishes what it measured: its table goes between the docs' markers and
nowhere else, with shares and intervals a reader can check."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench import ai_levels
from bench.ai_levels import (
    BEGIN,
    END,
    PAIRINGS,
    _pairings,
    docs_table,
    parse_scales,
    scale_of,
    wilson,
    write_docs,
)

Row = dict[str, object]
Task = tuple[str, int, int, str, str, float]


def game(k: int, winner: str | None, times: dict[str, list[float]]) -> Row:
    return {
        "game": "cryhavoc",
        "players": 3,
        "pairing": "hard-normal",
        "k": k,
        "scale": 0.1,
        "levels": [],
        "winner": winner,
        "decisions": 10,
        "times": times,
    }


ROWS = [
    game(0, "hard", {"hard": [1.0, 3.0], "normal": [0.25]}),
    game(1, "hard", {"hard": [2.0], "normal": [0.5]}),
    game(2, "normal", {"hard": [2.0], "normal": [0.25]}),
    game(3, None, {"hard": [2.0], "normal": [0.25]}),
]


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (27, 40, 0.5202, 0.7992)],
)
def test_the_interval_is_wilsons(wins: int, games: int, low: float, high: float) -> None:
    found = wilson(wins, games)
    assert found == pytest.approx((low, high), abs=1e-4)


def test_no_decided_game_says_nothing_of_the_share() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_row_gives_scale_games_draws_share_interval_and_both_levels_times() -> None:
    table = docs_table(ROWS).splitlines()
    assert len(table) == 3, "a header, its rule and one row per table and pairing"
    low, high = wilson(2, 3)
    assert table[2] == (
        f"| Cry Havoc | 3 | hard - normal | 0.1 | 4 | 1 | 67 % | {100 * low:.0f}-{100 * high:.0f} "
        "| 2.00 / 3.00 s | 0.25 / 0.50 s |"
    )


def test_the_rows_follow_the_tables_order() -> None:
    warchest = {**game(0, "hard", {}), "game": "warchest", "players": 2}
    table = docs_table([*ROWS, warchest]).splitlines()
    assert table[2].startswith("| War Chest | 2 |") and table[3].startswith("| Cry Havoc | 3 |")
    assert table[2].endswith("| - | - |"), "a level without searched decisions has no time"


def test_the_table_goes_between_the_markers_and_the_rest_stays(tmp_path: Path) -> None:
    before = "# Computer players\n\nHow strong they are:\n\n"
    after = "\n\nA War Chest draw is the stall rule.\n"
    docs = tmp_path / "computer-players.md"
    docs.write_text(f"{before}{BEGIN}\n| an old | pasted table |\n{END}{after}", encoding="utf-8")

    write_docs(docs, docs_table(ROWS))
    write_docs(docs, docs_table(ROWS))

    text = docs.read_text(encoding="utf-8")
    assert text == f"{before}{BEGIN}\n{docs_table(ROWS)}\n{END}{after}"
    assert "pasted" not in text


def test_a_file_without_markers_is_left_alone(tmp_path: Path) -> None:
    docs = tmp_path / "readme.md"
    docs.write_text("no table here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="ai_levels:begin"):
        write_docs(docs, docs_table(ROWS))
    assert docs.read_text(encoding="utf-8") == "no table here\n"


def test_the_default_pairings_are_the_ladder() -> None:
    assert PAIRINGS == (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))


def test_one_game_may_run_at_its_own_scale() -> None:
    scales = parse_scales("0.25,cryhavoc=0.1")
    assert (scale_of(scales, "warchest"), scale_of(scales, "cryhavoc")) == (0.25, 0.1)
    assert scale_of(parse_scales("1"), "batailles") == 1.0


def test_a_pairing_may_run_at_its_own_scale_the_most_precise_key_winning() -> None:
    scales = parse_scales("0.25,cryhavoc=0.1,normal-easy=1,cryhavoc/hard-easy=0.2")
    assert [
        scale_of(scales, "warchest", "hard-normal"),
        scale_of(scales, "warchest", "normal-easy"),
        scale_of(scales, "cryhavoc", "hard-normal"),
        scale_of(scales, "cryhavoc", "normal-easy"),
        scale_of(scales, "cryhavoc", "hard-easy"),
    ] == [0.25, 1.0, 0.1, 1.0, 0.2]
    assert parse_scales("hard-easy=12", default=100) == {"": 100, "hard-easy": 12}


def test_the_baselines_stay_one_word_away() -> None:
    assert _pairings("baselines,hard-normal") == [
        ("normal", "random"),
        ("normal", "greedy"),
        ("hard", "normal"),
    ]


class InProcess:
    """A pool that plays its games here, one after the other."""

    def __init__(self, max_workers: int, initializer: object) -> None:
        pass

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, task: Callable[[Task], Row], todo: list[Task]) -> Iterator[Row]:
        return (task(job) for job in todo)


def won_by_first(name: str, count: int, k: int, a: str, b: str, scale: float) -> Row:
    """A game of pairing ``a``-``b`` that ``a`` won."""
    return {**game(k, a, {a: [1.0]}), "game": name, "players": count, "pairing": f"{a}-{b}", "scale": scale}


def in_process(
    monkeypatch: pytest.MonkeyPatch, play: Callable[[str, int, int, str, str, float], Row]
) -> None:
    """Runs play their games with ``play``, here and one after the other."""
    monkeypatch.setattr(ai_levels, "ProcessPoolExecutor", InProcess)
    monkeypatch.setattr(ai_levels, "play", play)


def test_each_pairing_plays_its_own_count_at_its_own_scale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[tuple[str, float]] = []

    def fake(name: str, count: int, k: int, a: str, b: str, scale: float) -> Row:
        played.append((f"{a}-{b}", scale))
        return won_by_first(name, count, k, a, b, scale)

    in_process(monkeypatch, fake)
    ai_levels.run(
        [("warchest", 2)],
        [("hard", "normal"), ("normal", "easy")],
        parse_scales("4,normal-easy=2", default=100),
        parse_scales("0.25,normal-easy=1"),
        1,
        tmp_path / "g.jsonl",
    )

    assert sorted(played) == [("hard-normal", 0.25)] * 4 + [("normal-easy", 1.0)] * 2


def test_a_run_publishes_after_every_game_what_it_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped at any time, the docs hold the games of the file so far, each row at its own scale."""
    seen: list[str] = []
    docs = tmp_path / "computer-players.md"
    docs.write_text(f"intro\n{BEGIN}\n{END}\noutro\n", encoding="utf-8")

    def fake(name: str, count: int, k: int, a: str, b: str, scale: float) -> Row:
        seen.append(docs.read_text(encoding="utf-8"))
        return won_by_first(name, count, k, a, b, scale)

    in_process(monkeypatch, fake)
    ai_levels.run(
        [("warchest", 2)], [("hard", "normal")], 2, parse_scales("0.5"), 1, tmp_path / "g.jsonl", docs
    )

    assert (
        len(seen) == 2
        and "War Chest" not in seen[0]
        and "| War Chest | 2 | hard - normal | 0.5 | 1 |" in seen[1]
    )
    assert "| War Chest | 2 | hard - normal | 0.5 | 2 | 0 | 100 % |" in docs.read_text(encoding="utf-8")
    assert docs.read_text(encoding="utf-8").startswith("intro\n") and docs.read_text(
        encoding="utf-8"
    ).endswith(f"{END}\noutro\n")
