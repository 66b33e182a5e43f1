"""The command-limit validator accepts what Discord accepts and names what it would refuse."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.limits import LOCALES, check_commands, name_problem
from tests.fakediscord.server import FakeDiscord


def option(name: str, kind: int = 3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": f"The {name}", "type": kind, **extra}


def command(name: str = "game", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Manage games", "type": 1, **extra}


def sub(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return option(name, 1, options=list(options))


def only_problem(payloads: list[dict[str, Any]]) -> str:
    problems = check_commands(payloads)
    assert len(problems) == 1, problems
    return problems[0]


def test_a_real_tree_passes() -> None:
    bot = DemoBot()
    payloads = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    assert check_commands(payloads) == []


def test_what_discord_py_lets_through_is_caught() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    async def paint(interaction: discord.Interaction, colour: str) -> None:
        return None

    long_description: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="paint", description="x" * 120, callback=paint
    )
    many = [app_commands.Choice(name=f"colour {i}", value=f"c{i}") for i in range(30)]
    tree.add_command(app_commands.choices(colour=many)(long_description))
    problems = check_commands([c.to_dict(tree) for c in tree.get_commands()])
    assert problems == [
        "/paint: description must be 1-100 characters (has 120)",
        "/paint, option 'colour': has 30 choices (limit 25)",
    ]


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("game", True),
        ("jouer-un_coup", True),
        ("l'armée", True),
        ("खेल", True),
        ("เล่น", True),
        ("n2", True),
        ("Game", False),
        ("ÉQUIPE", False),
        ("two words", False),
        ("slash/", False),
        ("", False),
        ("x" * 32, True),
        ("x" * 33, False),
    ],
)
def test_name_pattern(name: str, ok: bool) -> None:
    assert (name_problem(name) is None) is ok


def test_names_descriptions_and_nesting_problems_are_named() -> None:
    assert only_problem([command("Game")]) == "/Game: name must be lower case (has 'G')"
    assert only_problem([command(description="")]) == "/game: description must be 1-100 characters (has 0)"
    bad_option = command(options=[option("who", description="y" * 101)])
    assert only_problem([bad_option]) == "/game, option 'who': description must be 1-100 characters (has 101)"
    deep = command(options=[option("admin", 2, options=[option("more", 2, options=[sub("x")])])])
    assert "/game admin more: subcommand groups cannot be nested" in only_problem([deep])
    mixed = command(options=[sub("new"), option("colour")])
    assert only_problem([mixed]) == "/game: mixes subcommands with ordinary options"
    in_group = command(options=[option("admin", 2, options=[option("colour")])])
    assert (
        only_problem([in_group])
        == "/game admin, option 'colour': a subcommand group may only contain subcommands"
    )


def test_counts_of_options_choices_and_subcommands() -> None:
    options = [option(f"o{i}") for i in range(26)]
    assert only_problem([command(options=options)]) == "/game: has 26 options (limit 25)"
    group = option("admin", 2, options=[sub(f"s{i}") for i in range(26)])
    assert only_problem([command(options=[group])]) == "/game admin: has 26 subcommands (limit 25)"
    choices = [{"name": f"n{i}", "value": i} for i in range(26)]
    assert only_problem([command(options=[option("n", 4, choices=choices)])]) == (
        "/game, option 'n': has 26 choices (limit 25)"
    )
    assert check_commands([command(options=[option("n", 4, choices=choices[:25])])]) == []


def test_choice_problems() -> None:
    long_name = [{"name": "z" * 101, "value": "z"}]
    assert "choice 'zzz" in only_problem([command(options=[option("pick", choices=long_name)])])
    long_value = [{"name": "z", "value": "v" * 101}]
    assert "value must be at most 100 characters (has 101)" in only_problem(
        [command(options=[option("pick", choices=long_value)])]
    )
    both = option("pick", choices=[{"name": "a", "value": "a"}], autocomplete=True)
    assert (
        only_problem([command(options=[both])])
        == "/game, option 'pick': cannot have both choices and autocomplete"
    )
    wrong_type = [{"name": "a", "value": "a"}]
    assert "must be an integer" in only_problem([command(options=[option("n", 4, choices=wrong_type)])])


def test_option_order_bounds_and_duplicates() -> None:
    order = command(options=[option("a"), option("b", required=True)])
    assert only_problem([order]) == "/game, option 'b': required options must come before optional ones"
    bounds = command(options=[option("n", 4, min_value=5, max_value=2)])
    assert only_problem([bounds]) == "/game, option 'n': min_value 5 is above max_value 2"
    twice = command(options=[option("a"), option("a")])
    assert only_problem([twice]) == "/game: repeats option names ['a']"
    assert only_problem([command(), command()]) == "command name 'game' is defined 2 times"


def test_localisations_are_checked() -> None:
    good = command(name_localizations={"fr": "partie"}, description_localizations={"fr": "Gérer les parties"})
    assert check_commands([good]) == []
    upper = command(name_localizations={"fr": "Partie"})
    assert only_problem([upper]) == "/game: name in fr must be lower case (has 'P')"
    unknown = command(description_localizations={"xx": "Hmm"})
    assert only_problem([unknown]) == "/game: description_localizations uses unknown locale 'xx'"
    long_choice = option(
        "pick", choices=[{"name": "a", "value": "a", "name_localizations": {"fr": "é" * 101}}]
    )
    assert "name in fr must be 1-100 characters" in only_problem([command(options=[long_choice])])


def test_context_menus_allow_spaces_but_no_description() -> None:
    menu = {"name": "Show Board", "type": 3, "description": ""}
    assert check_commands([menu]) == []
    assert only_problem([{**menu, "description": "x"}]) == (
        "context menu 'Show Board': context-menu commands must have an empty description"
    )


def _sized(total: int) -> dict[str, Any]:
    """A valid command of exactly `total` counted characters (names, descriptions, localisations)."""
    locales = sorted(LOCALES)[:20]
    payload = command(name="big", description="d" * 100)  # 103
    options = []
    remaining = total - 103
    for i in range(4):
        descriptions = {}
        remaining -= 3 + 100  # "o0i" and its description
        for locale in locales:
            if remaining <= 0:
                break
            size = min(100, remaining)
            descriptions[locale] = "l" * size
            remaining -= size
        options.append(option(f"o0{i}", description="p" * 100, description_localizations=descriptions))
    assert remaining == 0
    payload["options"] = options
    return payload


def test_character_total_counts_every_localisation() -> None:
    assert check_commands([_sized(8000)]) == []
    assert only_problem([_sized(8001)]) == (
        "/big: has 8001 characters in names, descriptions, choices and localisations (limit 8000)"
    )
    with_choices = copy.deepcopy(_sized(8000))
    with_choices["options"][0]["choices"] = [{"name": "c", "value": "v"}]
    assert "has 8002 characters" in only_problem([with_choices])


class ShoutingTranslator(app_commands.Translator):
    """Translates names into capitals, which Discord refuses for slash command names."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        if locale is not discord.Locale.french:
            return None
        if context.location is app_commands.TranslationContextLocation.command_name:
            return string.message.upper()
        return f"FR {string.message}"


class TranslatedBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

        @self.tree.command(name="hello", description="Say hello")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello")

    async def setup_hook(self) -> None:
        await self.tree.set_translator(ShoutingTranslator())
        await self.tree.sync()


async def test_synced_payload_includes_translations_that_to_dict_omits() -> None:
    async with FakeDiscord() as fake:
        bot = TranslatedBot()
        await fake.start_bot(bot)
        assert check_commands([c.to_dict(bot.tree) for c in bot.tree.get_commands()]) == []
        (synced,) = fake.commands
        assert synced["description_localizations"] == {"fr": "FR Say hello"}
        assert check_commands(fake.commands) == ["/hello: name in fr must be lower case (has 'EHLO')"]
