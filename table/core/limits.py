"""How much one message, one list of choices and one menu may hold: Discord's limits, in one value.

Discord's are the tightest of the front ends (the console prints whatever it is given), and the console
keeps them too, so that what it shows is what a server would see. Every part of the bot that cuts a
text or a list to fit reads them here, rather than each holding its own copy of a number.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one message or one list may hold, in characters or entries."""

    message: int
    """Characters of one message."""
    text: int
    """Characters the table writes in one message: under ``message``, with room for what a front end
    adds (a suffix, a line that says more follows)."""
    choices: int
    """Entries of one list of choices: an autocomplete's answers, an option's fixed choices, a menu's
    options."""
    choice: int
    """Characters of one choice's name or value, or of a menu option's label or value."""
    button: int
    """Characters of a button's label."""
    alt: int
    """Characters of an attachment's description (an image's alt text)."""
    nonce: int
    """Characters of a message's nonce."""
    event: int
    """Characters of a server event's name, or of its place."""


LIMITS = Limits(message=2000, text=1900, choices=25, choice=100, button=80, alt=1024, nonce=25, event=100)
"""Discord's, for every front end."""
