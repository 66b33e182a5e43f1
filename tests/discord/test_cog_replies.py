"""How the cogs answer on Discord, over a scripted stand-in for the table layer.

The table layer decides what to say; the cogs decide how it reaches Discord:
which message answers the interaction, what is ephemeral, who is pinged, when to
defer (always, first), how errors look. These tests pin that down through the fake Discord,
independently of the real game rules.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import build_bot
from engine import NotYourTurn
from engine.text import PlayerRef
from launch import Settings
from table.play.commands import Ctx, Post
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.world import HANG_LIMIT


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buf, format="PNG")
    return buf.getvalue()


@dataclass
class ScriptedCommands:
    """Answers each command from a small script and records the contexts it was called with."""

    bob_id: str = ""
    calls: list[tuple[str, Ctx, tuple[Any, ...]]] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)  # "slow" work waits for it

    async def new(
        self,
        ctx: Ctx,
        game: str,
        players: int | None = None,
        options: str = "",
        bots: int = 0,
        level: str | None = None,
    ) -> list[Post]:
        self.calls.append(("new", ctx, (game, players, options) + ((bots, level) if bots or level else ())))
        return [Post(f"lobby {game} by <@{ctx.user_id}>", mentions=(ctx.user_id,))]

    async def bot_may(self, ctx: Ctx, may: Any) -> None:
        """What the bot may do in the channel: nothing refuses it in these tests."""

    async def notices(self, ctx: Ctx) -> list[Post]:
        return []

    async def play(self, ctx: Ctx, action: str) -> list[Post]:
        self.calls.append(("play", ctx, (action,)))
        if action == "wait":
            raise NotYourTurn("error.not_your_turn", waiting=PlayerRef(self.bob_id))
        if action == "crash":
            raise RuntimeError("secret internals")
        if action == "slow":
            await self.gate.wait()
        if action == "long":
            return [Post("\n".join(f"line {i:04d} " + "x" * 40 for i in range(100)))]
        return [
            Post(
                f"moved; <@{self.bob_id}> to play, not <@{ctx.user_id}>", image=png(), mentions=(self.bob_id,)
            ),
            Post("only for you", ephemeral=True),
        ]

    async def board(self, ctx: Ctx, details: bool = False, text: bool = False) -> list[Post]:
        """A slow public command whose first post is private (waits for the gate)."""
        self.calls.append(("board", ctx, ()))
        await self.gate.wait()
        return [
            Post("only for you", ephemeral=True),
            Post(f"the board; <@{self.bob_id}> to play", image=png()),
        ]

    async def hand(self, ctx: Ctx) -> list[Post]:
        self.calls.append(("hand", ctx, ()))
        return [Post("your coins", image=png(), filename="hand.png", ephemeral=True)]

    async def status(self, ctx: Ctx) -> list[Post]:
        self.calls.append(("status", ctx, ()))
        return []

    async def autocomplete(self, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
        self.calls.append(("autocomplete", ctx, (typed,)))
        if typed == "boom":
            raise RuntimeError("autocomplete bug")
        return [(f"choice {i} " + "y" * 120, f"v1:act {i}") for i in range(30)]


@dataclass
class Scene:
    fake: FakeDiscord
    chan: FakeChannel
    alice: FakeUser
    bob: FakeUser
    table: ScriptedCommands


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Les Joueurs", locale="fr")
        chan = fake.add_channel(guild, "general")
        alice = fake.add_user("alice", locale="fr", global_name="Alice A.")
        bob = fake.add_user("bob", locale="en-GB")
        table = ScriptedCommands(bob_id=bob.id)
        bot = build_bot(Settings(database_path=tmp_path / "unused.sqlite3"), table)  # type: ignore[arg-type]
        await fake.start_bot(bot)
        yield Scene(fake, chan, alice, bob, table)
        assert fake.unknown_requests == [] and fake.rejections == []


async def test_context_comes_from_the_interaction(scene: Scene) -> None:
    r = await scene.fake.slash(scene.alice, scene.chan, "game new", game="warchest", players=2)
    name, ctx, args = scene.table.calls[-1]
    assert (name, args) == ("new", ("warchest", 2, ""))
    await scene.fake.slash(scene.alice, scene.chan, "game new", game="warchest", bots=1, level="hard")
    assert scene.table.calls[-1][2] == ("warchest", None, "", 1, "hard"), "bots and level reach the table"
    assert ctx == Ctx(
        channel_id=scene.chan.id,
        user_id=scene.alice.id,
        user_name="Alice A.",
        locale="fr",
        channel_locale="fr",
        guild_id=scene.chan.guild_id,
    )
    assert not ctx.moderator and not ctx.admin, "an ordinary member"
    assert not r.ephemeral and r.deferred, "acknowledged first, publicly: the answer is public"
    assert r.content == f"lobby warchest by <@{scene.alice.id}>"
    assert r.messages[0].pinged_ids == [scene.alice.id]


async def test_a_move_posts_a_public_png_pinging_only_the_next_player(scene: Scene) -> None:
    r = await scene.fake.slash(scene.alice, scene.chan, "play", action="v3:move archer e1 e2")
    assert scene.table.calls[-1][2] == ("v3:move archer e1 e2",)
    first, second = [m for m in r.messages if not m.deleted]  # the private "thinking..." gives way
    assert not first.ephemeral and first.files and first.files[0][0] == "board.png"
    Image.open(io.BytesIO(first.files[0][1])).verify()
    assert first.mentioned_ids == [scene.bob.id, scene.alice.id]
    assert first.pinged_ids == [scene.bob.id]
    assert second.ephemeral and second.content == "only for you"


async def test_refusals_are_ephemeral_and_in_the_users_language(scene: Scene) -> None:
    r = await scene.fake.slash(scene.alice, scene.chan, "play", action="wait")
    assert r.ephemeral and r.deferred
    assert r.content == f"Ce n'est pas votre tour : on attend <@{scene.bob.id}>."
    assert r.messages[0].pinged_ids == []
    r = await scene.fake.slash(scene.bob, scene.chan, "play", action="wait")
    assert r.ephemeral and r.content.startswith("It is not your turn")


async def test_a_bug_gets_an_apology_never_a_traceback(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    r = await scene.fake.slash(scene.bob, scene.chan, "play", action="crash")
    assert r.ephemeral
    assert r.content.startswith("Sorry, something went wrong")
    assert "secret internals" not in r.content and "Traceback" not in r.content
    assert any("secret internals" in str(rec.exc_info) for rec in caplog.records if rec.exc_info)


async def _while_the_work_waits(
    scene: Scene, command: str, *, private: bool, **options: str
) -> InteractionResult:
    """Run ``command`` and check what the user sees while its work is still blocked on the gate:
    an acknowledgement (private or public, as the command's kind wants) before the work ends."""
    called = len(scene.table.calls)
    task = asyncio.create_task(scene.fake.slash(scene.alice, scene.chan, command, **options))
    early = await scene.fake.first_answer()
    assert early.deferred and early.ephemeral == private, "acknowledged before the work is done"
    # The handler reaches the work after its acknowledgement, on a busy machine some turns later.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANG_LIMIT
    while len(scene.table.calls) == called and not task.done() and loop.time() < deadline:
        await asyncio.sleep(0.005)
    assert not task.done() and scene.table.calls[-1][0] == command.split()[-1]
    scene.table.gate.set()
    return await task


async def test_a_slow_move_is_acknowledged_privately_then_answered(scene: Scene) -> None:
    """A move's public part goes to the channel by itself: its answer, even late, stays quiet."""
    r = await _while_the_work_waits(scene, "play", private=True, action="slow")
    assert r.deferred and r.response_flags & 64, "acknowledged privately"
    posted = [m for m in scene.fake.messages_in(scene.chan)]
    assert [m.content for m in posted] == [f"moved; <@{scene.bob.id}> to play, not <@{scene.alice.id}>"]
    assert posted[0].files and posted[0].files[0][0] == "board.png" and not posted[0].ephemeral
    assert any(m.content == "only for you" and m.ephemeral for m in r.messages)


async def test_a_private_answer_after_a_public_deferral_stays_private(scene: Scene) -> None:
    """The deferral made a public "thinking..." message; the bot deletes it rather than fill it
    with a text meant for one user (Discord would show the first follow-up publicly)."""
    r = await _while_the_work_waits(scene, "game board", private=False)
    public = scene.fake.messages_in(scene.chan)
    assert [m.content for m in public] == [f"the board; <@{scene.bob.id}> to play"]
    assert r.original is not None and r.original.deleted
    secret = [m for m in r.messages if m.content == "only for you"]
    assert len(secret) == 1 and secret[0].ephemeral


async def test_long_texts_are_split_under_discords_limit(scene: Scene) -> None:
    r = await scene.fake.slash(scene.alice, scene.chan, "play", action="long")
    assert len([m for m in r.messages if not m.deleted]) == 3
    assert all(len(c) <= 2000 for c in r.contents)
    assert "\n".join(r.contents).count("line ") == 100


async def test_hand_is_ephemeral_with_its_image(scene: Scene) -> None:
    r = await scene.fake.slash(scene.bob, scene.chan, "hand")
    assert r.ephemeral
    assert [name for name, _ in r.files] == ["hand.png"]
    assert r.content == "your coins"


async def test_an_empty_answer_still_acknowledges(scene: Scene) -> None:
    r = await scene.fake.slash(scene.bob, scene.chan, "game status")
    assert r.ephemeral and r.content == "Done."


async def test_autocomplete_respects_discords_limits_and_swallows_errors(scene: Scene) -> None:
    choices = await scene.fake.autocomplete(scene.alice, scene.chan, "play", focused="action", action="ch")
    assert len(choices) == 25
    assert all(len(name) <= 100 for name, _ in choices)
    assert choices[0][1] == "v1:act 0"
    assert scene.table.calls[-1][2] == ("ch",)
    assert (
        await scene.fake.autocomplete(scene.alice, scene.chan, "play", focused="action", action="boom") == []
    )


async def test_new_game_in_a_thread(scene: Scene) -> None:
    r = await scene.fake.slash(scene.alice, scene.chan, "game new", game="warchest", thread=True)
    ctx = scene.table.calls[-1][1]
    thread = scene.fake.channels[ctx.channel_id]
    assert thread.is_thread and thread.id != scene.chan.id
    assert "Champ d'honneur" in thread.name and "Alice A." in thread.name
    assert [m.content for m in scene.fake.messages_in(thread)] == [f"lobby warchest by <@{scene.alice.id}>"]
    assert not r.ephemeral and f"<#{thread.id}>" in r.content


async def test_inside_a_thread_the_thread_is_the_channel(scene: Scene) -> None:
    thread = scene.fake.add_thread(scene.chan, "side game")
    await scene.fake.slash(scene.bob, thread, "game new", game="warchest")
    assert scene.table.calls[-1][1].channel_id == thread.id


async def test_start_up_syncs_globally_with_french_names(scene: Scene) -> None:
    synced = {c["name"]: c for c in scene.fake.global_commands}
    assert set(synced) == {
        "game",
        "play",
        "hand",
        "games",
        "leaderboard",
        "history",
        "stats",
        "notify",
        "away",
        "settings",
        "league",
    }
    assert synced["game"]["name_localizations"] == {"fr": "partie"}
    assert scene.fake.guild_commands == {}


async def test_start_up_syncs_to_the_dev_guild_when_set(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Dev")
        fake.add_channel(guild, "tests")
        settings = Settings(database_path=tmp_path / "unused.sqlite3", dev_guild_id=int(guild.id))
        await fake.start_bot(build_bot(settings, ScriptedCommands()))  # type: ignore[arg-type]
        assert fake.global_commands == []
        assert {c["name"] for c in fake.guild_commands[guild.id]} == {
            "game",
            "play",
            "hand",
            "games",
            "leaderboard",
            "history",
            "stats",
            "notify",
            "away",
            "settings",
            "league",
        }


async def test_a_restart_with_the_same_commands_does_not_sync_them_again(tmp_path: Path) -> None:
    """A crash loop or a redeploy must not hit Discord's command rate limit: the bot stores a hash of
    the translated payload and syncs only when it changed, or when SYNC_COMMANDS=1 forces it."""
    settings = Settings(database_path=tmp_path / "bot.sqlite3")
    async with FakeDiscord() as fake:
        fake.add_channel(fake.add_guild("G"), "general")
        for _ in range(2):
            await fake.start_bot(build_bot(settings))
            await fake.stop_bot()
        assert fake.command_puts == 1
        assert {c["name"] for c in fake.global_commands} >= {"game", "play", "hand"}
        await fake.start_bot(
            build_bot(Settings.from_env({"DATABASE_PATH": str(settings.database_path), "SYNC_COMMANDS": "1"}))
        )
        await fake.stop_bot()
        assert fake.command_puts == 2
