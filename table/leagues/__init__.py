"""Leagues and tournaments over tables: sign-up, rounds of games, standings, the final table.

A league makes tables (each game in a thread of its channel, or a post of its forum), reads their
results and pairs the next round; the tables themselves know nothing of it beyond the league's id
and a label among their settings. ``pairing`` decides who plays whom (two-player Swiss and round
robin through pairing-core, tables of three and four and the groups-then-knockout bracket here),
``standings`` counts points and tiebreaks, ``service`` runs a league from its sign-up card to its
final standings, and ``places`` is what a front end offers it (threads, forum posts, events).
"""
