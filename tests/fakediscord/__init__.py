"""A fake Discord on 127.0.0.1 for end-to-end tests of the bot, and an offline command-limit check.

    from tests.fakediscord import FakeDiscord, check_commands

    async with FakeDiscord() as fake:
        guild = fake.add_guild("G", locale="fr")
        chan = fake.add_channel(guild, "general")
        alice, bob = fake.add_user("alice"), fake.add_user("bob", locale="fr")
        await fake.start_bot(bot)                      # an unmodified discord.py Bot
        assert check_commands(fake.commands) == []     # what tree.sync() sent, translations included
        r = await fake.slash(alice, chan, "game new", game="warchest")
        r.ephemeral, r.deferred, r.content, r.files, r.messages
        choices = await fake.autocomplete(bob, chan, "play", focused="action", action="arc")
        await fake.click(bob, r.original, "custom-id")
        fake.messages_in(chan), fake.dms_to(alice), fake.unknown_requests, fake.rejections
        fault = fake.inject("missing_permissions", channel=chan)   # Discord refuses: 403, 50013
        fake.deny_bot(chan, "attach_files"); fake.set_locked(thread); fake.delete_channel(chan)
        fake.channel_requests.busiest(chan.id, 5.0)    # within Discord's rate of posts per channel?
        await fake.close_gateway(4000); await fake.invalidate_session()
        await fake.stop_bot()                          # then start_bot(new_bot) for a restart

See `server.py` for the harness, `model.py` for the records, `faults.py` for what Discord refuses,
`limits.py` for the validator.
"""

from tests.fakediscord.limits import check_commands
from tests.fakediscord.model import FakeChannel, FakeGuild, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord, InteractionTimeout, RecordedRequest

__all__ = [
    "HANG_LIMIT",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "InteractionResult",
    "InteractionTimeout",
    "RecordedRequest",
    "SentMessage",
    "check_commands",
]
