"""Persistent buttons and menus: discord.py's ``DynamicItem``, the state in the custom id.

A post's ``buttons`` and ``menu`` (front-end neutral, from the table layer) become components whose
custom id is ``g:<game>:v<version>:<action>`` (``:pick`` for the moves menu), or ``l:<league>:<action>``
for a league's sign-up card. Registered once with
``add_dynamic_items``, they answer on any message, however old, after any number of restarts: nothing
is held in memory. A press goes to ``GameCog.pressed`` and a pick to ``GameCog.picked``, which call the
table layer as the slash commands do.

Any other custom id (a number longer than the bot writes, or not of its form at all: a forged id) goes
to ``OtherComponent`` (``cogs.tree``), which tells the player the button does nothing. Each press is
handled once, however many times Discord delivers it.

The numbers of a custom id have at most 18 digits; a league's sign-up card's Join and Leave are
``l:<league>:<action>``, and its buttons work after any restart like a game's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TypedDict, runtime_checkable

import discord

from launch import DISCORD_LIMITS

if TYPE_CHECKING:
    from table.core.posts import Button, Menu

NUMBER = r"(?:0|[1-9]\d{0,17})"
"""A game id, a version or a seat in a custom id: at most 18 digits, well within the store's 64-bit
integers. A longer number (or a leading zero) is no id the bot ever made."""
GAME = rf"g:(?P<game>{NUMBER}):v(?P<version>{NUMBER})"
BUTTON = GAME + rf":(?P<action>(?!pick$)[a-z_]+(?::{NUMBER})?)"
MENU = GAME + r":pick"
LEAGUE_BUTTON = rf"l:(?P<league>{NUMBER}):(?P<action>join|leave)"
"""A league's sign-up card's Join and Leave (``l:<league>:<action>``)."""
OURS = re.sub(r"\(\?P<\w+>", "(?:", f"{BUTTON}|{MENU}|{LEAGUE_BUTTON}")
"""Either template without its named groups (a pattern may name a group only once)."""
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
BUTTONS_PER_ROW = 5

_Button = discord.ui.Button[discord.ui.View]
_Item = discord.ui.Item[discord.ui.View]


def _button(custom_id: str, label: str, style: discord.ButtonStyle | None) -> _Button:
    """A persistent button as both kinds are drawn: its label cut to Discord's 80 characters."""
    return discord.ui.Button(
        label=label[: DISCORD_LIMITS.button],
        style=style or discord.ButtonStyle.secondary,
        custom_id=custom_id,
    )


class _Looks(TypedDict):
    label: str
    style: discord.ButtonStyle | None


def _looks(item: _Item) -> _Looks:
    """The label and style a pressed button came with, to draw it again the same (a menu given a
    button's custom id, a forged one, still gets a button that answers)."""
    button = item if isinstance(item, discord.ui.Button) else None
    return {"label": (button.label if button else None) or "…", "style": button.style if button else None}


class GameButton(discord.ui.DynamicItem[_Button], template=BUTTON):
    """A button of a post: Join, My hand, Accept..."""

    def __init__(
        self,
        game: int,
        version: int,
        action: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle | None = None,
    ) -> None:
        super().__init__(_button(f"g:{game}:v{version}:{action}", label, style))
        self.game, self.version, self.action = game, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: _Item, match: re.Match[str]
    ) -> GameButton:
        return cls(int(match["game"]), int(match["version"]), match["action"], **_looks(item))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handler(interaction).pressed(interaction, self.game, self.version, self.action)


class GameMenu(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=MENU):
    """The "My moves" menu: a group of moves, a page, or a move to play."""

    def __init__(
        self,
        game: int,
        version: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"g:{game}:v{version}:pick",
                options=options or [discord.SelectOption(label="…", value="none")],
                placeholder=placeholder[:150] or None,
            )
        )
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: _Item, match: re.Match[str]
    ) -> GameMenu:
        options = list(item.options) if isinstance(item, discord.ui.Select) else []
        return cls(int(match["game"]), int(match["version"]), options=options or None)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = picked_values(interaction)
        await handler(interaction).picked(interaction, self.game, self.version, values[0] if values else "")


class LeagueButton(discord.ui.DynamicItem[_Button], template=LEAGUE_BUTTON):
    """The sign-up card's Join and Leave: persistent, the league's id in the custom id."""

    def __init__(
        self, league: int, action: str, *, label: str = "…", style: discord.ButtonStyle | None = None
    ) -> None:
        super().__init__(_button(f"l:{league}:{action}", label, style))
        self.league, self.action = league, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: _Item, match: re.Match[str]
    ) -> LeagueButton:
        return cls(int(match["league"]), match["action"], **_looks(item))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("LeagueCog")  # type: ignore[attr-defined]
        assert isinstance(cog, LeagueHandler)
        await cog.pressed(interaction, self.league, self.action)


@runtime_checkable
class LeagueHandler(Protocol):
    """What a league's button is handed to: the cog registered as ``LeagueCog`` (``cogs.league``)."""

    async def pressed(self, interaction: discord.Interaction, league: int, action: str) -> None: ...


@runtime_checkable
class Handler(Protocol):
    """What a press or a pick is handed to: the cog registered as ``GameCog`` (``cogs.game``), which
    calls the table layer as the slash commands do. A protocol, so that the components need not import
    the cog that sends them."""

    async def pressed(
        self, interaction: discord.Interaction, game: int, version: int, action: str
    ) -> None: ...

    async def picked(self, interaction: discord.Interaction, game: int, version: int, value: str) -> None: ...


@runtime_checkable
class Deliveries(Protocol):
    """A command tree that recognises a second delivery of an interaction (``cogs.tree.GameTree``)."""

    def first_delivery(self, interaction: discord.Interaction) -> bool: ...


def handler(interaction: discord.Interaction) -> Handler:
    """The cog that handles the bot's buttons and menus."""
    cog = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
    assert isinstance(cog, Handler)
    return cog


def first_delivery(interaction: discord.Interaction) -> bool:
    """Whether the press reaches the bot for the first time (see ``GameTree.first_delivery``)."""
    tree = getattr(interaction.client, "tree", None)
    return not isinstance(tree, Deliveries) or tree.first_delivery(interaction)


def button_item(button: Button) -> GameButton | LeagueButton:
    if button.scope == "l":
        return LeagueButton(button.game, button.action, label=button.label, style=STYLES.get(button.style))
    return GameButton(
        button.game, button.version, button.action, label=button.label, style=STYLES.get(button.style)
    )


def menu_item(menu: Menu) -> GameMenu:
    options = [
        discord.SelectOption(label=label[: DISCORD_LIMITS.choice], value=value[: DISCORD_LIMITS.choice])
        for label, value in menu.options[: DISCORD_LIMITS.choices]
    ]
    return GameMenu(menu.game, menu.version, options=options, placeholder=menu.title)


def view_for(post: object) -> discord.ui.View | None:
    """The components of a post (its buttons, then its menu on a row of its own), or None."""
    buttons = tuple(getattr(post, "buttons", ()) or ())
    menu = getattr(post, "menu", None)
    if not buttons and menu is None:
        return None
    view = discord.ui.View(timeout=None)
    for index, button in enumerate(buttons[: BUTTONS_PER_ROW * 4]):
        item = button_item(button)
        item.item.row = index // BUTTONS_PER_ROW
        view.add_item(item)
    if menu is not None:
        picker = menu_item(menu)
        picker.item.row = 4
        view.add_item(picker)
    return view


def picked_values(interaction: discord.Interaction) -> list[str]:
    """The values a menu pick carries (discord.py types the data of every kind of interaction at once:
    only a pick's has values)."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values")
    return [str(v) for v in values] if isinstance(values, list) else []
