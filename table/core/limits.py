"""How much one message, one list of choices and one menu may hold: the type of a front end's limits.

The table layer holds no front end's numbers: each front end hands its own value to ``Tables`` (as
``limits``), and every part of the table that cuts a text or a list to fit reads that value, or is
handed it by its caller, rather than holding its own copy of a number. Discord's value is
``launch.DISCORD_LIMITS``, which the console hands too.
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
