"""Message splitting and mention rules, the two pure helpers of ``cogs.replies``."""

from __future__ import annotations

from cogs.replies import allowed_mentions, split_text
from cogs.tree import error_text, unwrap
from engine import NotYourTurn
from engine.text import PlayerRef
from launch import DISCORD_LIMITS


def test_short_text_is_one_piece_and_empty_text_still_one() -> None:
    assert split_text("hello") == ["hello"]
    assert split_text("") == [""]


def test_long_text_is_cut_at_line_ends_within_the_limit() -> None:
    lines = [f"{i:03d} " + "z" * 95 for i in range(60)]  # 100 characters with the line end
    pieces = split_text("\n".join(lines))
    assert all(len(p) <= DISCORD_LIMITS.message for p in pieces)
    assert len(pieces) == 3
    assert "\n".join(pieces).split("\n") == lines


def test_a_line_longer_than_the_limit_is_cut_at_a_space_or_hard() -> None:
    words = " ".join(f"w{i:03d}" for i in range(900))  # 4499 characters, no line end
    pieces = split_text(words)
    assert all(len(p) <= DISCORD_LIMITS.message for p in pieces)
    assert len(pieces) == 3 and all(len(p) > DISCORD_LIMITS.message - 5 for p in pieces[:-1]), (
        "cut as late as fits"
    )
    assert "".join(pieces) == words, "nothing lost or added"
    assert " ".join(w for p in pieces for w in p.split()) == words, "no word is cut in two"
    assert split_text("x" * 4500) == ["x" * 2000, "x" * 2000, "x" * 500]


def test_a_hard_cut_never_splits_a_mention_or_a_timestamp() -> None:
    """Words without spaces (Chinese, Japanese) are cut hard; a mention or a timestamp standing at
    the cut goes whole to the next piece, where it still pings or shows its time."""
    for token in ("<@502123456789012345>", "<t:1764579600:R>"):
        text = "棋" * 1990 + token + "局" * 100
        first, second = split_text(text)
        assert (first, second) == ("棋" * 1990, token + "局" * 100)


def test_only_the_listed_users_may_be_pinged() -> None:
    mentions = allowed_mentions(["111", "222", "console-name"]).to_dict()
    assert mentions["parse"] == []
    assert sorted(mentions["users"]) == [111, 222]
    assert allowed_mentions([]).to_dict() == {"parse": []}


def test_error_texts_render_in_the_readers_language() -> None:
    refused = NotYourTurn("error.not_your_turn", waiting=PlayerRef("123"))
    assert error_text(refused, "fr") == "Ce n'est pas votre tour : on attend <@123>."
    assert error_text(refused, "en-GB") == "It is not your turn: waiting for <@123>."
    bug = error_text(KeyError("internal detail"), "en-US")
    assert bug.startswith("Sorry") and "internal detail" not in bug


def test_unwrap_finds_the_callbacks_exception() -> None:
    from unittest.mock import Mock

    from discord import app_commands

    original = NotYourTurn()
    wrapped = app_commands.CommandInvokeError(Mock(qualified_name="play"), original)
    assert unwrap(wrapped) is original
    assert unwrap(original) is original
