"""Turns a test's `slash(user, channel, "game new", game="warchest")` into interaction `data`.

Discord's client only lets a user send what the synced command definitions allow, so this module
enforces the same: the path must name a real (sub)command, every option must exist, required ones must
be present, choices and bounds must hold. A mistake here is the test's, and raises ValueError.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.model import FakeChannel, FakeUser

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


@dataclass
class Resolved:
    """The `data.resolved` block, filled as option values referencing objects are converted."""

    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    attachments: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}


@dataclass
class ObjectPayloads:
    """How the server describes referenced objects; supplied by the fake so ids and URLs agree."""

    user: Callable[[FakeUser], dict[str, Any]]
    member: Callable[[FakeUser], dict[str, Any] | None]
    channel: Callable[[FakeChannel], dict[str, Any]]
    attachment: Callable[[str, bytes], dict[str, Any]]


def find_command(commands: list[dict[str, Any]], path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return the top-level command and the chain of definitions down to the invoked (sub)command."""
    parts = path.split()
    if not parts:
        raise ValueError("empty command path")
    top = next((c for c in commands if c["name"] == parts[0] and c.get("type", 1) == 1), None)
    if top is None:
        names = sorted(c["name"] for c in commands)
        raise ValueError(f"no synced slash command {parts[0]!r}; synced: {names}")
    chain = [top]
    for part in parts[1:]:
        current = chain[-1]
        sub = next(
            (
                o
                for o in current.get("options") or []
                if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise ValueError(f"{' '.join(c['name'] for c in chain)!r} has no subcommand {part!r}")
        chain.append(sub)
    leaf = chain[-1]
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf.get("options") or []):
        subs = [o["name"] for o in leaf.get("options") or []]
        raise ValueError(f"{path!r} is a group: name one of its subcommands {subs}")
    return top, chain


def _convert(defn: dict[str, Any], value: Any, resolved: Resolved, objects: ObjectPayloads) -> Any:
    kind = defn["type"]
    name = defn["name"]
    if kind == STRING:
        if not isinstance(value, str):
            raise ValueError(f"option {name!r} takes a string, got {value!r}")
        return value
    if kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option {name!r} takes an integer, got {value!r}")
        return value
    if kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"option {name!r} takes a number, got {value!r}")
        return value
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r} takes a boolean, got {value!r}")
        return value
    if kind in (USER, MENTIONABLE):
        if not isinstance(value, FakeUser):
            raise ValueError(f"option {name!r} takes a FakeUser, got {value!r}")
        resolved.users[value.id] = objects.user(value)
        member = objects.member(value)
        if member is not None:
            resolved.members[value.id] = member
        return value.id
    if kind == CHANNEL:
        if not isinstance(value, FakeChannel):
            raise ValueError(f"option {name!r} takes a FakeChannel, got {value!r}")
        resolved.channels[value.id] = objects.channel(value)
        return value.id
    if kind == ATTACHMENT:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ValueError(f"option {name!r} takes a (filename, bytes) pair, got {value!r}")
        attachment = objects.attachment(value[0], value[1])
        resolved.attachments[attachment["id"]] = attachment
        return attachment["id"]
    raise ValueError(f"option {name!r} has type {kind}, which the fake does not support")


def _check_bounds(defn: dict[str, Any], value: Any) -> None:
    """What Discord's client refuses to send: values outside choices, ranges or lengths."""
    name = defn["name"]
    choices = defn.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices {allowed}")
    if isinstance(value, str):
        if "min_length" in defn and len(value) < defn["min_length"]:
            raise ValueError(f"option {name!r}: shorter than {defn['min_length']}")
        if "max_length" in defn and len(value) > defn["max_length"]:
            raise ValueError(f"option {name!r}: longer than {defn['max_length']}")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if defn.get("min_value") is not None and value < defn["min_value"]:
            raise ValueError(f"option {name!r}: {value} is below {defn['min_value']}")
        if defn.get("max_value") is not None and value > defn["max_value"]:
            raise ValueError(f"option {name!r}: {value} is above {defn['max_value']}")


def build_command_data(
    commands: list[dict[str, Any]],
    path: str,
    values: dict[str, Any],
    objects: ObjectPayloads,
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """Build the `data` of an APPLICATION_COMMAND (or, with `focused`, AUTOCOMPLETE) interaction.

    For autocomplete the focused option's value is the text typed so far (always a string, as Discord
    sends it) and required options may be missing, since the user has not filled them in yet.
    """
    top, chain = find_command(commands, path)
    leaf = chain[-1]
    definitions = {o["name"]: o for o in leaf.get("options") or []}
    resolved = Resolved()
    options: list[dict[str, Any]] = []
    if focused is not None:
        defn = definitions.get(focused)
        if defn is None:
            raise ValueError(f"{path!r} has no option {focused!r}")
        if not defn.get("autocomplete"):
            raise ValueError(f"option {focused!r} of {path!r} has no autocomplete")
        if focused not in values:
            values = {**values, focused: ""}
    for name, value in values.items():
        defn = definitions.get(name)
        if defn is None:
            raise ValueError(f"{path!r} has no option {name!r}; it has {sorted(definitions)}")
        if name == focused:
            options.append({"name": name, "type": defn["type"], "value": str(value), "focused": True})
            continue
        converted = _convert(defn, value, resolved, objects)
        _check_bounds(defn, converted)
        options.append({"name": name, "type": defn["type"], "value": converted})
    if focused is None:
        missing = [n for n, d in definitions.items() if d.get("required") and n not in values]
        if missing:
            raise ValueError(f"{path!r} needs the required options {missing}")
    for defn in reversed(chain[1:]):
        options = [{"name": defn["name"], "type": defn["type"], "options": options}]
    data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "options": options}
    if top.get("guild_id"):
        data["guild_id"] = top["guild_id"]
    block = resolved.payload()
    if block:
        data["resolved"] = block
    return data
