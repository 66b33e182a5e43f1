"""The private Cry Havoc image: the viewer's hand as cards and, during a draw-two-keep-one, the drawn pair.

Each card shows its name, where it comes from (faction or terrain deck), its points by type with an
icon each, its rare symbols, Enable Scoring when it has it, and its battle effect in short text, so a
player can plan without opening the rules. Texts come from ``engine.cryhavoc.describe``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from engine.cryhavoc.content import CARDS, POINT_TYPES
from engine.cryhavoc.describe import effect_text
from engine.cryhavoc.view import CryHavocView
from render.alt import clip, field, listing, sentence
from render.catalog import tr
from render.common import HIGHLIGHT, INK, MUTED, PANEL, PAPER, RGB, RULE, WHITE, sprite, to_png
from render.cryhavoc.style import (
    TERRAIN_FILL,
    TERRAIN_MARK,
    faction_name,
    name_of,
    shade,
    side_color,
    tint,
    tm,
)
from render.panels import notice
from render.text import draw_text, text_width, wrap

WIDTH = 1200
MARGIN = 20
GAP = 14
PER_ROW = 5
CARD_W = (WIDTH - 2 * MARGIN - (PER_ROW - 1) * GAP) // PER_ROW
CARD_H = 296
"""Tall enough for the fullest card (three kinds of points and the scoring mark) to keep a line for
its battle effect."""


def _icon(kind: str, color: RGB, size: int) -> Image.Image:
    """Point-type and symbol icons: arrow (move), figure (recruit), house (build), star, card, "!"."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w = size * s
        if kind == "move":
            d.rectangle([w * 0.1, w * 0.4, w * 0.6, w * 0.6], fill=color)
            d.polygon([(w * 0.55, w * 0.15), (w * 0.95, w * 0.5), (w * 0.55, w * 0.85)], fill=color)
        elif kind == "recruit":
            d.ellipse([w * 0.32, w * 0.05, w * 0.68, w * 0.41], fill=color)
            d.rounded_rectangle([w * 0.15, w * 0.45, w * 0.85, w * 0.95], radius=w * 0.2, fill=color)
        elif kind == "build":
            d.polygon(
                [
                    (w * 0.5, w * 0.05),
                    (w * 0.95, w * 0.45),
                    (w * 0.85, w * 0.45),
                    (w * 0.85, w * 0.95),
                    (w * 0.15, w * 0.95),
                    (w * 0.15, w * 0.45),
                    (w * 0.05, w * 0.45),
                ],
                fill=color,
            )
        elif kind == "star":
            import math

            pts = []
            for k in range(10):
                r = w * (0.48 if k % 2 == 0 else 0.2)
                a = -math.pi / 2 + k * math.pi / 5
                pts.append((w / 2 + r * math.cos(a), w * 0.52 + r * math.sin(a)))
            d.polygon(pts, fill=color)
        elif kind in ("draw", "draw_one"):
            d.rounded_rectangle([w * 0.2, w * 0.05, w * 0.8, w * 0.95], radius=w * 0.1, fill=color)
            d.rounded_rectangle([w * 0.28, w * 0.13, w * 0.72, w * 0.87], radius=w * 0.06, fill=WHITE)
        elif kind == "initiative":
            d.ellipse([0, 0, w - 1, w - 1], fill=color)

    img = sprite(size, size, paint)
    label = {"draw_one": "1", "initiative": "!", "draw": "+"}.get(kind)
    if label:
        ink = WHITE if kind == "initiative" else INK
        draw_text(
            ImageDraw.Draw(img), (size / 2, size / 2), label, int(size * 0.55), ink, anchor="mc", bold=True
        )
    return img


@lru_cache(maxsize=256)
def card(kind: str, seat: int, locale: str) -> Image.Image:
    """One tactics card of the hand (cached: a card looks the same in every hand of its owner)."""
    data = CARDS.get(kind) or {"points": {}, "symbols": [], "battle": None, "terrain": None, "faction": None}
    terrain = data.get("terrain")
    band = TERRAIN_FILL[terrain] if terrain else tint(side_color(seat), 0.7)
    edge = TERRAIN_MARK[terrain] if terrain else side_color(seat)
    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        [0, 0, CARD_W - 1, CARD_H - 1], radius=14, fill=PANEL, outline=shade(edge, 0.2), width=3
    )
    draw.rounded_rectangle([3, 3, CARD_W - 4, 70], radius=11, fill=band)
    draw.rectangle([3, 58, CARD_W - 4, 70], fill=band)
    name = name_of(f"ch.card.{kind}", locale, kind)
    lines = wrap(name, 19, CARD_W - 24, 2, bold=True)
    for n, line in enumerate(lines):
        draw_text(
            draw,
            (12, 37 - (len(lines) - 1) * 11 + n * 22),
            line,
            19,
            INK,
            anchor="lc",
            bold=True,
        )
    origin = (
        name_of(f"ch.terrain.{terrain}", locale, str(terrain))
        if terrain
        else faction_name(str(data.get("faction")), locale)
    )
    draw_text(draw, (12, 84), origin, 15, MUTED, anchor="lc", max_width=CARD_W - 24, words=True)
    y = 112
    for p in POINT_TYPES:
        n = int((data.get("points") or {}).get(p, 0))
        if not n:
            continue
        img.alpha_composite(_icon(p, INK, 26), (12, int(y - 13)))
        draw_text(draw, (46, y), str(n), 26, INK, anchor="lc", bold=True)
        points = name_of(f"ch.points.{p}", locale, p)
        draw_text(draw, (70, y), points, 16, INK, anchor="lc", max_width=CARD_W - 80, words=True)
        y += 32
    x = 12
    symbols = list(data.get("symbols") or [])
    if symbols:
        for sym in symbols:
            img.alpha_composite(
                _icon(sym, (90, 70, 110) if sym != "star" else (200, 150, 0), 24), (x, int(y - 12))
            )
            x += 30
        short = ", ".join(tr(f"render.ch.symbol.{s}", locale) for s in symbols)
        lines = wrap(short, 15, CARD_W - x - 14, 2)  # two symbols' words may need a second line
        for n, line in enumerate(lines):
            draw_text(draw, (x + 4, y + n * 18), line, 15, INK, anchor="lc")
        y += 30 + 18 * (len(lines) - 1)
    if data.get("scoring"):
        draw.rounded_rectangle(
            [10, y - 14, CARD_W - 10, y + 14], radius=8, fill=HIGHLIGHT, outline=INK, width=2
        )
        scoring = name_of("ch.text.scoring", locale, "scoring")
        draw_text(
            draw, (CARD_W / 2, y), scoring, 16, INK, anchor="mc", bold=True, max_width=CARD_W - 30, words=True
        )
        y += 32
    top = max(y, CARD_H - 100)
    draw.line([(12, top - 6), (CARD_W - 12, top - 6)], fill=RULE, width=2)
    draw_text(draw, (12, top + 8), tr("render.ch.card.battle", locale), 15, MUTED, anchor="lc", bold=True)
    battle = data.get("battle")
    effect = tm(effect_text(battle), locale) if battle else name_of("ch.effect.none", locale, "-")
    for n, line in enumerate(wrap(effect, 16, CARD_W - 24, max(1, (CARD_H - top - 22) // 20))):
        draw_text(draw, (12, top + 30 + n * 20), line, 16, INK, anchor="lc")
    return img


def _row(canvas: Image.Image, kinds: list[str], seat: int, locale: str, y: int) -> int:
    for n, kind in enumerate(kinds):
        col, row = n % PER_ROW, n // PER_ROW
        canvas.alpha_composite(
            card(kind, seat, locale), (MARGIN + col * (CARD_W + GAP), y + row * (CARD_H + GAP))
        )
    rows = max(1, (len(kinds) + PER_ROW - 1) // PER_ROW)
    return y + rows * (CARD_H + GAP)


def compose_private(view: CryHavocView, *, names: Mapping[str, str], locale: str) -> Image.Image:
    private = view.get("private")
    if not private:
        return notice(tr("render.ch.private.none", locale), tr("render.ch.private.none_text", locale))
    seat = int(private.get("seat", 0))
    hand = [str(k) for k in private.get("hand") or []]
    drawn = [str(k) for k in private.get("drawn") or []]
    seats = view.get("seats") or []
    info: Mapping[str, object] = seats[seat] if 0 <= seat < len(seats) else {}
    rows = max(1, (len(hand) + PER_ROW - 1) // PER_ROW)
    height = MARGIN + 50 + rows * (CARD_H + GAP)
    if drawn:
        height += 50 + (CARD_H + GAP) * ((len(drawn) + PER_ROW - 1) // PER_ROW)
    height += MARGIN
    canvas = Image.new("RGBA", (WIDTH, height), (*PAPER, 255))
    draw = ImageDraw.Draw(canvas)
    who = names.get(str(info.get("id")), str(info.get("id", "?")))
    title = tr("render.ch.private.hand", locale, name=who, count=len(hand))
    color = side_color(seat)
    draw.rectangle([MARGIN, MARGIN + 4, MARGIN + 8, MARGIN + 36], fill=color)
    faction = faction_name(str(info.get("faction")), locale)
    room = WIDTH - 2 * MARGIN - 18 - 14 - min(text_width(faction, 22), (WIDTH - 2 * MARGIN) / 3)
    x: float = MARGIN + 18
    x += draw_text(draw, (x, MARGIN + 20), title, 28, INK, anchor="lc", bold=True, max_width=room, words=True)
    draw_text(
        draw,
        (x + 14, MARGIN + 20),
        faction,
        22,
        MUTED,
        anchor="lc",
        max_width=WIDTH - MARGIN - x - 14,
        words=True,
    )
    y = MARGIN + 50
    if not hand:
        draw_text(draw, (MARGIN, y + 30), tr("render.ch.private.empty", locale), 22, MUTED, anchor="lc")
    y = _row(canvas, hand, seat, locale, y)
    if drawn:
        draw.rounded_rectangle(
            [MARGIN, y + 4, WIDTH - MARGIN, y + 40], radius=12, fill=HIGHLIGHT, outline=INK, width=2
        )
        draw_text(
            draw,
            (MARGIN + 14, y + 22),
            tr("render.ch.private.drawn", locale),
            22,
            INK,
            anchor="lc",
            bold=True,
        )
        _row(canvas, drawn, seat, locale, y + 50)
    return canvas


def render_private(view: CryHavocView, *, names: Mapping[str, str], locale: str) -> bytes:
    return to_png(compose_private(view, names=names, locale=locale))


def private_words(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> str:
    """The alt text of the viewer's hand: its cards by name, and the drawn pair to keep one of (its
    owner's alone). ``render.describe`` hands every game's view alike, picked by its ``game``: this
    one is a Cry Havoc view."""
    view = cast("CryHavocView", shown)
    private = view.get("private")
    if not private:
        return f"{sentence(tr('render.ch.private.none', locale))} {tr('render.ch.private.none_text', locale)}"
    seat = int(private.get("seat", 0))
    seats = view.get("seats") or []
    info: Mapping[str, object] = seats[seat] if 0 <= seat < len(seats) else {}
    who = names.get(str(info.get("id")), str(info.get("id", "?")))
    hand = [name_of(f"ch.card.{k}", locale, str(k)) for k in private.get("hand") or []]
    drawn = [name_of(f"ch.card.{k}", locale, str(k)) for k in private.get("drawn") or []]
    title = tr("render.ch.private.hand", locale, name=who, count=len(hand))
    pieces = [field(title, ", ".join(hand), locale) if hand else title]
    if drawn:
        pieces.append(listing(tr("render.ch.private.drawn", locale), drawn, locale))
    return clip(" ".join(sentence(p) for p in pieces))
