"""The reading a result shows: the parts of the best placement (pair, sets,
declared melds, or the orphans), the one holding the winning tile marked."""
from __future__ import annotations

from hkcore import core
from hkcore.engine.entries import Outcome
from hkcore.errors import shown
from hkcore.models import Hand
from hkcore.registry import Catalogue, plugin_error, raised
from hkcore.results import ReadingPart, reading_part
from hkcore.tiles import TILES, format_tiles

#: a set's kind by its code's kind digit
KIND = {0: "chow", 1: "pung", 2: "kong"}


def _set_text(code: int) -> str:
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def _set_parts() -> tuple[tuple[ReadingPart | None, ReadingPart | None], ...]:
    rows: list[tuple[ReadingPart | None, ReadingPart | None]] = []
    for code in range(136):
        kind, t = divmod(code, 34)
        if code >= 102:
            text = format_tiles([TILES[code - 102]] * 2)
            rows.append((reading_part("pair", text, True, False, False), reading_part("pair", text, True, False, True)))
        elif (kind == 0 and t < 27 and t % 9 <= 6) or 0 < kind < 3:
            text = _set_text(code)
            rows.append((reading_part(KIND[kind], text, True, False, False),
                         reading_part(KIND[kind], text, True, False, True)))
        else:
            rows.append((None, None))
    return tuple(rows)


#: reading parts by set code (0..101) or 102 + pair tile, then winning (0/1); built at import
SET_PARTS = _set_parts()


def orphan_part(tiles: str) -> ReadingPart:
    """The one part of a thirteen-orphans reading."""
    return reading_part("orphans", tiles, True, False, True)


def reading_parts(hand: Hand, best: Outcome, cat: Catalogue) -> list[ReadingPart]:
    """The parts of ``best``'s reading of ``hand``: concealed ones, then the declared melds."""
    shape = best.shape
    if shape != "standard":
        if shape == "bonus":
            return []
        if shape == "thirteen_orphans":
            return [orphan_part(hand.tiles)]
        return plugin_parts(hand, best, cat)
    table = SET_PARTS
    r = best.reading
    win_set = best.win_set
    parts = [table[102 + r[0]][win_set == -1]]
    for code in r[1:len(r) - len(hand.melds)]:
        won = code == win_set
        if won:
            win_set = -2  # one set holds the winning tile, even with two alike
        parts.append(table[code][won])
    parts.extend(hand.meld_parts)
    return parts  # type: ignore[return-value]


def plugin_parts(hand: Hand, best: Outcome, cat: Catalogue) -> list[ReadingPart]:
    """The parts of a reading of a shape a plugin adds, as its ``parts`` gives them."""
    shape = cat.shapes.get(best.shape)
    if shape is None or shape.parts is None:
        return []
    concealed = best.reading[:len(best.reading) - len(hand.melds)]
    parts, won = [], False
    plugin = cat.owner.get(("shape", shape.id), "?")
    try:
        given = [(kind, list(tiles)) for kind, tiles in shape.parts(concealed)]
    except Exception as exc:  # noqa: BLE001 - a plugin's shape may raise anything: named as a PluginError
        raise raised(plugin, "hkcore_shapes", f"shape {shape.id!r}", exc) from None
    for kind, tiles in given:
        if (kind not in KIND.values() and kind != "pair") or not all(type(t) is int and 0 <= t < 34 for t in tiles):
            raise plugin_error(plugin, "hkcore_shapes", f"shape {shape.id!r}",
                               f"parts gave {shown((kind, tiles))}; a part is (pair|chow|pung|kong, tile indices)")
        winning = not won and hand.win_index in tiles
        won = won or winning
        parts.append(reading_part(kind, format_tiles([TILES[t] for t in tiles]), True, False, winning))
    parts.extend(hand.meld_parts)
    return parts
