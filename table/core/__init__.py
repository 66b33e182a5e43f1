"""The table's core: a channel's game over the store, and what every other part of the table shares.

``tables`` (load, apply, persist under the channel's lock), ``replay`` and ``events`` (the log and its
encoded messages), ``drawing`` (the pool of drawing processes), ``posts`` (``Ctx``, ``Post``), ``errors``,
``text`` and ``wording`` (names and mentions, the game's words), ``options`` and ``settings`` (a table's
options and pace), ``clock``, ``tasks`` and ``ratings``. It imports nothing else of ``table``.
"""
