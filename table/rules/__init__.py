"""The rules reference of ``/game rules``: topics built from the engines' data (``rule_topics``), found,
rendered and autocompleted (``rulebook``), for the game named or the channel's (``reference``).
Imports ``table.core`` only.
"""
