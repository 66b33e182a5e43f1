"""The play-by-post service on the fake Discord: reminders from the real loop with an injected clock,
/games, /notify (with a refused direct message), /settings and moderation's role checks, in English
and French, a failed interaction answer that falls back to a channel post, and a command Discord
refused to have acknowledged, which does nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import db
import i18n
from bot import TabletopBot, build_bot
from launch import Settings
from table.core.clock import ManualClock
from tests.discord.support import CONFIRMED, Room, current_board, open_room, start
from tests.discord.tables import ticks, until
from tests.fakediscord.model import ADMIN_PERMISSIONS, MODERATOR_PERMISSIONS, FakeUser
from tests.fakediscord.server import FakeDiscord, InteractionTimeout

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


@dataclass
class Service:
    fake: FakeDiscord
    room: Room
    clock: ManualClock
    settings: Settings
    bot: TabletopBot

    async def restart(self) -> None:
        await self.fake.stop_bot()
        self.bot = build_bot(self.settings, clock=self.clock)
        await self.fake.start_bot(self.bot)

    async def ticks(self, more: int = 2) -> None:
        await ticks(self.bot, more)

    async def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))
        await self.ticks()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    from tests.discord.support import Bot

    settings = Settings(database_path=tmp_path / "bot.sqlite3", coalesce_seconds=0, tick_seconds=0.02)
    clock = ManualClock(T0)
    async with FakeDiscord() as fake:
        room = open_room(
            Bot(fake, settings), ("Les Joueurs", "en-US"), "jeux", ("alice", "fr"), ("bob", "en-GB")
        )
        bot = build_bot(settings, clock=clock)
        await fake.start_bot(bot)
        yield Service(fake, room, clock, settings, bot)
        assert fake.unknown_requests == []


def reminders(svc: Service) -> list[str]:
    return [m.content for m in svc.fake.messages_in(svc.room.chan) if m.content.startswith("⏰")]


async def opened(svc: Service, options: str = "") -> tuple[FakeUser, FakeUser]:
    """A two-player War Chest table, started; (the player to act, the other)."""
    fake, chan = svc.fake, svc.room.chan
    alice, bob = svc.room.users.values()
    await fake.slash(alice, chan, "game new", game="warchest", options=f"seed=4 {options}".strip())
    await fake.slash(bob, chan, "game join")
    first = await start(svc.room, alice)
    (mover,) = [svc.room.users[p] for p in first.pinged_ids]
    return mover, (bob if mover is alice else alice)


async def test_reminders_come_from_the_loop_and_survive_a_restart_without_doubling(service: Service) -> None:
    mover, _other = await opened(service, "remind=24h")
    await service.later(hours=23)
    assert reminders(service) == []
    await service.later(hours=2)
    await until(lambda: len(reminders(service)) == 1, "the first reminder")
    (text,) = reminders(service)
    post = next(m for m in service.fake.messages_in(service.room.chan) if m.content == text)
    assert post.pinged_ids == [mover.id]
    assert f"<t:{int(T0.timestamp())}:R>" in text
    await service.restart()
    await service.ticks(3)
    assert len(reminders(service)) == 1, "a restart neither drops nor doubles a reminder"
    await service.later(hours=24)
    await until(lambda: len(reminders(service)) == 2, "the second reminder")


async def test_my_games_and_a_refused_direct_message(service: Service) -> None:
    fake, chan = service.fake, service.room.chan
    alice, bob = service.room.users.values()
    alice.dms_open = False
    for user in (alice, bob):
        r = await fake.slash(user, chan, "notify", dm=True)
        assert r.ephemeral
    french = await fake.slash(alice, chan, "notify")
    assert "message privé" in french.content and "/notifier" in french.content
    mover, other = await opened(service)
    r = await service.fake.slash(other, chan, "games")
    assert r.ephemeral and ("War Chest" in r.content or "Champ d'honneur" in r.content)
    assert f"<#{chan.id}>" in r.content
    mine = await service.fake.slash(mover, chan, "games")
    assert ("**à vous de jouer**" if mover is alice else "**your turn**") in mine.content
    choices = await fake.autocomplete(mover, chan, "play", focused="action", action="")
    played = await fake.slash(mover, chan, "play", action=str(choices[0][1]))
    assert played.content.startswith(CONFIRMED)
    if other is bob:
        await until(lambda: len(fake.dms_to(bob)) >= 1, "a direct message to bob")
        assert f"/channels/{chan.guild_id}/{chan.id}" in fake.dms_to(bob)[-1].content
    assert fake.dms_to(alice) == [], "closed DMs: no message, and no error"
    assert f"<@{other.id}>" in current_board(fake, chan).content, "the channel mention stands"


async def test_the_text_board_by_choice_after_a_move_and_in_the_direct_message(service: Service) -> None:
    """``/notify dm:True text:True``: the mover's reply brings the position as text in a private
    follow-up, and the direct message at the other's turn holds it too."""
    fake, chan = service.fake, service.room.chan
    for user in service.room.users.values():
        r = await fake.slash(user, chan, "notify", dm=True, text=True)
        assert r.ephemeral and ("text" in r.content or "texte" in r.content)
    walk = {i18n.t("render.tb.units", lang) for lang in i18n.LOCALES}
    mover, other = await opened(service)
    choices = await fake.autocomplete(mover, chan, "play", focused="action", action="")
    played = await fake.slash(mover, chan, "play", action=str(choices[0][1]))
    assert played.content.startswith(CONFIRMED)
    (board,) = [m for m in played.messages if walk & set(m.content.splitlines())]
    assert board.ephemeral
    await until(lambda: len(fake.dms_to(other)) >= 1, "a direct message at the other's turn")
    assert walk & set("\n".join(m.content for m in fake.dms_to(other)).splitlines())


async def test_settings_are_for_managers_and_switch_the_public_language(service: Service) -> None:
    fake, chan = service.fake, service.room.chan
    alice, _bob = service.room.users.values()
    admin = fake.add_user("admin", permissions=ADMIN_PERMISSIONS)
    refused = await fake.slash(alice, chan, "settings", language="fr")
    assert refused.ephemeral and "gérer le serveur" in refused.content
    saved = await fake.slash(admin, chan, "settings", language="fr", remind="12h")
    assert saved.ephemeral and "Saved." in saved.content and "remind=12h" in saved.content
    await opened(service)
    board = current_board(fake, chan)
    assert "commence" in board.content, "the server's language, not Discord's en-US"
    await fake.slash(admin, chan, "settings", language="en")
    await fake.slash(alice, chan, "game board")
    english = [m for m in fake.messages_in(chan) if m.interaction_id is not None and m.files][-1]
    assert "War Chest, round 1." in english.content, english.content


async def test_only_moderators_end_or_close_a_game_at_once(service: Service) -> None:
    fake, chan = service.fake, service.room.chan
    mover, other = await opened(service)
    mod = fake.add_user("mod", permissions=MODERATOR_PERMISSIONS, locale="fr")
    refused = await fake.slash(other, chan, "game end", winner=other)
    assert refused.ephemeral and (
        "Only moderators" in refused.content or "Seuls les modérateurs" in refused.content
    )
    vote = await fake.slash(other, chan, "game abort")
    assert not vote.ephemeral and "1/2" in vote.content, "a player votes"
    ended = await fake.slash(mod, chan, "game end", winner=mover)
    assert ended.ephemeral
    end = current_board(fake, chan)
    assert f"<@{mod.id}>" in end.content and "moderator" in end.content
    assert f"Winner: <@{mover.id}>" in end.content or "Victoire" in end.content


async def test_a_failed_answer_falls_back_to_a_channel_post(tmp_path: Path) -> None:
    """The command was acknowledged, then Discord refused its answer (here: the token expired):
    what everyone was to see still appears, in the channel."""
    settings = Settings(database_path=tmp_path / "bot.sqlite3", coalesce_seconds=0)
    async with FakeDiscord() as fake:
        chan = fake.add_channel(fake.add_guild("G"), "general")
        alice = fake.add_user("alice")
        await fake.start_bot(build_bot(settings))
        fake.expire_tokens(chan.id)
        with pytest.raises(InteractionTimeout, match="never completed"):
            await fake.slash(alice, chan, "game new", game="warchest")
        posted = lambda: [m for m in fake.messages_in(chan) if m.interaction_id is None]  # noqa: E731
        await until(lambda: bool(posted()), "the lobby in the channel")
        (post,) = posted()  # beside the acknowledgement's "thinking...", which Discord then ends
        assert "opened a table for War Chest" in post.content


async def test_a_command_too_late_to_acknowledge_does_nothing(tmp_path: Path) -> None:
    """Discord refused the acknowledgement itself (here: always too late): the command does not run,
    since nobody would be told; the player's client showed that it failed."""
    settings = Settings(database_path=tmp_path / "bot.sqlite3", coalesce_seconds=0)
    async with FakeDiscord(response_deadline=0.0) as fake:
        chan = fake.add_channel(fake.add_guild("G"), "general")
        alice = fake.add_user("alice")
        await fake.start_bot(build_bot(settings))
        with pytest.raises(InteractionTimeout, match="10062"):
            await fake.slash(alice, chan, "game new", game="warchest")
        await fake.stop_bot()
        assert fake.messages_in(chan) == []
        store = await db.open_store(settings.database_path)
        try:
            assert await store.latest_game(chan.id) is None, "no table was opened"
        finally:
            await store.close()


async def test_an_edit_discord_refuses_becomes_a_new_post_without_a_ping(service: Service) -> None:
    fake, chan = service.fake, service.room.chan
    alice, bob = service.room.users.values()
    await fake.slash(
        alice, chan, "game new", game="batailles", options="armies=classic map=open_field seed=5"
    )
    await fake.slash(bob, chan, "game join")
    start_post = (await start(service.room, alice)).board
    start_post.make_old(timedelta(hours=2))  # Discord refuses (30046) edits of this old a message
    r = await fake.slash(alice, chan, "play", action="deploy inf1 a1 n")
    assert r.content.startswith(CONFIRMED)
    board = current_board(fake, chan)
    assert board is not start_post and board.edits == 0
    assert board.pinged_ids == [], "the same players still act: nobody is pinged again"
    assert "inf1" in board.content and board.files
    assert any(req.body and req.body.get("code") == 30046 for req in fake.rejections)


async def test_quiet_hours_and_time_off_on_discord(service: Service) -> None:
    """Through the fake Discord, the real loop and an injected clock: the time zone autocompletes and
    an unknown one is refused with the closest; a handover in the players' quiet hours (23:00 in
    Paris) names the player without pinging them, and one ping follows at 07:00 there; time off
    holds a forfeit deadline, is told in the channel once and shown in /games, in each one's language."""
    fake, chan = service.fake, service.room.chan
    alice, bob = service.room.users.values()
    choices = await fake.autocomplete(alice, chan, "notify", focused="timezone", timezone="paris")
    assert ("Europe/Paris", "Europe/Paris") in choices
    refused = await fake.slash(bob, chan, "notify", timezone="Europe/Pariss")
    assert refused.ephemeral and "Did you mean Europe/Paris" in refused.content
    for user in (alice, bob):
        r = await fake.slash(user, chan, "notify", timezone="Europe/Paris", quiet="22:00-07:00")
        assert r.ephemeral and "22:00-07:00" in r.content
    service.clock.set(datetime(2026, 12, 1, 22, 0, tzinfo=UTC))
    await fake.slash(
        alice, chan, "game new", game="warchest", options="seed=4 remind=off deadline=1d on_deadline=forfeit"
    )
    await fake.slash(bob, chan, "game join")
    first = await start(service.room, alice)
    assert first.board.pinged_ids == [], "named, not pinged, in their quiet hours"
    (mover,) = [u for u in (alice, bob) if f"<@{u.id}>" in first.board.content.splitlines()[-1]]
    other = bob if mover is alice else alice
    await service.later(hours=7, minutes=59)
    assert not [m for m in fake.messages_in(chan) if m.content.startswith("🔔")]
    await service.later(minutes=1)  # 06:00 UTC: 07:00 in Paris
    await until(lambda: any(m.content.startswith("🔔") for m in fake.messages_in(chan)), "the held ping")
    (ping,) = [m for m in fake.messages_in(chan) if m.content.startswith("🔔")]
    assert ping.pinged_ids == [mover.id]
    away = await fake.slash(mover, chan, "away", option_values={"for": "2d"})
    assert away.ephemeral and ("absent·e" if mover is alice else "You are away") in away.content
    await until(lambda: any("⏸" in m.content for m in fake.messages_in(chan)), "the channel told")
    games = await fake.slash(other, chan, "games")
    assert ("absent·e jusqu'au" if other is alice else "away until") in games.content
    await service.later(days=1, hours=1)
    assert (await service.room.record()).status == "active", "the deadline waits for them"
    await service.later(days=2)
    assert (await service.room.record()).status == "over"
    assert sum("⏸" in m.content for m in fake.messages_in(chan)) == 1, "told once"
