"""A handover post longer than Discord takes keeps what it is for.

The post's summary of the actions since the last handover can be as long as the game makes it; the
post itself must stay within ``DISCORD_LIMITS.text`` (under Discord's 2,000 characters). What goes is
the oldest summary lines, never the line that says who must act and pings them, nor the end of the game and
its ratings, nor the line opening a new game. A seeded generator makes the posts: summaries of 0 to
300 lines of 1 to 400 characters in Latin, accented French, CJK, Arabic and emoji, 2 to 4 seats with
random snowflakes, active and ended games, in English, French and the test catalog's Polish (whose
plural forms make the note of what was left out change length with its count), and now and then a
newest line longer than a whole post.
"""

from __future__ import annotations

import logging
import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

import i18n
from db import GameRecord, Seat
from engine.contract import Result
from engine.text import Msg, PlayerRef
from launch import DISCORD_LIMITS
from table import Commands, Ctx
from table.core.marks import OPEN, WHOLE, mention, moment
from table.core.tables import Table
from table.core.text import clip, pings
from table.core.wording import Wording
from table.posting.announce import SPILL, PostLines, fit
from tests.table.conftest import channel_posts

LANGUAGES = ("en", "fr", "pl")
CASES = 900
"""Posts the generator makes: every language, seat count, status and script many times over."""

LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + " " * 12 + ".,;:!?-'()"
FRENCH = "abcdeéèêëfghiîïjklmnoôœpqrstuùûüvwxyÿzàâæçÉÀÇ" + " " * 10 + ".,;:!?'«»"
CJK = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 600)) + "，。、"
ARABIC = "".join(chr(c) for c in range(0x0621, 0x064B)) + " " * 8 + "،."
EMOJI = ("👍", "🏰", "⚔️", "👨‍👩‍👧", "🇫🇷", "🐉", "✨", "🛡️", " ")
SCRIPTS: tuple[tuple[str, ...] | str, ...] = (LATIN, FRENCH, CJK, ARABIC, EMOJI)


class Turns:
    """An engine reduced to whose turn it is: the post's closing line is all it is asked for."""

    def to_act(self, state: Any) -> list[str]:
        return list(state["to_act"])


def words(rng: random.Random, length: int) -> str:
    """``length`` characters of one script, perhaps naming a player by mention (as a summary line
    names a moderator who has no seat)."""
    text = "".join(rng.choices(rng.choice(SCRIPTS), k=length))[:length]
    if length > 30 and rng.random() < 0.1:
        at = rng.randrange(length - 25)
        text = text[:at] + mention(snowflake(rng)) + text[at:]
    return text[:length]


def snowflake(rng: random.Random) -> str:
    return str(rng.randrange(10**16, 10**19))


@dataclass(frozen=True)
class Case:
    lines: PostLines
    locale: str
    pinged: tuple[str, ...]
    description: str


def make_case(rng: random.Random) -> Case:
    locale = rng.choice(LANGUAGES)
    count = rng.randint(2, 4)
    ids = [snowflake(rng) for _ in range(count)]
    if rng.random() < 0.2:
        ids[rng.randrange(count)] = f"bot:{rng.randint(1, 9)}"
    seats = tuple(Seat(p, words(rng, rng.randint(1, 32)).strip() or "?") for p in ids)
    status = rng.choice(("active", "active", "finished", "aborted"))
    result: Result | None = None
    if status != "active":
        if rng.random() < 0.5:
            winners = tuple(rng.sample(ids, rng.randint(1, count - 1)))
            result = Result(winners, Msg("table.reason.resigned", {"player": PlayerRef(ids[-1])}))
        else:
            result = Result((), Msg("table.reason.draw_agreed"), draw=True)
    to_act = rng.sample(ids, rng.randint(1, count)) if status == "active" else []
    record = GameRecord(
        id=rng.randint(1, 10**6),
        channel="chan",
        game=rng.choice(("warchest", "batailles", "cryhavoc")),
        status=status,  # type: ignore[arg-type]
        creator=ids[0],
        players=count,
        options={},
        seed=1,
        version=rng.randint(1, 500),
        state={},
        result=None if result is None else result.to_json(),
        seats=seats,
        created_at="2026-12-01T09:00:00+00:00",
        updated_at="2026-12-01T09:00:00+00:00",
    )
    table = Table(record, Turns(), {"to_act": to_act})  # type: ignore[arg-type]
    wording = Wording()
    count_lines = rng.randint(0, rng.choice((12, 40, 300)))
    summary = tuple("• " + words(rng, rng.randint(1, 398)) for _ in range(count_lines))
    if summary and rng.random() < 0.05:  # and now and then a newest line longer than a post
        summary = (*summary[:-1], "• " + words(rng, rng.randint(1500, 3000)))
    split = rng.randint(0, len(summary)) if status == "active" and rng.random() < 0.3 else len(summary)
    opening = ()
    if rng.random() < 0.3:
        started = wording.t(
            "table.started", locale, game=wording.game(table, locale), seats=wording.seats(table, locale)
        )
        opening = (started,)
    closing = [wording.closing(table, locale)]
    if status == "finished" and rng.random() < 0.5:
        changes = ", ".join(f"{seat.name} 25,3 (+1,2)" for seat in seats)
        closing.append(i18n.t("rating.changes", locale, pool="War Chest", changes=changes))
    lines = PostLines(opening, summary[:split], summary[split:], tuple(closing))
    pinged = pings(to_act if status == "active" else ids)
    description = f"{locale}, {status}, {count} seats, {len(summary)} summary lines ({split} before the turn)"
    return Case(lines, locale, pinged, description)


def marker(count: int, locale: str) -> str:
    return i18n.t("svc.summary_more", locale, count=count)


def check(case: Case) -> None:
    lines, locale = case.lines, case.locale
    fitted = fit(lines, locale, DISCORD_LIMITS.text)
    text = fitted.text
    shown = text.split("\n")
    assert len(text) <= DISCORD_LIMITS.text < 2000
    assert not fitted.squeezed, "the lines that stay fit whatever the summary"
    for player in case.pinged:
        assert mention(player) in text
    assert shown[: len(lines.opening)] == list(lines.opening)
    assert shown[len(shown) - len(lines.closing) :] == list(lines.closing)
    assert all(WHOLE.match(text, at.start()) for at in re.finditer(OPEN, text)), "a mention was cut"
    summary = [*lines.summary, *lines.in_turn]
    header = [i18n.t("svc.turn_in_progress", locale)] if lines.in_turn else []
    whole = "\n".join([*lines.opening, *lines.summary, *header, *lines.in_turn, *lines.closing])
    if len(whole) <= DISCORD_LIMITS.text:
        assert (text, fitted.left_out) == (whole, 0)
        return
    left_out = fitted.left_out
    kept = [line for line in shown if line in summary]
    if kept != summary[left_out:]:  # the newest line, too long even alone, is shortened
        assert kept == summary[left_out:-1]
        newest = shown[-1 - len(lines.closing)]
        assert "…" in newest and len(newest) < len(summary[-1])
    if left_out:
        first = len(lines.opening) + (0 if lines.summary else len(header))
        assert shown[first] == marker(left_out, locale), "the note stands where they were"
        fewer = left_out - 1  # no line is left out that would have fitted
        longer = len(whole) - sum(len(line) + 1 for line in summary[:fewer])
        if fewer:
            longer += len(marker(fewer, locale)) + 1
        assert longer > DISCORD_LIMITS.text


@pytest.mark.usefixtures("translators_folders")
def test_every_long_post_fits_and_pings_whom_it_names_with_its_closing_lines_whole() -> None:
    rng = random.Random(20261201)
    for _ in range(CASES):
        case = make_case(rng)
        try:
            check(case)
        except AssertionError as failure:
            raise AssertionError(f"{case.description}: {failure}") from failure


@pytest.mark.usefixtures("translators_folders")
def test_the_polish_note_of_what_was_left_out_takes_the_form_of_its_count() -> None:
    assert [marker(n, "pl").split()[1:3] for n in (1, 2, 5, 22)] == [
        ["1", "wcześniejsza"],
        ["2", "wcześniejsze"],
        ["5", "wcześniejszych"],
        ["22", "wcześniejsze"],
    ]


FRENCH_TURN = f"À vous de jouer : {mention('502123456789012345')}."


def test_a_long_french_summary_keeps_the_turn_line_that_pings() -> None:
    """The post that once ended "À vous de jouer : <@5021234567890123…" and pinged nobody: lines were
    left out to a guessed allowance for the note saying so, which is longer in French, and what
    still overflowed was cut from the end."""
    summary = tuple(
        f"• Alice prend {n % 3 + 1}, il en reste {90 - n} dans le tas, au milieu." for n in range(80)
    )
    fitted = fit(PostLines(summary=summary, closing=(FRENCH_TURN,)), "fr", DISCORD_LIMITS.text)
    assert fitted.text.endswith("\n" + FRENCH_TURN) and len(fitted.text) <= DISCORD_LIMITS.text
    assert fitted.text.startswith(marker(fitted.left_out, "fr") + "\n• Alice")


def test_one_summary_line_too_long_alone_is_shortened_rather_than_anything_else() -> None:
    started = "La partie de War Chest commence ! Places : Alice, Bob."
    line = "• " + "Alice déplace son archer et attaque. " * 80 + "Elle gagne."
    fitted = fit(PostLines((started,), (line,), (), (FRENCH_TURN,)), "fr", DISCORD_LIMITS.text)
    first, shortened, last = fitted.text.split("\n")
    assert (first, last, fitted.left_out) == (started, FRENCH_TURN, 0)
    head, tail = shortened.split("…")
    assert line.startswith(head) and line.endswith(tail) and 0 < len(tail) < len(head)
    assert DISCORD_LIMITS.text - 5 < len(fitted.text) <= DISCORD_LIMITS.text


def test_lines_that_stay_too_long_alone_lose_words_never_a_mention() -> None:
    over = f"({mention('1')}, {mention('2')} : la partie est terminée.)"
    ending = "Partie terminée ! " + "Une très longue raison. " * 100 + over
    fitted = fit(
        PostLines((), ("• a",), (), (ending, "📈 Classement : Alice 25,3 (+1,2)")), "fr", DISCORD_LIMITS.text
    )
    assert len(fitted.text) <= DISCORD_LIMITS.text and fitted.squeezed
    assert fitted.text.endswith(f"raison. {over}\n📈 Classement : Alice 25,3 (+1,2)")


A = "502123456789012345"
B = "602123456789012345"


def player(user: str, name: str) -> Ctx:
    return Ctx("chan", user, name, "fr", "fr")


async def test_a_catch_up_of_many_moves_in_french_pings_and_says_how_many_were_left_out(
    commands: Commands, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Forty long moves stored while the channel was not shown them (the bot was away) are announced
    in one post at the catch-up, which may run over a few messages (``SPILL``) but no more: the oldest
    are left out of it, the turn line pings whole, and one line of the log says how many were left
    out."""
    monkeypatch.setitem(
        i18n.catalog("fr"),
        "nim.took",
        "{player} prend {n} pierre du tas : il en reste {left} au milieu. " + "Longue réflexion. " * 12,
    )
    await commands.new(player(A, "Alice"), "nim", options="heap=40 max=3 auto=off")
    await commands.join(player(B, "Bob"))
    await commands.start(player(A, "Alice"))
    await commands.announcer.drain()
    with monkeypatch.context() as away:
        away.setattr(commands.announcer, "poke", lambda table: None)
        for _ in range(39):
            table = await commands.tables.latest("chan")
            assert table is not None
            await commands.play(player(table.to_act()[0], "?"), "take 1")
    table = await commands.tables.latest("chan")
    assert table is not None
    (waiting,) = table.to_act()
    shown = len(await channel_posts(commands))
    with caplog.at_level(logging.INFO, logger="table.posting.announce"):
        assert await commands.announcer.catch_up() == 1
    pieces = (await channel_posts(commands))[shown:]
    assert 1 < len(pieces) <= SPILL, "a catch-up may run over a few messages, no more"
    assert all(len(piece.text) <= DISCORD_LIMITS.text for piece in pieces)
    turn = f"À vous de jouer : {mention(waiting)}."
    assert pieces[-1].text.endswith("\n" + turn) and pieces[-1].mentions == (waiting,)
    assert not any(piece.mentions for piece in pieces[:-1]), "one ping, with the board"
    text = "\n".join(piece.text for piece in pieces)
    notes = [r.getMessage() for r in caplog.records if "left out" in r.getMessage()]
    (left_out,) = re.findall(r"non reprises ici : (\d+)", text)
    assert notes == [f"game #{table.record.id}: earlier actions left out of its post: {left_out}"]
    assert text.count("• ") == 39 - int(left_out) > 0


def test_a_text_clipped_at_its_end_keeps_a_mention_whole_or_leaves_it_out() -> None:
    """What the help, the log and the standings do past their limit."""
    who = mention("502123456789012345")
    text = "Classement : " + f"{who}, " * 3
    assert clip(text, 30) == "Classement : …"
    assert clip(text, 35) == f"Classement : {who}…"
    when = moment(datetime.fromtimestamp(1764579600, UTC))
    assert clip(f"{when} ou plus tard", 20) == f"{when} ou…"
    assert clip(text, 200) == text
