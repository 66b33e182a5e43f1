"""Benchmarks, run by hand (`make bench`); they print figures and assert nothing."""


def take_option(args: list[str], name: str) -> str | None:
    """The value that follows ``name`` in ``args`` (both taken out of ``args``), or None without it."""
    if name not in args:
        return None
    at = args.index(name)
    value = args[at + 1]
    del args[at : at + 2]
    return value
