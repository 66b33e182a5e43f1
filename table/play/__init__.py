"""What a player calls: the front-end-neutral command handlers (``commands``, described once in
``command_tree``), the lobby, button presses and menu picks (``clicks``), endings and votes, server
settings and notices (``service``) and standings. The top of the table layer: imports ``posting``,
``bots``, ``rules`` and ``core``, and nothing imports it but ``table/__init__.py`` and the front ends.
"""
