"""The built-in faan patterns of docs/rules.md, registered as a plugin.

Each detector says how many times its pattern is met in one situation
(see :class:`hkcore.patterns.Situation`); values live in presets.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore.hookspecs import hookimpl
from hkcore.models import SEAT_NUMBER
from hkcore.patterns import (
    DRAGONS,
    HONOURS,
    ORPHAN_KINDS,
    SUIT_MASKS,
    SUITED,
    TERMINALS,
    WINDS,
    Pattern,
    Situation,
)

Opts = Mapping[str, Any]
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _bits(x: int) -> int:
    return x.bit_count()


def chicken_hand(s: Situation, o: Opts) -> int:
    return 1


def all_chows(s: Situation, o: Opts) -> int:
    return int(s.n_chows == 4)


def concealed_hand(s: Situation, o: Opts) -> int:
    if s.claimed_sets:
        return 0
    return int(o["concealed_kong"] or not s.concealed_kongs)


def self_draw(s: Situation, o: Opts) -> int:
    return int(s.hand.self_draw)


def no_bonus(s: Situation, o: Opts) -> int:
    return int(not s.hand.flowers and not s.hand.seasons)


def seat_flower(s: Situation, o: Opts) -> int:
    return int(SEAT_NUMBER[s.hand.seat_wind] in s.hand.flowers)


def seat_season(s: Situation, o: Opts) -> int:
    return int(SEAT_NUMBER[s.hand.seat_wind] in s.hand.seasons)


def flower_set(s: Situation, o: Opts) -> int:
    return int(len(s.hand.flowers) == 4)


def season_set(s: Situation, o: Opts) -> int:
    return int(len(s.hand.seasons) == 4)


def bonus_tile(s: Situation, o: Opts) -> int:
    return len(s.hand.flowers) + len(s.hand.seasons)


def dragon_pung(s: Situation, o: Opts) -> int:
    return _bits(s.pungs & DRAGONS)


def seat_wind(s: Situation, o: Opts) -> int:
    return (s.pungs >> s.seat) & 1


def round_wind(s: Situation, o: Opts) -> int:
    return (s.pungs >> s.round) & 1


def last_tile(s: Situation, o: Opts) -> int:
    return int(s.hand.last_tile and s.hand.self_draw)


def last_discard(s: Situation, o: Opts) -> int:
    return int(s.hand.last_tile and not s.hand.self_draw)


def kong_replacement(s: Situation, o: Opts) -> int:
    return int(s.hand.kong_replacement >= 1)


def kong_on_kong(s: Situation, o: Opts) -> int:
    return int(s.hand.kong_replacement == 2)


def robbing_kong(s: Situation, o: Opts) -> int:
    return int(s.hand.robbing_kong)


def all_pungs(s: Situation, o: Opts) -> int:
    return int(s.n_pungs == 4)


def _one_suit(kinds: int) -> bool:
    suited = kinds & SUITED
    return any(suited and not suited & ~m for m in SUIT_MASKS)


def half_flush(s: Situation, o: Opts) -> int:
    return int(bool(s.kinds & HONOURS) and _one_suit(s.kinds))


def full_flush(s: Situation, o: Opts) -> int:
    return int(not s.kinds & HONOURS and _one_suit(s.kinds))


def mixed_terminals(s: Situation, o: Opts) -> int:
    k = s.kinds
    return int(not k & ~ORPHAN_KINDS and bool(k & TERMINALS) and bool(k & HONOURS))


def little_three_dragons(s: Situation, o: Opts) -> int:
    return int(_bits(s.pungs & DRAGONS) == 2 and bool((1 << s.pair) & DRAGONS))


def little_four_winds(s: Situation, o: Opts) -> int:
    return int(_bits(s.pungs & WINDS) == 3 and bool((1 << s.pair) & WINDS))


def big_three_dragons(s: Situation, o: Opts) -> int:
    return int(_bits(s.pungs & DRAGONS) == 3)


def big_four_winds(s: Situation, o: Opts) -> int:
    return int(_bits(s.pungs & WINDS) == 4)


def four_concealed_pungs(s: Situation, o: Opts) -> int:
    if s.concealed_pungs != 4:
        return 0
    return int(o["kongs"] or not s.n_kongs)


def seven_bonus(s: Situation, o: Opts) -> int:
    return int(len(s.hand.flowers) + len(s.hand.seasons) == 7)


def eight_bonus(s: Situation, o: Opts) -> int:
    return int(len(s.hand.flowers) + len(s.hand.seasons) == 8)


def all_honours(s: Situation, o: Opts) -> int:
    return int(not s.kinds & ~HONOURS)


def all_terminals(s: Situation, o: Opts) -> int:
    return int(not s.kinds & ~TERMINALS)


def nine_gates(s: Situation, o: Opts) -> int:
    if s.hand.melds:
        return 0
    c = s.counts
    suit = s.win // 9
    if suit > 2 or sum(c[9 * suit:9 * suit + 9]) != 14:
        return 0
    own = c[9 * suit:9 * suit + 9]
    wait = o["wait"]
    if wait == "pure_on_discard":
        wait = "any" if s.hand.self_draw else "pure"
    if wait == "pure":
        held = list(own)
        held[s.win - 9 * suit] -= 1
        return int(tuple(held) == NINE_GATES)
    return int(all(x >= n for x, n in zip(own, NINE_GATES)))


def thirteen_orphans(s: Situation, o: Opts) -> int:
    return int(s.shape == "thirteen_orphans")


def four_kongs(s: Situation, o: Opts) -> int:
    return int(s.n_kongs == 4)


def _first_turn(s: Situation, o: Opts) -> int:
    return int(s.hand.first_turn is not None and s.hand.first_turn == o["on"])


#: every built-in pattern names its compiled detector (``native``) explicitly:
#: tests hold each name to a detector of the compiled kernel
BUILTIN_PATTERNS: tuple[Pattern, ...] = (
    Pattern("chicken_hand", "Chicken Hand", "雞糊", chicken_hand, fallback=True,
            doc="a complete hand with no scoring element", native="chicken_hand"),
    Pattern("all_chows", "All Chows", "平糊", all_chows, "sets", doc="four chows and a pair", native="all_chows"),
    Pattern("concealed_hand", "Concealed Hand", "門前清", concealed_hand, options={"concealed_kong": True},
            doc="no set claimed from a discard; option concealed_kong: "
                "whether a concealed kong keeps the hand concealed",
            native="concealed_hand"),
    Pattern("self_draw", "Self-drawn", "自摸", self_draw, doc="winning tile drawn from the wall, replacements included",
            native="self_draw"),
    Pattern("no_bonus", "No Bonus Tiles", "無花", no_bonus, "bonus", doc="no flower or season at all",
            native="no_bonus"),
    Pattern("seat_flower", "Seat Flower", "正花", seat_flower, "bonus", doc="the flower numbered as the seat",
            native="seat_flower"),
    Pattern("seat_season", "Seat Season", "正花", seat_season, "bonus", doc="the season numbered as the seat",
            native="seat_season"),
    Pattern("flower_set", "Complete Flowers", "一台花", flower_set, "bonus", doc="all four flowers",
            native="flower_set"),
    Pattern("season_set", "Complete Seasons", "一台花", season_set, "bonus", doc="all four seasons",
            native="season_set"),
    Pattern("bonus_tile", "Bonus Tile", "花", bonus_tile, "bonus", doc="each bonus tile held", native="bonus_tile"),
    Pattern("dragon_pung", "Dragon Pung", "三元牌", dragon_pung, "sets", doc="each pung or kong of a dragon",
            native="dragon_pung"),
    Pattern("seat_wind", "Seat Wind", "門風", seat_wind, "sets", doc="pung or kong of the seat wind",
            native="seat_wind"),
    Pattern("round_wind", "Round Wind", "圈風", round_wind, "sets", doc="pung or kong of the round wind",
            native="round_wind"),
    Pattern("last_tile", "Last Tile", "海底撈月", last_tile, doc="self-draw of the last tile of the live wall",
            native="last_tile"),
    Pattern("last_discard", "Last Discard", "河底撈魚", last_discard, doc="win on the last discard",
            native="last_discard"),
    Pattern("kong_replacement", "Kong Replacement", "槓上開花", kong_replacement,
            doc="win on the replacement draw after a kong", native="kong_replacement"),
    Pattern("kong_on_kong", "Kong on Kong", "連槓開花", kong_on_kong,
            doc="win on the replacement draw after a second kong in a row", native="kong_on_kong"),
    Pattern("robbing_kong", "Robbing the Kong", "搶槓", robbing_kong, doc="win on a tile added to a pung",
            native="robbing_kong"),
    Pattern("all_pungs", "All Pungs", "對對糊", all_pungs, "sets", doc="four pungs or kongs and a pair",
            native="all_pungs"),
    Pattern("half_flush", "Half Flush", "混一色", half_flush, doc="one numbered suit and honours", native="half_flush"),
    Pattern("mixed_terminals", "Mixed Terminals", "混幺九", mixed_terminals, "sets",
            doc="every set and the pair of 1s, 9s and honours, both present", native="mixed_terminals"),
    Pattern("little_three_dragons", "Little Three Dragons", "小三元", little_three_dragons, "sets",
            doc="two dragon pungs and a pair of the third", native="little_three_dragons"),
    Pattern("little_four_winds", "Little Four Winds", "小四喜", little_four_winds, "sets",
            doc="three wind pungs and a pair of the fourth", native="little_four_winds"),
    Pattern("full_flush", "Full Flush", "清一色", full_flush, doc="one numbered suit, no honours", native="full_flush"),
    Pattern("big_three_dragons", "Big Three Dragons", "大三元", big_three_dragons, "sets",
            doc="pungs of all three dragons", native="big_three_dragons"),
    Pattern("four_concealed_pungs", "Four Concealed Pungs", "坎坎糊", four_concealed_pungs, "sets",
            options={"kongs": True},
            doc="four pungs or kongs none claimed (a winning discard may complete only the pair); option kongs",
            native="four_concealed_pungs"),
    Pattern("seven_bonus", "Small Flower Hand", "花糊", seven_bonus, "instant", doc="seven bonus tiles: instant win",
            native="seven_bonus"),
    Pattern("eight_bonus", "Eight Immortals", "八仙過海", eight_bonus, "instant",
            doc="all eight bonus tiles: instant win",
            native="eight_bonus"),
    Pattern("all_honours", "All Honours", "字一色", all_honours, doc="every tile a wind or dragon",
            native="all_honours"),
    Pattern("all_terminals", "All Terminals", "清幺九", all_terminals, doc="every tile a 1 or a 9",
            native="all_terminals"),
    Pattern("nine_gates", "Nine Gates", "九蓮寶燈", nine_gates, "sets",
            options={"wait": ("pure", "any", "pure_on_discard")},
            doc="concealed 1112345678999 plus one tile of the suit; option wait: pure, any or pure_on_discard",
            native="nine_gates"),
    Pattern("big_four_winds", "Big Four Winds", "大四喜", big_four_winds, "sets", doc="pungs of all four winds",
            native="big_four_winds"),
    Pattern("thirteen_orphans", "Thirteen Orphans", "十三幺", thirteen_orphans,
            doc="one of each orphan plus a duplicate",
            native="thirteen_orphans"),
    Pattern("four_kongs", "Four Kongs", "十八羅漢", four_kongs, "sets", doc="four kongs and a pair",
            native="four_kongs"),
    Pattern("heavenly_hand", "Heavenly Hand", "天糊", _first_turn,
            options={"on": ("deal", "first_draw", "first_discard")},
            doc="first-turn win; option on: deal, first_draw or first_discard", native="first_turn"),
    Pattern("earthly_hand", "Earthly Hand", "地糊", _first_turn,
            options={"on": ("first_discard", "first_draw", "deal")},
            doc="first-turn win; option on: deal, first_draw or first_discard", native="first_turn"),
    Pattern("human_hand", "Human Hand", "人糊", _first_turn, options={"on": ("first_discard", "first_draw", "deal")},
            doc="first-turn win; option on: deal, first_draw or first_discard", native="first_turn"),
)


@hookimpl
def hkcore_patterns() -> list[Pattern]:
    """The patterns of docs/rules.md."""
    return list(BUILTIN_PATTERNS)
