"""``/game rules`` through the table layer: every game's pages and topics, in English and French.

The rulebooks are built from the engines' own data, so these tests read the ids from that data
(``units.json``, ``factions.json``, ``terrain.json``...) and check that each has a topic whose texts
exist in both catalogs: a unit or card added without its rules text fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import db
import engine
import i18n
from engine.batailles import rules as bt_rules
from engine.batailles.actions import _PARSERS as BT_PARSERS
from engine.batailles.troops import STATS
from engine.cryhavoc import content as ch
from engine.cryhavoc.actions import VERBS as CH_VERBS
from engine.text import Msg
from engine.warchest.parse import VERBS as WC_VERBS
from engine.warchest.units import COINS
from table.core.errors import TableError
from table.core.text import lexicon
from table.play.commands import Commands, Ctx
from table.rules.games import batailles, cryhavoc, warchest
from table.rules.games.batailles import BT_TERRAIN
from table.rules.games.cryhavoc import CH_ACTIONS, CH_PHASES, CH_VERB_TOPICS
from table.rules.rule_topics import PAGES, rulebook
from table.rules.rulebook import Rulebook, Topic, render
from tests.discord.support import stand_in_commands, tiny_png

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("warchest", "batailles", "cryhavoc")
LIMIT = 1900
"""What a rules reply may hold: Discord's 2000 characters, with the room the table keeps."""
KEY_LIKE = re.compile(r"\b(?:rules|table|ch|wc|bt)\.[a-z_]+(?:\.[a-z_0-9]+)+")
"""A catalog key shown as it is: the catalog lacks it."""


def book_of(game: str) -> Rulebook:
    book = rulebook(game)
    assert book is not None
    return book


def title(game: str, lang: str) -> str:
    return i18n.t(f"table.game.{game}", lang)


def text_of(book: Rulebook, topic: Topic, lang: str) -> str:
    return render(book, topic, title(book.game, lang), lang)


def keys_in(value: Any) -> Iterator[str]:
    """Every catalog key a message (or a list of them) renders, its parameters' included."""
    if isinstance(value, Msg):
        yield value.key
        for param in value.params.values():
            yield from keys_in(param)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from keys_in(item)


def missing_texts(book: Rulebook) -> set[str]:
    """The catalog keys a rulebook needs that one of the languages lacks."""
    used = {key for topic in book.topics for key in keys_in([topic.title, *topic.body])}
    used |= {group.key for group in book.groups} | {f"table.rules.kind.{t.kind}" for t in book.topics}
    return {key for key in used for lang in i18n.LOCALES if key not in i18n.catalog(lang)}


def data(path: str) -> Any:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    """The real table layer over a store, with every game the bot knows."""
    async with stand_in_commands(tmp_path / "rules.sqlite3") as cmds:
        yield cmds


def reader(lang: str = "en", channel: str = "chan", user: str = "alice") -> Ctx:
    return Ctx(channel, user, user.capitalize(), lang, lang)


# ---- content: every topic, both languages, one message each ---------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_text_a_rulebook_uses_is_in_both_catalogs(game: str) -> None:
    assert missing_texts(book_of(game)) == set()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_every_topic_reads_whole_within_one_discord_message(game: str, lang: str) -> None:
    book = book_of(game)
    for topic in book.topics:
        text = text_of(book, topic, lang)
        assert len(text) <= LIMIT, f"{game} {topic.id} in {lang}: {len(text)} characters"
        assert not KEY_LIKE.search(text), f"{game} {topic.id} in {lang}: {KEY_LIKE.search(text)}"
        assert "{" not in text and "}" not in text, f"{game} {topic.id} in {lang}: a placeholder left"
        assert "\u2019" not in text


@pytest.mark.parametrize("game", GAMES)
def test_every_topic_is_written_in_french_too(game: str) -> None:
    book = book_of(game)
    for topic in book.topics:
        english, french = text_of(book, topic, "en"), text_of(book, topic, "fr")
        assert english != french, topic.id
        assert i18n.t(topic.body[0], "en") != i18n.t(topic.body[0], "fr"), topic.id


def test_every_unit_card_structure_and_skill_the_engines_know_has_a_topic() -> None:
    units = data("engine/warchest/units.json")["coins"]
    factions = data("engine/cryhavoc/data/factions.json")
    terrain = data("engine/cryhavoc/data/terrain.json")
    expected = {
        "warchest": {(u, "unit") for u in units},
        "cryhavoc": {
            *((c["kind"], "card") for f in factions.values() for c in f["deck"]),
            *((c["kind"], "card") for deck in terrain.values() for c in deck),
            *((s, "structure") for f in factions.values() for s in f["structures"]),
            *((s, "skill") for f in factions.values() for s in f["skills"]),
            *((f, "faction") for f in factions),
            *((t, "deck") for t in terrain),
            *((p, "phase") for p in ("events", "draw_cards", "prisoners")),
            *((a, "action") for a in CH_ACTIONS),
        },
        "batailles": {
            *((s, "stat") for s in ("movement", "attack", "defence", "range", "command", "logistics")),
            *((t, "terrain") for t in ("forest", "building", "river", "hill")),
            *(
                (r, "rule")
                for r in ("facing", "hits", "morale", "advantage", "threshold", "hardcore", "coordination")
            ),
        },
    }
    for game, wanted in expected.items():
        have = {(t.id, t.kind) for t in book_of(game).topics}
        assert wanted <= have, f"{game} lacks {sorted(wanted - have)}"
    wc = book_of("warchest")
    for unit in units:
        assert Msg(f"rules.warchest.unit.{unit}") in wc.by_id[unit].body
    assert tuple(STATS) == ("movement", "attack", "defence", "range", "command", "logistics")
    assert set(BT_TERRAIN) == {"forest", "building", "river", "hill"}


def test_every_summary_page_and_cry_havoc_phase_is_there() -> None:
    for game in GAMES:
        book = book_of(game)
        assert book.pages == PAGES
        assert [t.id for t in book.topics[: len(PAGES)]] == list(PAGES)
    cry = book_of("cryhavoc")
    assert len(CH_PHASES) == 6 and all(p in cry.by_id for p in CH_PHASES)
    phases = next(g for g in cry.groups if g.key == "table.rules.group.phases")
    assert phases.ids == CH_PHASES


def test_a_unit_or_card_added_without_its_rules_text_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new card or unit in the engines' data does to the coverage check above."""
    monkeypatch.setitem(
        ch.CARDS,
        "hu_catapult",
        {
            "kind": "hu_catapult",
            "copies": 1,
            "points": {"build": 1},
            "symbols": [],
            "battle": {"do": "siege"},
            "faction": "humans",
            "terrain": None,
        },
    )
    monkeypatch.setitem(COINS, "catapult", 4)
    assert {"ch.card.hu_catapult", "rules.cryhavoc.battle.siege"} <= missing_texts(cryhavoc.book())
    assert {"wc.unit.catapult", "rules.warchest.unit.catapult"} <= missing_texts(warchest.book())


def test_every_verb_a_player_types_is_explained() -> None:
    assert set(CH_VERB_TOPICS) == set(CH_VERBS)
    cry = book_of("cryhavoc")
    for verb, tid in CH_VERB_TOPICS.items():
        assert f"`{verb}" in text_of(cry, cry.by_id[tid], "en"), (verb, tid)
    for game, verbs in (("warchest", WC_VERBS), ("batailles", tuple(BT_PARSERS))):
        book = book_of(game)
        everything = "\n".join(text_of(book, t, "en") for t in book.topics)
        assert not [v for v in verbs if f"`{v}" not in everything], game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_the_first_page_leads_to_every_topic(game: str, lang: str) -> None:
    """Each topic is named on the overview, or on a topic the overview names (a faction lists its
    cards, structures and skills; a terrain deck its cards)."""
    book = book_of(game)
    first = text_of(book, book.by_id[PAGES[0]], lang)
    named = {t.id for t in book.topics if i18n.t(t.title, lang) in first}
    reachable = set(named)
    for tid in named:
        reachable |= {
            t.id for t in book.topics if i18n.t(t.title, lang) in text_of(book, book.by_id[tid], lang)
        }
    assert set(book.by_id) == reachable, sorted(set(book.by_id) - reachable)
    assert set(PAGES) <= named


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_each_page_says_which_page_it_is_and_names_the_next(game: str, lang: str) -> None:
    book = book_of(game)
    for number, page in enumerate(PAGES, start=1):
        text = text_of(book, book.by_id[page], lang)
        assert f"(page {number}/{len(PAGES)})" in text.splitlines()[0]
        last = text.splitlines()[-1]
        if number < len(PAGES):
            following = i18n.t(book.by_id[PAGES[number]].title, lang)
            assert last.endswith(f"{title(game, lang)} {'sujet' if lang == 'fr' else 'topic'}:{following}")
        else:
            assert "topic:" not in last and "sujet:" not in last
    unit = text_of(book, book.topics[len(PAGES)], lang)
    assert "page" not in unit.splitlines()[0]


def test_numbers_shown_are_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    wc = book_of("warchest")
    for unit, coins in COINS.items():
        assert (
            text_of(wc, wc.by_id[unit], "en").splitlines()[1].startswith(f"{coins} coins: 2 start in the bag")
        )
    state = engine.get_game("warchest").new_game(["a", "b"], seed=3, options={"armies": "first"})
    seat = state.seats[0]
    dealt = seat.bag + seat.hand  # the first round's draw has already been made
    assert all(dealt.count(u) == 2 and seat.supply[u] == COINS[u] - 2 for u in seat.units)
    monkeypatch.setattr(bt_rules, "MORALE_COST", 7)
    morale = batailles.book().by_id["morale"]
    assert "and spends 7 of your points" in i18n.t(morale.body[0], "en")
    cry = book_of("cryhavoc")
    barracks = text_of(cry, cry.by_id["hu_barracks"], "fr")
    assert "Construction : 2 points de construction ; activation : 1 point de construction" in barracks
    assert "2 unités de votre réserve dans cette région" in barracks


# ---- finding a topic ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("archer", "archer"),
        ("Light Cavalry", "light_cavalry"),
        ("light_cavalry", "light_cavalry"),
        ("Cavalerie légère", "light_cavalry"),
        ("cavalerie legere", "light_cavalry"),
        ("Soldat", "swordsman"),
        ("porte etendard", "ensign"),
        ("ÉCLAIREUR", "scout"),
        ("berz", None),
        ("bers", "berserker"),
        ("Mise en place", "setup"),
        ("set-up", "setup"),
        ("cav", None),
        ("", None),
    ],
)
def test_a_topic_is_found_by_id_or_name_in_either_language_or_a_unique_start(
    typed: str, found: str | None
) -> None:
    topic = book_of("warchest").find(typed)
    assert (topic.id if topic else None) == found


async def test_a_topic_through_the_table_in_both_languages(commands: Commands) -> None:
    (post,) = await commands.rules(reader("en"), "warchest", "archer")
    assert post.ephemeral and post.text.startswith("**War Chest · Archer** (unit)\n4 coins")
    assert "`tactic archer <from> <target>`" in post.text
    (post,) = await commands.rules(reader("fr"), "Champ d'honneur", "Arbalétrier")
    assert post.ephemeral and post.text.startswith("**Champ d'honneur · Arbalétrier** (unité)\n5 pièces")
    assert "`tactique arbalétrier <départ> <cible>`" in post.text
    (post,) = await commands.rules(reader("fr"), None, "cryhavoc:hu_volley")
    assert post.text.startswith("**Cry Havoc · Salve** (carte Tactique)")
    assert "Au combat (tout terrain) : éliminez une unité ennemie sur un objectif." in post.text
    (post,) = await commands.rules(reader("en"), "batailles", "Portée")
    assert post.text.startswith("**Batailles · Range** (characteristic)")


async def test_without_a_topic_the_first_page_of_the_game_here_or_named(commands: Commands) -> None:
    (every,) = await commands.rules(reader("en"))
    assert every.text.startswith("The games in short.")
    assert all(f"{title(g, 'en')}: " in every.text for g in GAMES)
    await commands.new(reader("fr"), "batailles")
    (here,) = await commands.rules(reader("fr"))
    assert here.text.startswith("**Batailles · Présentation** (page 1/7)")
    assert "Caractéristiques : Mouvement, Attaque, Défense, Portée, Commandement, Logistique." in here.text
    (named,) = await commands.rules(reader("en"), "cryhavoc")
    assert named.text.startswith("**Cry Havoc · Overview** (page 1/7)")
    (topic_here,) = await commands.rules(reader("en"), None, "hill")
    assert topic_here.text.startswith("**Batailles · Hill** (terrain)")


async def test_an_unknown_topic_is_refused_with_the_closest_names(commands: Commands) -> None:
    with pytest.raises(TableError) as err:
        await commands.rules(reader("en"), "warchest", "swordman")
    assert i18n.t(err.value.msg, "en") == "War Chest has no rules topic “swordman”. Did you mean Swordsman?"
    with pytest.raises(TableError) as err:
        await commands.rules(reader("fr"), "warchest", "cav")
    assert i18n.t(err.value.msg, "fr") == (
        "« cav » correspond à plusieurs sujets de Champ d'honneur : Cavalerie ou Cavalerie légère."
        " Tapez davantage du nom."
    )
    with pytest.raises(TableError) as err:
        await commands.rules(reader("en"), "batailles", "xyzzy")
    text = i18n.t(err.value.msg, "en")
    assert text.startswith("Batailles has no rules topic “xyzzy”. Its pages: Overview, Set-up, A turn,")
    with pytest.raises(TableError) as err:
        await commands.rules(reader("en"), None, "setup")
    assert i18n.t(err.value.msg, "en") == (
        "“setup” is a topic of War Chest, Batailles and Cry Havoc: choose the game with game:."
    )
    with pytest.raises(TableError) as err:
        await commands.rules(reader("fr"), None, "xyzzy")
    assert i18n.t(err.value.msg, "fr").startswith("Aucun jeu n'a de sujet de règles « xyzzy ».")
    assert await commands.tables.latest("chan") is None, "asking changed nothing"


# ---- autocomplete ---------------------------------------------------------------------------------


async def test_autocomplete_offers_topics_in_the_readers_language(commands: Commands) -> None:
    french = await commands.rules_autocomplete(reader("fr"), "cav", "warchest")
    assert french == [
        ("Cavalerie · unité", "warchest:cavalry"),
        ("Cavalerie légère · unité", "warchest:light_cavalry"),
    ]
    english = await commands.rules_autocomplete(reader("en"), "soldat", "warchest")
    assert english == [], "an English reader is offered English names"
    assert await commands.rules_autocomplete(reader("en"), "sword", "warchest") == [
        ("Swordsman · unit", "warchest:swordsman")
    ]
    for value in ("warchest:cavalry", "warchest:light_cavalry"):
        (post,) = await commands.rules(reader("fr"), None, value)
        assert post.text.startswith("**Champ d'honneur · Cavalerie")


async def test_autocomplete_stays_within_discords_limits_and_puts_names_starting_so_first(
    commands: Commands,
) -> None:
    for game in GAMES:
        for lang in i18n.LOCALES:
            for typed in ("", "a", "e", "s", "tr", "zzz"):
                choices = await commands.rules_autocomplete(reader(lang), typed, game)
                assert len(choices) <= 25
                assert all(1 <= len(n) <= 100 and 1 <= len(v) <= 100 for n, v in choices)
    pages = await commands.rules_autocomplete(reader("en"), "", "cryhavoc")
    assert [v for _n, v in pages[:7]] == [f"cryhavoc:{p}" for p in PAGES]
    trogs = await commands.rules_autocomplete(reader("en"), "tr", "cryhavoc")
    assert trogs[0] == ("Trogs · faction", "cryhavoc:trogs")
    assert any(v == "cryhavoc:hu_tribute" for _n, v in trogs), "a name holding the word comes later"


async def test_autocomplete_follows_the_game_option_then_the_channel_then_every_game(
    commands: Commands,
) -> None:
    anywhere = await commands.rules_autocomplete(reader("en"), "hill", None)
    assert ("Hill · terrain · Batailles", "batailles:hill") in anywhere
    await commands.new(reader("en"), "cryhavoc")
    here = await commands.rules_autocomplete(reader("en"), "move", None)
    assert here and all(v.startswith("cryhavoc:") for _n, v in here)
    assert ("Move · action", "cryhavoc:move") in here
    chosen = await commands.rules_autocomplete(reader("en"), "move", "warchest")
    assert chosen == [], "War Chest has no topic named for moving"
    unknown = await commands.rules_autocomplete(reader("en"), "hill", "chess")
    assert ("Hill · terrain · Batailles", "batailles:hill") in unknown


async def test_a_game_without_a_rulebook(tmp_path: Path) -> None:
    from tests.table.conftest import make_tables
    from tests.table.nim import lookup

    assert lookup("nim").name == "nim"
    store = await db.open_store(tmp_path / "nim.sqlite3")
    try:
        commands = Commands(make_tables(store, (tiny_png, tiny_png)))
        (post,) = await commands.rules(reader("en"), "nim")
        assert post.text == "nim: no summary yet."
        with pytest.raises(TableError) as err:
            await commands.rules(reader("fr"), "nim", "stones")
        assert i18n.t(err.value.msg, "fr") == "nim n'a pas encore de pages de règles."
    finally:
        await store.close()


def _typed_examples(book: Rulebook, topic: Topic, lang: str) -> list[list[str]]:
    """The action texts a topic shows (in backquotes), placeholders filled in and ``a|b`` choices
    spread out, so that they can be read by the game's own parser. Options of /game new
    (``skills=random``) are no actions and are left out."""
    found = []
    for example in re.findall(r"`([^`]+)`", text_of(book, topic, lang)):
        if "=" in example:
            continue
        filled = re.sub(r"<[^>]+>", "d4", example)
        head, _, last = filled.rpartition(" ")
        found.append([f"{head} {choice}".strip() for choice in last.split("|")])
    return found


@pytest.mark.parametrize("game", ["warchest", "cryhavoc"])
def test_every_action_a_topic_shows_in_french_reads_as_the_english_one(game: str) -> None:
    """Players type what the French texts show: the games' parsers must read it as the English."""
    from engine.cryhavoc.parse import readings
    from engine.warchest.parse import tokens

    def read(text: str) -> list[list[str]]:
        """Every meaning the parser gives a text (a French verb may stand for two English ones)."""
        words = lexicon(engine.get_game(game))
        return [tokens(text, words)] if game == "warchest" else readings(text, words)

    book = book_of(game)
    checked = 0
    for topic in book.topics:
        english, french = _typed_examples(book, topic, "en"), _typed_examples(book, topic, "fr")
        assert len(english) == len(french), topic.id
        for en_choices, fr_choices in zip(english, french, strict=True):
            for en, fr in zip(en_choices, fr_choices, strict=True):
                assert read(en)[0] in read(fr), (topic.id, en, fr)
                checked += 1
    assert checked > 30
