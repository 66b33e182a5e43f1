"""Words, never ids, wherever a player reads.

Seeded random games of every game and table size, in English and in French, are played through the
table layer with the real renderers, and every string a player reads is collected: public posts (new
and edited), ephemeral replies, refusals of mistyped moves with their hints, autocomplete labels, log
pages, the status and hand replies, and every text drawn on the images (through ``render.text``'s
recorder). None may show an id-shaped token (a snake_case word, a catalog key, a raw action text where
a description belongs), and no French text may carry a word of the fixed English list below.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import db
import engine
import i18n
import render
from engine.errors import GameError, StaleAction
from launch import DISCORD_LIMITS
from render.text import recording
from table import Commands, Ctx, Post, Tables
from table.core.text import lexicon
from table.play import command_tree
from table.posting.announce import RecordingOutlet
from table.rules.rule_topics import rulebook
from table.rules.rulebook import render as render_topic

MOVES = 36
"""Moves per game: enough to pass every game's set-up into its main phase, few enough to stay quick."""
PLAYERS = ["alice", "bob", "carol", "dave"]
MISTYPED = ("recruit nothing at all", "move", "pass", "attack")
"""Texts a player may type wrongly: their refusals carry the hints (legal action texts)."""

CASES = [
    (name, count, lang)
    for name in engine.GAMES
    for count in engine.get_game(name).player_counts
    for lang in ("en", "fr")
]

SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
CATALOG_KEY = re.compile(r"\b(?:wc|bt|ch|table|render|svc|core|console|cmd|error)\.[a-z_]+(?:\.[a-z_]+)*\b")
CODE = re.compile(r"`[^`]*`")
LIST_ROW = re.compile(r"^  (.+?)  —  ", re.MULTILINE)

ENGLISH = (
    "recruit",
    "deploy",
    "bolster",
    "control",
    "attack",
    "move",
    "moves",
    "pass",
    "passes",
    "skip",
    "pick",
    "tactic",
    "your turn",
    "last action",
    "round",
    "turn",
    "discard",
    "draw",
    "keep",
    "play",
    "dismiss",
    "ready",
    "done",
    "end",
    "the",
    "with",
    "from",
    "and",
    "legal",
)
"""English words no French text may hold (none of them is also a French word)."""
ENGLISH_WORD = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in ENGLISH) + r")(?![\w-])", re.I)


def _recorded(kind: str, seen: list[tuple[str, str]]) -> Callable[..., bytes]:
    def draw(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        function = render.render if kind == "board" else render.render_private
        with recording() as found:
            data = bytes(function(view, names=names, locale=locale))
        seen.extend((f"image:{kind}", d.text) for d in found)
        return data

    return draw


async def _play(name: str, count: int, lang: str, path: Path) -> tuple[list[tuple[str, str]], set[str]]:
    """Every (where, text) a player of a seeded game read, and the action texts of the moves played."""
    seen: list[tuple[str, str]] = []
    played: set[str] = set()
    store = await db.open_store(path)
    tables = Tables(
        store,
        limits=DISCORD_LIMITS,
        render=_recorded("board", seen),
        render_private=_recorded("private", seen),
        seed_source=lambda: 5 + count,
    )
    commands = Commands(tables)
    game = engine.get_game(name)

    def ctx(user: str) -> Ctx:
        return Ctx("chan", user, user.capitalize(), lang, lang)

    def keep(posts: list[Post]) -> None:
        seen.extend(("ephemeral" if p.ephemeral else "post", p.text) for p in posts)

    async def attempt(user: str, call: Any) -> None:
        try:
            keep(await call)
        except StaleAction:
            pass
        except GameError as err:
            seen.append(("error", i18n.t(err.msg, lang, names=lambda i: i.capitalize())))

    try:
        players = PLAYERS[:count]
        keep(await commands.new(ctx(players[0]), name, players=count))
        for p in players[1:]:
            keep(await commands.join(ctx(p)))
        keep(await commands.start(ctx(players[0])))
        await commands.announcer.drain()
        pick = random.Random(f"{name}{count}{lang}")
        for move in range(MOVES):
            table = await tables.latest("chan")
            assert table is not None
            if table.record.status != "active":
                break
            user = table.to_act()[0]
            if move % 9 == 4:
                for typed in MISTYPED:
                    await attempt(user, commands.play(ctx(user), typed))
                offered = await commands.autocomplete(ctx(user), "")
                seen += [("autocomplete", label) for label, _ in offered]
                # the moves in the reader's words, quoted as a player types them (a group: its words)
                listed = await commands.autocomplete(ctx(user), "", in_words=True)
                seen += [("listed", f"`{value.split(':', 1)[-1]}`") for _, value in listed]
                seen += [("ephemeral", p.text) for p in await commands.legal_moves(ctx(user))]
                now = await tables.latest("chan")  # a mistyped "pass" may have been a move
                assert now is not None and (user in now.to_act() or listed == offered == [])
                moves = [(a, b) for (_l, a), (_m, b) in zip(listed, offered, strict=True) if ":" in a]
                said = [
                    game.parse_action(now.state, user, a.split(":", 1)[1], lexicon(game)) for a, _b in moves
                ]
                assert said == [
                    game.parse_action(now.state, user, b.split(":", 1)[1], lexicon(game)) for _a, b in moves
                ]
            action = pick.choice(game.legal_actions(table.state, user))
            played.add(str(action))
            await attempt(user, commands.play(ctx(user), f"v{table.record.version}:{action}"))
            await commands.announcer.drain()
        for user in players[:2]:
            await attempt(user, commands.log(ctx(user)))
            await attempt(user, commands.log(ctx(user), page=2))
            await attempt(user, commands.status(ctx(user)))
            await attempt(user, commands.hand(ctx(user)))
        await commands.announcer.drain()
        outlet = commands.announcer.outlet
        assert isinstance(outlet, RecordingOutlet) and outlet.sent is not None and outlet.edits is not None
        seen += [("post", post.text) for _, post in outlet.sent]
        seen += [("edit", post.text) for _, _, post in outlet.edits]
    finally:
        await commands.announcer.drain()
        await store.close()
    return seen, played


YOU = {"en": re.compile(r"\b(?:you|your)\b", re.I), "fr": re.compile(r"\b(?:vous|votre|vos)\b", re.I)}


def _addressed(where: str, lang: str, text: str) -> list[str]:
    """Public descriptions (the board's texts, a handover's lines about the moves) say "you" to no one:
    the whole table reads them."""
    if where == "image:board":
        lines = [text]
    elif where in ("post", "edit"):
        lines = [line for line in text.splitlines() if line.startswith("• ")]
    else:
        return []
    return [f"'you' in {line!r}" for line in lines if YOU[lang].search(line)]


def _problems(name: str, lang: str, text: str, played: set[str]) -> list[str]:
    found = []
    plain = LIST_ROW.sub(r"`\1`  —  ", text)  # a list of moves shows each as typed, then its description
    for echo in MISTYPED:  # a refusal quotes what the player typed, in whatever language they typed it
        plain = plain.replace(f"« {echo} »", " ").replace(f"“{echo}”", " ")
    prose = CODE.sub(" ", plain)
    for span in CODE.findall(plain):  # hints quote texts to type: in the reader's words, too
        found += [f"id {tok!r} in {span}" for tok in SNAKE.findall(span)]
    found += [f"id {tok!r}" for tok in SNAKE.findall(prose)]
    found += [f"catalog key {key.group()!r}" for key in CATALOG_KEY.finditer(prose)]
    found += [
        f"action text {a!r}"
        for a in played
        if len(a.split()) > 1 and re.search(rf"\b{re.escape(a)}\b", prose)
    ]
    if lang == "fr":
        found += [f"English {w.group()!r}" for w in ENGLISH_WORD.finditer(plain)]
    return found


@pytest.mark.parametrize(("name", "count", "lang"), CASES, ids=[f"{n}-{c}p-{lang}" for n, c, lang in CASES])
async def test_players_read_words_not_ids(name: str, count: int, lang: str, tmp_path: Path) -> None:
    seen, played = await _play(name, count, lang, tmp_path / "store.sqlite3")
    kinds = {where for where, _ in seen}
    assert {"post", "ephemeral", "error", "autocomplete", "image:board"} <= kinds, kinds
    assert any(len(text.split()) >= 4 for where, text in seen if where == "image:board")  # sentences drawn
    bad = sorted(
        {
            f"[{where}] {problem}: {text[:300]!r}"
            for where, text in seen
            for problem in [*_problems(name, lang, text, played), *_addressed(where, lang, text)]
        }
    )
    assert not bad, "\n".join(bad[:40])


def test_the_scan_finds_ids_action_texts_and_english_words() -> None:
    """The scan itself: each kind of fault it exists for is caught, and the right words pass."""
    played = {"control light_cavalry f4", "pass"}
    assert _problems("warchest", "en", "Last action, Alice: control light_cavalry f4", played)
    assert _problems("warchest", "en", "Missing text wc.unit.none here", played)
    assert _problems("warchest", "fr", "Dernière action, Robot 1 : recruit swordsman", played)
    assert _problems("warchest", "fr", "Actions possibles : `recruit lancer royal`.", played)
    assert _problems("cryhavoc", "en", "Legal: `play Muster`, `play hu_muster`.", set()) == [
        "id 'hu_muster' in `play hu_muster`"
    ]
    assert not _problems("warchest", "en", "Alice takes control of f4 with their Light Cavalry", played)
    assert not _problems("warchest", "fr", "Alice passe. Options : 15 tours au plus", played)
    assert not _problems("warchest", "fr", "Actions possibles : `passer sceau royal`.", played)
    assert _addressed("image:board", "en", "Last action: Bot 1 (normal): End your turn")
    assert _addressed("post", "fr", "• Alice pioche dans votre pioche.\nÀ vous de jouer : <@bob>.")
    assert not _addressed("post", "fr", "• Alice pioche dans sa pioche.\nÀ vous de jouer : <@bob>.")
    assert not _addressed("ephemeral", "en", "Done. It is still your turn.")


# ---- the rules, the lobby, the status and the log ----------------------------------------------------

TYPED_OPTIONS = {
    "warchest": "armies=first",
    "batailles": "map=open_field armies=raiders hardcore=on max_rounds=20",
    "cryhavoc": "skills=random",
}
"""Options other than the defaults, so that the lobby tells chosen options in words too."""
ID_SHAPED = re.compile(r"\b[a-z_]+=[^\s`,;)]*|\b[a-z]+_[a-z_]+\b")


def _typed_words(name: str, lang: str) -> set[str]:
    """What a player types as it is written, and may so read in backquotes: the game's option names and
    values (``map=open_field``), and the options of /game new (``map_file``)."""
    specs = engine.get_game(name).option_specs
    words = {spec.name for spec in specs} | {c for spec in specs for c in spec.choices}
    words |= {f"{spec.name}={c}" for spec in specs for c in spec.choices}
    new = next(c for c in command_tree.COMMANDS if c.path == ("game", "new"))
    return words | {command_tree.option_name(new.path, o.name, lang) for o in new.options}


def _ids(name: str, lang: str, text: str) -> list[str]:
    """The id-shaped tokens of ``text`` (``ma_bastion``, ``max_rounds=15``), but for the option words a
    player types, inside backquotes."""
    typed = _typed_words(name, lang)
    found = [tok for span in CODE.findall(text) for tok in ID_SHAPED.findall(span) if tok not in typed]
    return found + ID_SHAPED.findall(CODE.sub(" ", text))


async def _lobby_to_log(name: str, lang: str, path: Path) -> list[str]:
    """The lobby posts, the status before and during the game, the board's and the details' lines, the
    text board's heading and every page of the log of a seeded game, as read in ``lang``."""
    store = await db.open_store(path)

    def picture(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        return b""

    tables = Tables(
        store, limits=DISCORD_LIMITS, render=picture, render_private=picture, seed_source=lambda: 11
    )
    commands = Commands(tables)
    game = engine.get_game(name)

    def ctx(user: str) -> Ctx:
        return Ctx("chan", user, user.capitalize(), lang, lang)

    texts: list[str] = []
    try:
        texts += [p.text for p in await commands.new(ctx("alice"), name, 2, TYPED_OPTIONS[name])]
        texts += [p.text for p in await commands.status(ctx("alice"))]
        texts += [p.text for p in await commands.join(ctx("bob"))]
        await commands.start(ctx("alice"))
        pick = random.Random(name)
        for _ in range(30):
            table = await tables.latest("chan")
            assert table is not None and table.record.status == "active"
            user = table.to_act()[0]
            action = pick.choice(game.legal_actions(table.state, user))
            await commands.play(ctx(user), f"v{table.record.version}:{action}")
        for call in (commands.status, commands.board, commands.details):
            texts += [p.text for p in await call(ctx("alice"))]
        texts += [p.text.splitlines()[0] for p in await commands.text_board(ctx("alice"))]
        first = (await commands.log(ctx("alice")))[0].text
        pages = int(re.findall(r"\d+", first.splitlines()[0])[-1])
        for page in range(1, pages + 1):
            texts += [p.text for p in await commands.log(ctx("alice"), page=page)]
    finally:
        await commands.announcer.drain()
        await store.close()
    return texts


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", engine.GAMES)
async def test_rules_lobby_status_and_log_name_things_in_words(name: str, lang: str, tmp_path: Path) -> None:
    """Every rules page and topic, and what a table says of itself (its options, how far the game has
    come, its log), in words: no id (``ma_bastion``), no ``key=value``, no stored move number."""
    book = rulebook(name)
    assert book is not None
    title = i18n.t(f"table.game.{name}", lang)
    texts = [render_topic(book, topic, title, lang) for topic in book.topics]
    texts += await _lobby_to_log(name, lang, tmp_path / "store.sqlite3")
    bad = sorted({f"{tok!r} in {text[:200]!r}" for text in texts for tok in _ids(name, lang, text)})
    assert not bad, "\n".join(bad[:30])
    told = "\n".join(texts)
    assert not re.search(r"\b(?:move|coup|version) \d", told), "a stored move's number is no player's measure"
    assert i18n.t(f"table.option.{name}.{TYPED_OPTIONS[name].split()[0].replace('=', '.')}", lang) in told


def test_the_scan_of_rules_and_tables_lets_typed_options_through() -> None:
    assert _ids("cryhavoc", "en", "`construct ma_bastion <region>`") == ["ma_bastion"]
    assert _ids("batailles", "en", "Options: armies=classic custom_map= map=default") == [
        "armies=classic",
        "custom_map=",
        "map=default",
    ]
    assert not _ids("batailles", "en", "Option `map`: `open_field`, or `hardcore=on`; the option `map_file`")
    assert not _ids("batailles", "fr", "l'option `fichier_carte` de /partie nouvelle")
