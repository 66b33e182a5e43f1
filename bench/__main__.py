"""Run every benchmark with modest sizes: `make bench`; `python -m bench figures ...` gives the
figures the bot is held to, as ratios (``bench.figures``)."""

import sys

import engine
from bench import (
    aimless,
    cryhavoc_factions,
    first_image,
    hosting,
    leagues,
    listings,
    move_latency,
    playouts,
    ratings,
    render_bench,
    replay_bench,
    undoable,
)

if sys.argv[1:2] == ["figures"]:
    from bench import figures

    figures.main(sys.argv[2:])
    sys.exit(0)

playouts.main(["100"])
render_bench.main(["20"])
replay_bench.main([])
first_image.main(["1"])
for name in engine.GAMES:
    move_latency.main(["100", name])
cryhavoc_factions.main(["200"])
hosting.main(["20", "60"])
undoable.main(["20"])
listings.main(["20", "--moves", "300"])
ratings.main(["10000"])
leagues.main([])
aimless.main(["--games", "2", "--scale", "0.1"])
