"""Alt text: what a sighted player takes from an image at first glance, in words, for a screen reader.

Discord reads an attachment's description aloud; the console writes it beside the image. It is
written from the view the image is drawn from (never from the pixels) with the same catalog words
the image shows: the game and round, whose turn or the result, the last action, then each seat's
counts. A public image's text comes from the public view, so it holds no hidden information; a
hand's text is only ever attached to that player's own image.

Every image the bot posts (boards, details, hands, replays, the ``/stats`` chart) carries one
(``render.describe(kind, view, ...)``), in the post's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from render.catalog import tr

MAX_ALT = 1024
"""Discord's limit on an attachment's description, in characters."""


@dataclass(frozen=True)
class Glance:
    """The words of a board's status and seat chips, in the reader's language."""

    title: str
    round: str | None
    lines: tuple[str, ...]
    """Whose turn or the result, then what the status box adds (a pending choice, the phase)."""
    last: str
    seats: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    """Each seat's name and counts (label, value), in the order of the chips."""


def sentence(text: str) -> str:
    """``text`` closed by a full stop unless it already ends a sentence; "" stays ""."""
    text = text.strip()
    if not text or text[-1] in ".!?…":
        return text
    return text + "."


def field(label: str, value: str, locale: str) -> str:
    """ "Label: value", with the language's spacing before the colon."""
    return tr("render.alt.field", locale, label=label, value=value) if label else value


def seat_words(glance: Glance, locale: str) -> str:
    """Each seat's counts: "Alice: Bag 5, Hand 3; Bob: ..." """
    parts = []
    for name, counts in glance.seats:
        said = ", ".join(f"{label} {value}" if label else value for label, value in counts)
        parts.append(field(name, said, locale))
    return tr("render.alt.between", locale).join(parts)


def board_words(glance: Glance, locale: str, limit: int | None = MAX_ALT) -> str:
    """A board image's alt text: game and round, whose turn or the result, the last action, counts
    (within ``limit`` characters, unless None)."""
    head = glance.title if glance.round is None else f"{glance.title}, {glance.round}"
    pieces = [head, *glance.lines, glance.last, seat_words(glance, locale)]
    words = " ".join(sentence(p) for p in pieces if p)
    return words if limit is None else clip(words, limit)


def details_words(glance: Glance, what: str, locale: str) -> str:
    """A details image's alt text: what the image holds, then the seats' counts."""
    head = tr("render.alt.details", locale, title=glance.title, what=what)
    return clip(" ".join(sentence(p) for p in (head, seat_words(glance, locale)) if p))


def replay_words(count: int, last: Glance | None, locale: str) -> str:
    """A replay's alt text: how many frames, then the last frame's board."""
    title = last.title if last is not None else ""
    head = sentence(tr("render.alt.replay", locale, title=title, count=count))
    return clip(head if last is None else f"{head} {board_words(last, locale)}")


def listing(label: str, items: Sequence[str], locale: str) -> str:
    """ "Label: a, b, c", or "Label: empty" in the language."""
    return field(label, ", ".join(items) if items else tr("render.alt.empty", locale), locale)


def clip(text: str, limit: int = MAX_ALT) -> str:
    """``text`` within ``limit`` characters, cut at a word and ended with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"
