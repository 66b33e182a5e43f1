"""What a channel is shown over time: the announcer's one post per handover (``announce``, composing
``claims``, ``folding``, ``boards``, ``planning`` and ``results``), its buttons and menus (``menus``),
the scheduler's reminders, deadlines and catch-up (``schedule``) and which process posts for which
game (``owners``). Imports the bots (``bots``) and the core (``core``).
"""
