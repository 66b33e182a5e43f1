"""What a player calls: the front-end-neutral command handlers, one object the front ends call
(``commands``, described once in ``command_tree``) composed of a group per concern: the lobby
(``seating``), looking at a game (``looking``), ``/play`` and the moves (``playing``), endings and
votes (``finishing``), button presses, menu picks and undo (``clicks``), the service around the games
and the posting every group shares (``service``), own time, explanations, refusals and standings.
The top of the table layer: imports ``posting``, ``bots``, ``rules`` and ``core``, and nothing
imports it but ``table/__init__.py`` and the front ends.
"""
