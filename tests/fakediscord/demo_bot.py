"""A small discord.py bot that exercises every path of the fake: the harness's own tests drive it.

It is deliberately ordinary discord.py code (commands.Bot, app command groups, autocomplete, views),
so that what works here works for the real cogs. Its replies are test fixtures, not player-facing text.
"""

from __future__ import annotations

import asyncio
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

ACTIONS = ["archer attack c3", "archer move c3 d4", "bolster e1", "claim initiative", "pass"]


class Boom(app_commands.AppCommandError):
    """A refused request, answered by the tree's error handler."""


def png_bytes(colour: str = "red") -> bytes:
    image = Image.new("RGB", (8, 8), colour)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class GameGroup(app_commands.Group):
    """Commands that manage the game of this channel."""

    def __init__(self) -> None:
        super().__init__(name="game", description="Manage the game of this channel")

    @app_commands.command(name="new", description="Open a table")
    @app_commands.describe(game="Which game", players="How many players")
    async def new(
        self,
        interaction: discord.Interaction,
        game: Literal["warchest", "batailles"],
        players: app_commands.Range[int, 2, 4] | None = None,
    ) -> None:
        where = f"locale={interaction.locale.value} guild={interaction.guild_locale}"
        await interaction.response.send_message(f"new {game} players={players!r} {where}")

    @app_commands.command(name="join", description="Take a seat")
    async def join(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"seat for {interaction.user.name}", ephemeral=True)


class ButtonView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ready", custom_id="demo:ready")
    async def ready(self, interaction: discord.Interaction, button: discord.ui.Button[ButtonView]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"{interaction.user.name} is ready", view=self)

    @discord.ui.select(
        custom_id="demo:colour",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select[ButtonView]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} picked {select.values[0]}")


class DemoBot(commands.Bot):
    """Records what happened inside handlers so tests can check the bot's side too."""

    def __init__(self, *, sync_in: Literal["setup_hook", "guild"] = "setup_hook") -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix="!", intents=intents)
        self.sync_in = sync_in
        self.errors: list[str] = []
        self.add_commands()

    async def setup_hook(self) -> None:
        self.add_view(ButtonView())
        if self.sync_in == "setup_hook":
            await self.tree.sync()

    async def on_ready(self) -> None:
        if self.sync_in == "guild":
            for guild in self.guilds:
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)

    def add_commands(self) -> None:
        tree = self.tree
        tree.add_command(GameGroup())

        @tree.command(name="play", description="Play an action")
        async def play(interaction: discord.Interaction, action: str) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.01)
            await interaction.followup.send(
                f"{interaction.user.mention} played {action}",
                file=discord.File(io.BytesIO(png_bytes()), filename="board.png"),
                allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
            )
            await interaction.followup.send("hand refreshed", ephemeral=True)

        @play.autocomplete("action")
        async def play_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=a.upper(), value=a) for a in ACTIONS if current in a]

        @tree.command(name="pick", description="Suggests too many choices")
        async def pick(interaction: discord.Interaction, item: str) -> None:
            await interaction.response.send_message(item)

        @pick.autocomplete("item")
        async def pick_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f"item {i}", value=str(i)) for i in range(30)]

        @tree.command(name="edit", description="Defer, then edit the original response")
        async def edit(interaction: discord.Interaction, secret: bool = False) -> None:
            await interaction.response.defer(ephemeral=secret, thinking=True)
            await interaction.edit_original_response(
                content="edited", attachments=[discord.File(io.BytesIO(png_bytes("blue")), filename="b.png")]
            )

        @tree.command(name="peek", description="Defer privately, then follow up without asking for privacy")
        async def peek(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("your hand")
            await interaction.followup.send("public note")

        @tree.command(name="revise", description="Edit and delete messages after answering")
        async def revise(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("v1")
            original = await interaction.original_response()
            await original.edit(content="v2")
            note = await interaction.followup.send("note 1", wait=True)
            await note.edit(content="note 2")
            extra = await interaction.followup.send("gone soon", wait=True)
            await extra.delete()

        @tree.command(name="fail", description="Always refused")
        async def fail(interaction: discord.Interaction) -> None:
            raise Boom("refused")

        @tree.command(name="silent", description="Never answers")
        async def silent(interaction: discord.Interaction) -> None:
            return None

        @tree.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction, seconds: float) -> None:
            await asyncio.sleep(seconds)
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as exc:
                self.errors.append(f"{exc.status} {exc.code}")

        @tree.command(name="long", description="Sends too much text")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                self.errors.append(f"{exc.status} {exc.code}")
                await interaction.response.send_message("too long", ephemeral=True)

        @tree.command(name="who", description="Describe a member")
        async def who(
            interaction: discord.Interaction, member: discord.Member, where: discord.TextChannel
        ) -> None:
            await interaction.response.send_message(f"{member.display_name} in {where.name}", ephemeral=True)

        @tree.command(name="post", description="Post into the channel and answer")
        async def post(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.abc.Messageable)
            await interaction.response.send_message("posting", ephemeral=True)
            await interaction.channel.send("a public post")

        @tree.command(name="buttons", description="Show a button")
        async def buttons(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("press when ready", view=ButtonView())

        @tree.command(name="thread", description="Open a thread")
        async def thread(interaction: discord.Interaction, name: str) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            created = await interaction.channel.create_thread(
                name=name, type=discord.ChannelType.public_thread
            )
            await created.send("welcome")
            await interaction.response.send_message(f"opened {created.mention}")

        @tree.command(name="perms", description="Say what the bot may do here")
        async def perms(interaction: discord.Interaction) -> None:
            may = interaction.app_permissions
            said = [name for name in ("view_channel", "send_messages", "attach_files") if getattr(may, name)]
            await interaction.response.send_message(" ".join(said), ephemeral=True)

        @tree.command(name="dm", description="Send a direct message")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.user.send("your turn")
            await interaction.response.send_message("sent", ephemeral=True)

        @tree.command(name="upload", description="Read an uploaded file")
        async def upload(interaction: discord.Interaction, file: discord.Attachment) -> None:
            data = await file.read()
            await interaction.response.send_message(f"{file.filename} {len(data)}")

        @tree.error
        async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            original = getattr(error, "original", error)
            self.errors.append(type(original).__name__)
            if not interaction.response.is_done():
                await interaction.response.send_message(f"error: {original}", ephemeral=True)
