"""Message and autocomplete refusals, and the records tests read back."""

from __future__ import annotations

from tests.fakediscord import checks
from tests.fakediscord.model import FakeUser, InteractionResult, SentMessage

BOT = FakeUser("1", "bot", bot=True)


def test_message_within_limits_is_accepted() -> None:
    assert checks.message_errors({"content": "x" * 2000}, []) is None
    assert checks.message_errors({}, [("board.png", b"png")]) is None


def test_message_refusals_match_discord() -> None:
    status, body = checks.message_errors({"content": "x" * 2001}, []) or (0, {})
    assert status == 400 and body["code"] == 50035 and "content" in body["errors"]
    status, body = checks.message_errors({"content": ""}, []) or (0, {})
    assert status == 400 and body["code"] == 50006
    assert checks.message_errors({"content": ""}, [], creating=False) is None
    status, body = checks.message_errors({}, [("big.png", b"0" * 11)], upload_limit=10) or (0, {})
    assert status == 413 and body["code"] == 40005
    embeds = [{"description": "d" * 3000}, {"description": "d" * 3001}]
    assert checks.message_errors({"embeds": embeds}, []) is not None
    assert checks.message_errors({"embeds": [{"title": "t"}] * 11}, []) is not None


def test_component_refusals() -> None:
    button = {"type": 2, "custom_id": "b", "label": "B", "style": 1}
    row = {"type": 1, "components": [button] * 5}
    assert checks.message_errors({"components": [row] * 5}, []) is None
    status, body = checks.message_errors({"components": [row] * 6}, []) or (0, {})
    assert status == 400 and "components" in body["errors"]
    crowded = {"type": 1, "components": [button] * 6}
    assert checks.message_errors({"components": [crowded]}, []) is not None
    long_id = {"type": 1, "components": [{**button, "custom_id": "c" * 101}]}
    assert checks.message_errors({"components": [long_id]}, []) is not None


def test_autocomplete_refusals() -> None:
    assert checks.autocomplete_errors({"choices": [{"name": "a", "value": "a"}] * 25}) is None
    assert checks.autocomplete_errors({"choices": [{"name": "a", "value": "a"}] * 26}) is not None
    assert checks.autocomplete_errors({"choices": [{"name": "", "value": "a"}]}) is not None
    assert checks.autocomplete_errors({"choices": [{"name": "a", "value": "v" * 101}]}) is not None
    assert checks.autocomplete_errors({}) is not None


def test_pinged_ids_follow_allowed_mentions() -> None:
    text = "<@11> then <@!22> and <@11> again"
    assert SentMessage("m", "c", BOT, "channel", content=text).pinged_ids == ["11", "22"]
    only_22 = SentMessage(
        "m", "c", BOT, "channel", content=text, allowed_mentions={"parse": [], "users": ["22"]}
    )
    assert only_22.mentioned_ids == ["11", "22"] and only_22.pinged_ids == ["22"]
    nobody = SentMessage("m", "c", BOT, "channel", content=text, allowed_mentions={"parse": []})
    assert nobody.pinged_ids == []


def test_deferred_result_is_complete_only_once_filled_in() -> None:
    result = InteractionResult("i", "t", response_type=5)
    thinking = SentMessage("m", "c", BOT, "response", flags=128 | 64)
    result.messages.append(thinking)
    assert not result.complete and result.ephemeral and result.content == ""
    thinking.flags &= ~128
    thinking.content = "done"
    assert result.complete and result.content == "done"
