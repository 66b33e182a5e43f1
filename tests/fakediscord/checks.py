"""What real Discord refuses in a message or an autocomplete answer, with its error bodies.

The fake answers such requests the way Discord does (HTTP 400/413 with a JSON error), so a bot that
would fail in production fails the same way in a test instead of passing silently.
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_CHARS = 6000
MAX_FILES = 10
MAX_DESCRIPTION = 1024
"""An attachment's description (alt text), in characters."""
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_NONCE = 25
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024

BUTTON = 2
ACTION_ROW = 1


def form_error(errors: dict[str, str]) -> dict[str, Any]:
    """Discord's "Invalid Form Body" (code 50035), one `_errors` entry per offending field path."""
    nested: dict[str, Any] = {}
    for path, message in errors.items():
        node = nested
        for part in path.split("."):
            node = node.setdefault(part, {})
        node["_errors"] = [{"code": "BASE_TYPE_BAD", "message": message}]
    return {"message": "Invalid Form Body", "code": 50035, "errors": nested}


def _embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def _component_errors(rows: list[dict[str, Any]]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(rows) > MAX_ROWS:
        errors["components"] = f"Must be {MAX_ROWS} or fewer in length."
    for r, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") != ACTION_ROW:
            continue
        buttons = [c for c in children if c.get("type") == BUTTON]
        if len(buttons) > MAX_BUTTONS_PER_ROW or (len(children) > 1 and len(buttons) != len(children)):
            errors[f"components.{r}.components"] = "An action row holds 5 buttons or a single select menu."
        for c, child in enumerate(children):
            custom_id = child.get("custom_id")
            if custom_id is not None and not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                errors[f"components.{r}.components.{c}.custom_id"] = "Must be between 1 and 100 in length."
            options = child.get("options")
            if options is not None and len(options) > MAX_CHOICES:
                errors[f"components.{r}.components.{c}.options"] = "Must be 25 or fewer in length."
    return errors


def message_errors(
    data: dict[str, Any],
    files: list[tuple[str, bytes]],
    *,
    upload_limit: int = DEFAULT_UPLOAD_LIMIT,
    creating: bool = True,
) -> tuple[int, dict[str, Any]] | None:
    """Return (status, error body) when Discord would refuse this message, else None.

    `creating` is False for edits, which may legitimately carry no content at all.
    """
    for name, blob in files:
        if len(blob) > upload_limit:
            return 413, {"message": "Request entity too large", "code": 40005, "file": name}
    errors: dict[str, str] = {}
    content = data.get("content")
    if content is not None and len(content) > MAX_CONTENT:
        errors["content"] = f"Must be {MAX_CONTENT} or fewer in length (got {len(content)})."
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    elif sum(_embed_chars(e) for e in embeds) > MAX_EMBED_CHARS:
        errors["embeds"] = f"Embed size exceeds maximum size of {MAX_EMBED_CHARS}"
    if len(files) > MAX_FILES:
        errors["attachments"] = f"Must be {MAX_FILES} or fewer in length."
    for attachment in data.get("attachments") or []:
        if len(str(attachment.get("description") or "")) > MAX_DESCRIPTION:
            errors["attachments.description"] = f"Must be {MAX_DESCRIPTION} or fewer in length."
    errors.update(_component_errors(data.get("components") or []))
    nonce = data.get("nonce")
    if nonce is not None and len(str(nonce)) > MAX_NONCE:
        errors["nonce"] = f"Must be {MAX_NONCE} or fewer in length."
    if errors:
        return 400, form_error(errors)
    empty = not content and not embeds and not files and not data.get("components") and not data.get("poll")
    if creating and empty and not data.get("attachments"):
        return 400, {"message": "Cannot send an empty message", "code": 50006}
    return None


def autocomplete_errors(data: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """Discord refuses more than 25 suggestions, names outside 1-100 characters, long string values."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return 400, form_error({"choices": "This field is required"})
    errors: dict[str, str] = {}
    if len(choices) > MAX_CHOICES:
        errors["choices"] = f"Must be {MAX_CHOICES} or fewer in length (got {len(choices)})."
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
            errors[f"choices.{i}.name"] = "Must be between 1 and 100 in length."
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
            errors[f"choices.{i}.value"] = "Must be 100 or fewer in length."
    return (400, form_error(errors)) if errors else None
