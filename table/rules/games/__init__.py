"""Each game's rulebook, one module per game, named by ``engine.registry`` (``Entry.rules``).

A module here exports ``book()``, building the game's ``Rulebook`` from its engine's data with the
shared pieces of ``table.rules.rule_topics``; ``rule_topics.rulebook`` imports it the first time the
game's rules are asked for.
"""
