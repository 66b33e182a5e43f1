"""What a computer player weighed, kept with its move and told in words (``/game why``, ``/game hint``).

After a bot's move is stored, its explanation is kept as a note of the game (``WHY``, after the move
it explains), so it survives a restart and goes with the game's dump: the action played and the ones
its search weighed most, each as the game's own label (``game.label``, a catalog message), its
estimated chance of winning and its share of the search, and whether naming it would tell a secret
of the bot's (``ai.explain.secret``: a coin or card of its hand, a troop's place while the armies
deploy unseen). The notes' readers that show a game's story (the log, a post's summary) pass these
over (``is_explanation``).

``lines`` words an explanation in the reader's language; a secret not yet revealed
(``ai.explain.revealed``) is told without its hidden part ("a move it keeps to itself"), with a line
saying when it will be told.

What the search weighed comes with its answer (``Choice``, from ``ai.decide``: the move played, then the three
root actions visited most, each with its mean value for the seat and its share of the iterations;
``ai.explain.weighed``), and a secret keeps a wording without it where one is left (``ai.explain.masked``: a
recruit names the unit recruited, not the coin paid). A note is about a kilobyte, one per decision of a bot (a
Batailles turn makes some fifteen), and every post of a game with a bot reads them with the other notes: what
a table of their own would have saved, against a migration in both stores. ``/game hint`` asks for the
caller's seat with the same seed and turn step a bot in that seat would get (``table.bots.players.decision``).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

import i18n
from engine.contract import EncodedMsg
from engine.text import Msg, msg
from table.core.events import decode_msg, encode_msg
from table.core.posts import is_bot
from table.core.tables import Choice

if TYPE_CHECKING:
    from db import Announcing, Note
    from table.core.tables import Table

WHY = "why.note"
"""The key of an explanation note: never shown as a line of the log."""


class Weighed(TypedDict):
    """An action the search weighed: its label, its estimated chance of winning and share of the
    search (None for a move nobody searched), the kind of secret naming it would tell (None: none)
    and, for a secret, its wording without it where one is left."""

    label: EncodedMsg
    value: float | None
    share: float | None
    secret: str | None
    masked: NotRequired[EncodedMsg]


class Why(TypedDict):
    """An explanation note (``WHY``): the computer player, its search's iterations, the actions it
    weighed, the one played first."""

    key: str
    player: str
    iterations: int
    weighed: list[Weighed]


def is_explanation(event: Mapping[str, object]) -> bool:
    return event.get("key") == WHY


def explanation(table: Table, player: str, choice: Choice) -> Why | None:
    """The note that explains ``choice``, ``player``'s move in ``table``'s position before it (None
    when the move cannot be read back, which a stored move always can)."""
    from ai.explain import masked, secret

    game, state = table.game, table.state
    seat = table.record.player_ids.index(player)
    try:
        chosen = game.parse_action(state, player, choice.action)
    except Exception:
        return None
    weighed = choice.weighed or ((choice.action, None, None),)
    entries: list[Weighed] = []
    for text, value, share in weighed:
        try:
            action = chosen if text == choice.action else game.parse_action(state, player, text)
            label = game.label(state, action)
        except Exception:
            continue
        kept = secret(table.record.game, state, seat, action, chosen)
        told = masked(table.record.game, action) if kept else None
        entry: Weighed = {
            "label": encode_msg(label),
            "value": value,
            "share": share,
            "secret": kept,
        }
        if told is not None:
            entry["masked"] = encode_msg(told)
        entries.append(entry)
    return {"key": WHY, "player": player, "iterations": choice.iterations, "weighed": entries}


def latest(notes: Iterable[Note], live: Container[int] | None = None) -> Why | None:
    """The last explanation among a game's notes; with ``live`` (the versions of the moves still
    played), the last of a move not taken back. Its key says it is one, as ``explanation`` wrote it."""
    found = None
    for note in notes:
        if is_explanation(note.event) and (live is None or note.version in live):
            found = cast(Why, note.event)
    return found


def explains_last(read: Announcing, version: int) -> bool:
    """Whether the last decision of the game up to ``version`` (the moves the rules played by
    themselves aside) was a computer player's with its reasons kept: its post then offers "Why?".
    A move taken back since (the undo is the last decision) is not explained."""
    explained = {note.version for note in read.notes if is_explanation(note.event)}
    if not explained:
        return False
    decisions = [entry for entry in read.actions(read.after, version) if not entry.auto]
    if not decisions:  # the post tells no new action: the version's own note decides
        return version in explained
    last = decisions[-1]
    return last.kind == "move" and last.seq in explained


def _percent(value: float) -> int:
    return round(float(value) * 100)


def lines(
    event: Why,
    table: Table,
    locale: str,
    *,
    hidden: bool = True,
    head: str | None = None,
    play: str = "why",
) -> list[str]:
    """The explanation's words in ``locale``: who decided (or ``head`` in its place), what it played
    and what else it weighed (``play``: the keys of the move played, ``why``, or of the move advised,
    ``hint``). With ``hidden``, a secret the game has not revealed yet is told without
    its hidden part."""
    from ai.explain import revealed

    record = table.record
    over = record.status != "active" or (table.state is not None and table.game.is_over(table.state))
    player = str(event.get("player", ""))
    entries = list(event.get("weighed") or [])
    searched = int(event.get("iterations") or 0)
    who = table.name(player) if is_bot(player) else i18n.t("svc.bot.for", locale, player=table.name(player))
    if head is not None:
        out = [head]
    elif searched > 0 and len(entries) > 1:
        out = [i18n.t("why.head", locale, player=who, n=searched)]
    else:
        out = [i18n.t("why.head_settled", locale, player=who)]
    kept: list[str] = []
    named: set[str] = set()
    for i, entry in enumerate(entries):
        kind = entry.get("secret")
        if hidden and kind and not revealed(record.game, table.state, str(kind), over):
            said: Msg | str = decode_msg(entry["masked"]) if entry.get("masked") else msg(f"why.kept.{kind}")
            kept.append(str(kind))
        else:
            said = decode_msg(entry["label"])
        action = i18n.t(said, locale, names=table.named) if isinstance(said, Msg) else said
        if i > 0 and action in named:
            continue  # told without its hidden part, it reads as one already said: no line repeated
        named.add(action)
        value, part = entry.get("value"), entry.get("share")
        if value is None or part is None:
            out.append("• " + i18n.t(f"{play}.settled" if i == 0 else "why.settled", locale, action=action))
            continue
        key = f"{play}.chosen" if i == 0 else "why.weighed"
        win, share = _percent(value), _percent(part)
        out.append("• " + i18n.t(key, locale, action=action, win=win, share=share))
    out += [i18n.t(f"why.note.{kind}", locale) for kind in dict.fromkeys(kept)]
    return out


__all__ = ["WHY", "explanation", "is_explanation", "latest", "lines"]
