"""The collector walks between busy minutes: idle moments freeze what lives on, and every so often
walk it all, so a cycle among frozen objects is still reclaimed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from table.core.collector import OLDEST_EVERY, Collector
from tests.fakediscord.world import HANG_LIMIT


class Node:
    """A part of a reference cycle (only the collector can reclaim it)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def collector_state() -> Iterator[None]:
    """The process's collector as it was, whatever the test did to it."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("collector_state")
async def test_the_younger_generations_are_walked_on_a_timer_whatever_the_counts_say() -> None:
    """CPython walks it when allocations outnumber frees by 700; a busy bot frees as much as it
    makes, and its young objects pile up. With the collector's own walks off, the timer's walk
    alone reclaims a young cycle."""
    walks: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 1:
            walks.append(info["collected"])

    collector = Collector(young_every=0.01)
    collector.started()
    gc.disable()
    gc.callbacks.append(seen)
    try:
        young = cycle()

        async def reclaimed() -> None:
            while young() is not None:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(reclaimed(), HANG_LIMIT)
        assert walks and sum(walks) >= 2
    finally:
        gc.callbacks.remove(seen)
        gc.enable()
        collector.stop()
    assert collector._timer is None


@pytest.mark.usefixtures("collector_state")
async def test_idle_moments_freeze_survivors_and_reclaim_frozen_cycles_at_the_full_walk() -> None:
    now = [0.0]
    collector = Collector(clock=lambda: now[0], full_every=3600.0, young_every=HANG_LIMIT)
    collector.started()
    assert gc.get_threshold()[2] == OLDEST_EVERY
    young = cycle()  # garbage made since the last freeze: the next idle moment reclaims it
    collector.idle()
    assert young() is None
    assert gc.get_freeze_count() > 0 and gc.get_count()[2] == 0, "the survivors are frozen"

    kept = Node()
    kept.other = Node()
    kept.other.other = kept
    lost = weakref.ref(kept)
    collector.idle()  # frozen while alive
    del kept
    now[0] = 3599.0
    collector.idle()
    assert lost() is not None, "a frozen cycle is not walked before the full walk"
    now[0] = 3600.0
    collector.idle()
    assert lost() is None, "the full walk reclaims it"
    assert (collector.walks, collector.full_walks) == (4, 1)
    assert gc.get_freeze_count() > 0
    collector.stop()
