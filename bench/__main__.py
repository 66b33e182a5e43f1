"""Run every benchmark with modest sizes: `make bench`."""

import engine
from bench import (
    cryhavoc_factions,
    first_image,
    hosting,
    move_latency,
    playouts,
    ratings,
    render_bench,
    replay_bench,
    undoable,
)

playouts.main(["100"])
render_bench.main(["20"])
replay_bench.main([])
first_image.main(["1"])
for name in engine.GAMES:
    move_latency.main(["100", name])
cryhavoc_factions.main(["200"])
hosting.main(["20", "60"])
undoable.main(["20"])
ratings.main(["10000"])
