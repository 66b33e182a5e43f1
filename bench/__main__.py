"""Run every benchmark with modest sizes: `make bench`."""

from bench import move_latency, playouts, render_bench

playouts.main(["100"])
render_bench.main(["20"])
move_latency.main(["100", "warchest"])
