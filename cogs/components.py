"""Persistent buttons and menus: discord.py's ``DynamicItem``, the state in the custom id.

A post's ``buttons`` and ``menu`` (front-end neutral, from the table layer) become components whose
custom id is ``g:<game>:v<version>:<action>`` (``:pick`` for the moves menu). Registered once with
``add_dynamic_items``, they answer on any message, however old, after any number of restarts: nothing
is held in memory. A press goes to ``GameCog.pressed`` and a pick to ``GameCog.picked``, which call the
table layer as the slash commands do.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from table.posts import Button, Menu

GAME = r"g:(?P<game>\d+):v(?P<version>\d+)"
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
BUTTONS_PER_ROW = 5


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME + r":(?P<action>(?!pick$)[a-z_]+(?::\d+)?)"
):
    """A button of a post: Join, My hand, Accept..."""

    def __init__(self, game: int, version: int, action: str, *, label: str = "…", style: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style or discord.ButtonStyle.secondary,
                custom_id=f"g:{game}:v{version}:{action}",
            )
        )
        self.game, self.version, self.action = game, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> GameButton:
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["action"],
            label=item.label or "…",
            style=item.style,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.game import GameCog

        cog = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
        assert isinstance(cog, GameCog)
        await cog.pressed(interaction, self.game, self.version, self.action)


class GameMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=GAME + r":pick"):
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
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> GameMenu:
        return cls(int(match["game"]), int(match["version"]), options=list(item.options) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.game import GameCog

        cog = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
        assert isinstance(cog, GameCog)
        values = list((interaction.data or {}).get("values") or [])  # type: ignore[union-attr]
        await cog.picked(interaction, self.game, self.version, values[0] if values else "")


def button_item(button: Button) -> GameButton:
    return GameButton(
        button.game, button.version, button.action, label=button.label, style=STYLES.get(button.style)
    )


def menu_item(menu: Menu) -> GameMenu:
    options = [
        discord.SelectOption(label=label[:100], value=value[:100]) for label, value in menu.options[:25]
    ]
    return GameMenu(menu.game, menu.version, options=options, placeholder=menu.title)


def view_for(post: Any) -> discord.ui.View | None:
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
        item = menu_item(menu)
        item.item.row = 4
        view.add_item(item)
    return view
