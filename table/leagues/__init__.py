"""Leagues and tournaments over tables: sign-up, rounds of games, standings, the final table.

A league makes tables (each game in a thread of its channel, or a post of its forum), reads their
results and pairs the next round; the tables themselves know nothing of it beyond the league's id
and a label among their settings. ``pairing`` decides who plays whom (two-player Swiss and round
robin through pairing-core, tables of three and four and the groups-then-knockout bracket here),
``standings`` counts points and tiebreaks, ``service`` runs a league from its sign-up card to its
final standings, and ``places`` is what a front end offers it (threads, forum posts, events).

A table knows of its league only the league's id and name among its settings (``league``, ``label``, which
``/history`` shows) and ``quiet_start`` (its first board pings nobody: the league called the players in the
game's thread). ``Leagues`` (``service.py``) holds the ``/league`` handlers over ``Commands`` and a front
end's ``Places`` (Discord's in ``cogs/places.py``; the console's in ``console/app.py``, which names a thread
per game and reads ``#thread name: /command``). A league is one row of the store (``leagues``, migration 12)
whose document (``book.py``: rules, players, rounds, tables with their thread, game and counted result, posts
kept edited) is written only over the revision read, and each league's work is done under its claim
(``league:<id>``) and, in one process, one at a time: a restart finds every thread and game already made, and
two processes never write the same round's start. The standings image is ``render/standings.py``; what players
and organisers read is docs/leagues.md.
"""
