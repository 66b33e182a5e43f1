"""Run every benchmark with modest sizes: `make bench`."""

from bench import playouts, render_bench

playouts.main(["100"])
render_bench.main(["20"])
