"""The French words a player may type in a Cry Havoc action, read as the words of the English text.

Verbs are the glossary's and the autocomplete labels' (infinitive, and the imperative where players
naturally type it); some French verbs stand for two actions (``construire`` builds with a card or
constructs a structure, ``défausser`` discards to the hand limit or pays a card into an action), and
the legal actions of the moment decide which. Objectives, sources, factions and region names are
the names the French catalog shows (``i18n/locales/fr/cryhavoc.json``; a test checks that every
region's French name there is read here), plus short forms. Cards, structures and skills are read
by their ids or by their names in either language (``data/names.json``, the catalogs' names; a test
keeps the two equal), so a hint can quote them as players read them.

Everything is written with its accents: the parser folds both sides the same way, so accents stay
optional for the player.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.matching import Phrases, phrases

VERBS: dict[str, tuple[str, ...]] = {
    "défausser": ("discard", "pay"),
    "défausse": ("discard", "pay"),
    "déplacer": ("move",),
    "déplace": ("move",),
    "recruter": ("recruit",),
    "recrute": ("recruit",),
    "construire": ("build", "construct"),
    "construis": ("build", "construct"),
    "bâtir": ("construct",),
    "payer": ("pay",),
    "paie": ("pay",),
    "aller": ("go",),
    "va": ("go",),
    "activer": ("activate",),
    "active": ("activate",),
    "piocher": ("draw",),
    "pioche": ("draw",),
    "garder": ("keep",),
    "garde": ("keep",),
    "compétence": ("skill",),
    "terminer": ("end",),
    "termine": ("end",),
    "fin": ("end",),
    "passer": ("pass",),
    "passe": ("pass",),
    "placer": ("place",),
    "jouer": ("play",),
    "joue": ("play",),
    "coucher": ("fold",),
    "capturer": ("capture",),
    "prendre": ("capture",),
    "tuer": ("kill",),
    "tue": ("kill",),
    "éliminer": ("kill",),
    "élimine": ("kill",),
    "retraite": ("retreat",),
    "rançon": ("ransom",),
    "racheter": ("ransom",),
    "rachète": ("ransom",),
    "fini": ("done",),
}
"""One French word -> the English verbs it may stand for, the likelier first."""

VERB_PHRASES: Phrases = phrases(
    [
        ("activer le score", "score"),
        ("battre en retraite", "retreat"),
        ("se coucher", "fold"),
        ("ne plus jouer", "fold"),
        ("ne plus racheter", "done"),
    ]
)
"""Verbs of several words, read at the start of the text."""

REGIONS = {
    "ashplain": "Plaine de Cendre",
    "basalt": "Crête de Basalte",
    "brinemarsh": "Marais-Saumâtre",
    "dawnkeep": "Fort-de-l'Aube",
    "deepwell": "Puits-Profond",
    "driftwater": "Eaux-Dérivantes",
    "dunes": "Dunes",
    "duskkeep": "Fort-du-Crépuscule",
    "dustbowl": "Cuvette de Poussière",
    "emberflat": "Hauts-fonds de Braise",
    "fernvale": "Val-des-Fougères",
    "flintpeak": "Pic-de-Silex",
    "frostcrag": "Roc-de-Givre",
    "glassfield": "Champ-de-Verre",
    "greyspire": "Pic-Gris",
    "highgate": "Hauteporte",
    "hive": "Ruche",
    "hollowgrove": "Bosquet-Creux",
    "ironspire": "Pic-de-Fer",
    "kelpshoal": "Banc-de-Varech",
    "lowgate": "Basseporte",
    "mirewood": "Bois-Fangeux",
    "mirrorlake": "Lac-Miroir",
    "mossdeep": "Mousse-Profonde",
    "obsidian": "Crête d'Obsidienne",
    "pearlcove": "Anse-aux-Perles",
    "rootmaze": "Dédale de Racines",
    "saltmarsh": "Marais-Salant",
    "sandsea": "Mer de Sable",
    "scorchwaste": "Fournaise",
    "skyforge": "Forge-Céleste",
    "stonecrown": "Couronne-de-Pierre",
    "stormkeep": "Fort-des-Tempêtes",
    "sunpit": "Puits du Soleil",
    "thornwood": "Bois-d'Épines",
    "vinegrove": "Bosquet-des-Lianes",
    "vineholt": "Bois-des-Vignes",
    "wildbloom": "Floraison-Sauvage",
}
"""Region id -> its French name, as the catalog writes it."""

ARGUMENTS: Phrases = phrases(
    [
        *((name, rid) for rid, name in REGIONS.items()),
        ("la Ruche", "hive"),
        ("les Dunes", "dunes"),
        ("la Fournaise", "scorchwaste"),
        ("Capturer la région", "control"),
        ("contrôle", "control"),
        ("région", "control"),
        ("Capturer des prisonniers", "prisoners"),
        ("prisonniers", "prisoners"),
        ("prisonnier", "prisoners"),
        ("votre propre pioche", "deck"),
        ("ma pioche", "deck"),
        ("pioche", "deck"),
        ("pioche Montagne", "mountain"),
        ("Montagne", "mountain"),
        ("pioche Désert", "desert"),
        ("Désert", "desert"),
        ("pioche Jungle", "jungle"),
        ("pioche Océan", "ocean"),
        ("Océan", "ocean"),
        ("Humains", "humans"),
        ("Pèlerins", "pilgrims"),
    ]
)
"""Objectives, sources, factions and regions named in French (names the English ids keep, such as
``attrition``, ``jungle``, ``machines`` or ``trogs``, need no entry)."""

NAMES: dict[str, dict[str, dict[str, str]]] = json.loads(
    (Path(__file__).parent / "data" / "names.json").read_text(encoding="utf-8")
)
"""``cards``, ``structures`` and ``skills``: id -> {language: name}, as the catalogs write them."""

NAMED_THINGS: Phrases = phrases(
    [(name, thing) for group in NAMES.values() for thing, names in group.items() for name in names.values()]
)
"""Card, structure and skill names in English and French, read as their ids."""
