"""The words players may type for a game's actions, handed to its parser by the layer that knows languages.

An action's text form (``deploy light_cavalry e1``, ``go mossdeep flintpeak``) is the same in every
language: it is what the log stores and what replays read. Players type it in their own words as
well, and those words belong to the catalogs (``i18n/locales/<lang>/``), one folder per
language, not to the rules: the engine holds no language's words. A game says where its words are
found (``Sources``: the catalog entries its hints already show, and a words file of its own per
language); ``i18n.lexicon`` reads every language's and hands the game one ``Lexicon``; the game's
parser turns it into the tables it reads typed text with. Without a lexicon a parser reads the action
text alone, which is all that replays, computer players and stored logs need.

The words files are ``i18n/locales/<lang>/words/<game>.json``; the table layer hands the lexicon in
(``table.core.text.lexicon``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Pairs = tuple[tuple[str, str], ...]
"""(typed form, word of the action text) pairs, in reading order: a form listed for two words (a verb
that in French either discards or pays a card) stands for the first one first."""


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Per kind of word (``verb``, ``unit``, ``direction``, ``name``...), the forms players type and the
    word of the action text each stands for, gathered from every language the bot reads.

    Forms are kept as written (accents, capitals, apostrophes): each game folds them the way it folds
    typed text. A kind of words that stand for nothing of the text (Batailles' ``lead-in``: a
    pronoun some languages put before a verb, dropped) has pairs whose word is empty.

    Compared by identity: a lexicon is built once per game and process, and each game remembers the
    tables it builds from one (``functools`` caches keyed by the lexicon)."""

    words: Mapping[str, Pairs] = field(default_factory=dict)

    def pairs(self, kind: str) -> Pairs:
        """The (form, word) pairs of ``kind``; none when no language has words of that kind."""
        return self.words.get(kind, ())


PLAIN = Lexicon()
"""No words but the action text's own: what a parser reads when nobody hands it a lexicon."""


@dataclass(frozen=True)
class Sources:
    """Where one game's words are written in each language's catalog folder.

    ``file`` names the words file (``i18n/locales/<lang>/words/<file>.json``: kind -> word of the
    text -> the forms players type for it, or kind -> a list of forms for a kind that stands for
    nothing). ``catalog`` maps catalog key prefixes to kinds: every entry ``<prefix>.<word>`` a
    language writes is a form of that word (the verbs and names hints show, ``wc.typed.verb.deploy``,
    ``ch.card.hu_muster``), so what a player is shown always reads back, in any language, without
    being written twice. ``kinds`` are those a words file may hold; another is a mistake, refused
    when the lexicon is built."""

    file: str
    catalog: tuple[tuple[str, str], ...] = ()
    kinds: frozenset[str] = frozenset()
