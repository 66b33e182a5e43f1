"""The hosting benchmark runs on both stores and reports what it measured (never how fast: figures
are for the README, not for assertions)."""

from __future__ import annotations

from pathlib import Path

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
