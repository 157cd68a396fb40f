"""A preset's lint: rules that load but cannot mean what they say (``Preset.warnings``).

A preset may be valid key by key and still hold a trap: ``tiles = 136`` on a
preset with ``no_bonus`` (無花) makes it score in every win; a robbing pattern
under a table where nobody may rob is never met; a limit below the minimum
never counts. ``lint(preset)`` names each such rule as a ``Lint``: a code
(``LINT_CODES``), the dotted TOML path to change and a message naming the value.
Each check reads only the preset (and, for a plugin's pattern, what the
catalogue says it needs); docs/house-rules.md, "Warnings", explains them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hkcore import registry
from hkcore.core import WHEN
from hkcore.preset.rules import PatternRule
from hkcore.registry import Catalogue, shapes_missing

if TYPE_CHECKING:
    from hkcore.preset.model import Preset

#: the codes of the warnings, each with what it says (docs/house-rules.md, "Warnings")
LINT_CODES = {
    "always-holds": "a pattern met in every win under the preset's own rules",
    "never-holds": "a pattern, or its condition, that the preset's own rules never let be met",
    "limit-below-minimum": "a limit hand, or an instant win, worth less than the minimum: it never counts",
    "above-cap": "a value or limit above the cap: the hand is counted at the cap",
    "unused-knob": "a key set away from its default that no pattern or rule reads under the rest of the preset",
}

#: built-in patterns met only with bonus tiles (flowers and seasons); any ``"instant"`` pattern is too
BONUS_PATTERNS = frozenset({"seat_flower", "seat_season", "flower_set", "season_set", "bonus_tile"})
#: built-in patterns met only without bonus tiles
NO_BONUS_PATTERNS = frozenset({"no_bonus"})
#: built-in patterns that need a shape without saying so in ``Pattern.shape``
SHAPE_OF = {"thirteen_orphans": "thirteen_orphans"}
#: what a built-in pattern's own definition says of every win it is met in, as words of ``WHEN``
#: (docs/rules.md; a hand saying otherwise is refused): a ``when`` of the opposite word never holds with it
IMPLIES: dict[str, frozenset[str]] = {
    "self_draw": frozenset({"self_draw"}),
    "last_tile": frozenset({"self_draw"}),
    "last_discard": frozenset({"discard"}),
    "kong_replacement": frozenset({"self_draw"}),
    "kong_on_kong": frozenset({"self_draw"}),
    "robbing_kong": frozenset({"discard"}),
    "concealed_hand": frozenset({"concealed"}),
    "four_concealed_pungs": frozenset({"concealed"}),
    "nine_gates": frozenset({"concealed"}),
    "thirteen_orphans": frozenset({"concealed"}),
}
#: the first-turn patterns: what their ``on`` option says of the win (rules.md, ruling 7)
FIRST_TURN = {"heavenly_hand", "earthly_hand", "human_hand"}
ON_IMPLIES = {"deal": frozenset({"self_draw", "concealed", "dealer"}),
              "first_draw": frozenset({"self_draw", "concealed", "non_dealer"}),
              "first_discard": frozenset({"discard", "concealed", "non_dealer"})}
#: each word of ``WHEN`` to its opposite (``WHEN`` lists each condition beside its opposite)
OPPOSITE = {**dict(zip(tuple(WHEN)[::2], tuple(WHEN)[1::2])), **dict(zip(tuple(WHEN)[1::2], tuple(WHEN)[::2]))}
#: pattern options read only for a hand holding a concealed kong, with their defaults
CONCEALED_KONG_OPTIONS = {("concealed_hand", "concealed_kong"): True, ("four_concealed_pungs", "kongs"): True}
#: the most times a built-in pattern can be met in one hand (1 unless named); a plugin's: 64, the contract's most
MOST_COUNT = {"dragon_pung": 3, "bonus_tile": 8}
PLUGIN_MOST_COUNT = 64


@dataclass(frozen=True)
class Lint:
    """One warning about a preset: its ``code`` (a key of ``LINT_CODES``), the
    dotted TOML ``path`` to change and a ``message`` naming the value.
    ``at_table``: it holds where the preset is played (a table, a
    simulation), not for hands given to score, which may say what play never
    does (a robbed kong where nobody may rob, a concealed kong under a table
    without them)."""

    code: str
    path: str
    message: str
    at_table: bool = False

    def __str__(self) -> str:
        return f"{self.path}: {self.code}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        """The warning as JSON-ready data: ``code``, ``path``, ``message`` and ``at_table``."""
        return {"code": self.code, "path": self.path, "message": self.message, "at_table": self.at_table}


def lint(preset: Preset, catalogue: Catalogue | None = None) -> tuple[Lint, ...]:
    """The warnings about ``preset``, in the order of ``CHECKS`` (each check's in
    the preset's pattern order). ``catalogue``: where a plugin pattern's needs
    are read (the current registry's by default)."""
    cat = catalogue if catalogue is not None else registry.catalogue()
    return tuple(w for check in CHECKS for w in check(preset, cat))


# ---------------------------------------------------------------- helpers

def _name(rule: PatternRule, cat: Catalogue) -> str:
    found = cat.patterns.get(rule.id)
    return f"{rule.id} ({found.name_zh})" if found is not None and found.name_zh else rule.id


def _named(rule: PatternRule, p: Preset, cat: Catalogue) -> str:
    """The pattern with its Chinese name and its worth: ``no_bonus (無花, 1 faan)``."""
    found = cat.patterns.get(rule.id)
    zh = f"{found.name_zh}, " if found is not None and found.name_zh else ""
    return f"{rule.id} ({zh}{_worth(rule, p.unit)})"


def _worth(rule: PatternRule, unit: str) -> str:
    if rule.limit is not None:
        return f"limit {rule.limit}"
    if rule.by_count is not None:
        return f"by count {'/'.join(map(str, rule.by_count))}"
    return f"{rule.value} {unit}"


def _worth_path(rule: PatternRule) -> str:
    """The path of the key holding a pattern's worth (the entry itself where it is a bare number)."""
    if rule.limit is not None:
        return f"patterns.{rule.id}.limit"
    if rule.by_count is not None:
        return f"patterns.{rule.id}.by_count"
    return f"patterns.{rule.id}" if isinstance(rule.to_toml(), int) else f"patterns.{rule.id}.value"


def _most(rule: PatternRule, cat: Catalogue) -> int:
    """The most a pattern adds to one hand (not for limits)."""
    if rule.by_count is not None:
        return max(rule.by_count)
    return (rule.value or 0) * (MOST_COUNT.get(rule.id, 1) if _builtin(rule, cat) else PLUGIN_MOST_COUNT)


def _builtin(rule: PatternRule, cat: Catalogue) -> bool:
    """Whether the pattern in play is hkcore's own (whose needs the tables above say)."""
    return cat.owner.get(("pattern", rule.id), "").startswith("hkcore.")


def _scope(rule: PatternRule, cat: Catalogue) -> str | None:
    found = cat.patterns.get(rule.id)
    return found.scope if found is not None else None


def _off(rule: PatternRule) -> str:
    return f"turn it off ({rule.id} = false)"


def _toml(value: Any) -> str:
    if value is True or value is False:
        return str(value).lower()
    if value is None:
        return "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return str(value)


# ---------------------------------------------------------------- the checks, one per rule

def bonus_tiles(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """Under 136 tiles (no flowers or seasons): ``no_bonus`` always holds;
    flower and season patterns, and instant bonus wins, never do."""
    if p.bonus_tiles:
        return
    for r in p.patterns:
        if r.id in NO_BONUS_PATTERNS:
            yield Lint("always-holds", f"patterns.{r.id}",
                       f"{_named(r, p, cat)} holds in every hand: tiles = {p.tiles} deals no "
                       f"flower or season, so every win scores it; {_off(r)} or play tiles = 144")
        elif r.id in BONUS_PATTERNS or _scope(r, cat) == "instant":
            yield Lint("never-holds", f"patterns.{r.id}",
                       f"{_named(r, p, cat)} needs flowers or seasons, and tiles = {p.tiles} "
                       f"deals none: it is never met; {_off(r)} or play tiles = 144")


def robbing(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """``robbing_kong`` scored where ``[claims] robbing_kong = "none"`` lets no kong be robbed."""
    r = p.rule("robbing_kong")
    if r is not None and p.claims.get("robbing_kong") == "none":
        yield Lint("never-holds", "patterns.robbing_kong",
                   f"{_named(r, p, cat)} needs a robbed kong, and claims.robbing_kong = \"none\" "
                   f"lets no kong be robbed: it is never met at the table; {_off(r)} or let added kongs be robbed "
                   "(robbing_kong = \"added\")", at_table=True)


def kongs(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """``kong_on_kong`` scored where the table allows no kong from the hand
    (the second kong of two in a row is declared after a replacement draw)."""
    r = p.rule("kong_on_kong")
    if r is not None and not p.table.concealed_kong and not p.table.added_kong:
        yield Lint("never-holds", "patterns.kong_on_kong",
                   f"{_named(r, p, cat)} needs a second kong declared right after a kong's replacement "
                   "draw, and [table] concealed_kong = false and added_kong = false allow no kong from the "
                   f"hand: it is never met at the table (only in hands given to score); {_off(r)} or allow "
                   "concealed or added kongs", at_table=True)


def shapes(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """A pattern that needs a winning shape the preset's ``shapes`` leaves off."""
    missing = shapes_missing([r.id for r in p.patterns], p.shapes, cat)
    missing.update({r.id: SHAPE_OF[r.id] for r in p.patterns
                    if r.id in SHAPE_OF and SHAPE_OF[r.id] not in p.shapes and _builtin(r, cat)})
    for r in p.patterns:
        if r.id in missing:
            sid = missing[r.id]
            yield Lint("never-holds", f"patterns.{r.id}",
                       f"{_named(r, p, cat)} needs the {sid!r} shape, which shapes leaves off: it "
                       f"is never met; add {sid!r} to shapes, or {_off(r)}")


def conditions(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """A ``when`` asking the opposite of what the pattern itself needs (a self-draw pattern ``when = "discard"``)."""
    for r in p.patterns:
        if not r.when:
            continue
        implied = IMPLIES.get(r.id, frozenset())
        if r.id in FIRST_TURN:
            implied = ON_IMPLIES.get(str(r.options.get("on")), frozenset())
        if not _builtin(r, cat):
            implied = frozenset()  # a plugin's pattern of the same id means what its plugin says
        for word in r.when:
            needs = OPPOSITE[word]
            if needs in implied:
                yield Lint("never-holds", f"patterns.{r.id}.when",
                           f"when = {_toml(word)} never holds with {_name(r, cat)}, which is met only "
                           f"{_WORDS[needs]}: the pattern never counts; drop the condition, or {_off(r)}")


#: how a condition reads in a message
_WORDS = {"self_draw": "on a self-draw", "discard": "on a discard", "concealed": "in a concealed hand",
          "open": "in an open hand", "dealer": "by the dealer", "non_dealer": "by a seat other than the dealer"}


def minimum(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """A limit hand worth less than the minimum even with all its ``limit_adds``,
    or an instant bonus win worth less even with every bonus-tile pattern,
    neither allowed to win below the minimum."""
    if p.minimum == 0:
        return
    adds = [a for a in p.patterns if a.id in p.limit_adds and a.limit is None]
    bonus = [b for b in p.patterns if _scope(b, cat) == "bonus" and b.id not in NO_BONUS_PATTERNS and b.limit is None]
    for r in p.patterns:
        if r.wins_below_minimum:
            continue
        if r.limit is not None:
            own, others = r.limit, sum(_most(a, cat) for a in adds if a.id != r.id)
            what, after = (f"a limit hand of {r.limit}", "a hand meeting it wins only on an ordinary count of the "
                           "minimum or more, which then stands instead, so the limit never counts")
        elif _scope(r, cat) == "instant":
            own, others = _most(r, cat), sum(_most(b, cat) for b in bonus)
            what, after = f"an instant win worth {_worth(r, p.unit)}", "it can never be declared"
        else:
            continue
        if own + others < p.minimum:
            fix = f"raise it to {p.minimum - others}" if r.by_count is None else "raise it"
            yield Lint("limit-below-minimum", _worth_path(r),
                       f"{_name(r, cat)} is {what}, at most {own + others} with all that may add to it, below the "
                       f"minimum {p.minimum}: {after}; {fix}, or give it wins_below_minimum = true")


def cap(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """A pattern whose value or limit alone is above the cap."""
    if p.cap is None:
        return
    for r in p.patterns:
        top = r.limit if r.limit is not None else max(r.by_count) if r.by_count is not None else r.value or 0
        if top > p.cap:
            yield Lint("above-cap", _worth_path(r),
                       f"{_named(r, p, cat)} is above the cap {p.cap}: a hand is counted at "
                       f"{p.cap} at most, so it scores {p.cap}; lower it to {p.cap}, or raise the cap")


def knobs(p: Preset, cat: Catalogue) -> Iterator[Lint]:
    """A key set away from its default that nothing reads under the rest of
    the preset: ``[table]`` keys about kongs the table never allows, the
    dealer's repeats when the deal always passes, a concealed-kong option of
    a pattern under a table without concealed kongs, robbing a concealed kong
    for thirteen orphans without that shape, what a robbed kong pays where
    none is robbed, payment adjustments without payments, ``limit_adds``
    without a limit hand."""
    t = p.table
    self_kongs = t.concealed_kong or t.added_kong
    if not self_kongs and t.kong_tile != "any":
        yield Lint("unused-knob", "table.kong_tile",
                   f"kong_tile = {_toml(t.kong_tile)} is never read: [table] concealed_kong = false and added_kong "
                   "= false, so no kong is made from the hand", at_table=True)
    if not t.concealed_kong and not t.show_concealed_kongs:
        yield Lint("unused-knob", "table.show_concealed_kongs",
                   "show_concealed_kongs = false is never read: [table] concealed_kong = false, so no concealed "
                   "kong is declared", at_table=True)
    if not t.dealer_stays and t.max_dealer_repeats is not None:
        yield Lint("unused-knob", "table.max_dealer_repeats",
                   f"max_dealer_repeats = {t.max_dealer_repeats} is never read: dealer_stays = [], so the deal "
                   "passes after every hand", at_table=True)
    if not t.concealed_kong:
        for r in p.patterns:
            for (pid, option), default in CONCEALED_KONG_OPTIONS.items():
                if r.id == pid and option in r.options and r.options[option] != default:
                    yield Lint("unused-knob", f"patterns.{pid}.{option}",
                               f"{option} = {_toml(r.options[option])} is never read at the table: [table] "
                               "concealed_kong = false, so no hand holds a concealed kong (it is read only for "
                               "hands given to score with one)", at_table=True)
    if p.claims.get("robbing_kong") == "added_and_concealed_orphans" and "thirteen_orphans" not in p.shapes:
        yield Lint("unused-knob", "claims.robbing_kong",
                   'robbing_kong = "added_and_concealed_orphans" lets thirteen orphans rob a concealed kong, and '
                   "shapes leaves thirteen_orphans off: it plays as \"added\"", at_table=True)
    scheme = cat.schemes.get(p.payments["scheme"]) if p.payments is not None else None
    rob = scheme.params.model_fields.get("robbing_kong") if scheme is not None else None
    if (p.payments is not None and rob is not None and p.claims.get("robbing_kong") == "none"
            and p.payments.get("robbing_kong", rob.default) != rob.default):
        yield Lint("unused-knob", "payments.robbing_kong",
                   f"robbing_kong = {p.payments['robbing_kong']} is never read at the table: claims.robbing_kong = "
                   "\"none\" lets no kong be robbed", at_table=True)
    if p.payments is None:
        for pid in p.plugins:
            yield Lint("unused-knob", f"plugins.{pid}",
                       f"the payment adjustment {pid!r} is never applied: payments = false (no payment table)")
    if p.limit_adds and not any(r.limit is not None for r in p.patterns):
        yield Lint("unused-knob", "limit_adds",
                   f"limit_adds = {_toml(p.limit_adds)} is never read: no pattern in play is a limit hand")


#: the checks ``lint`` runs, in order: each takes the preset and the catalogue
CHECKS: tuple[Callable[[Preset, Catalogue], Iterator[Lint]], ...] = (
    bonus_tiles, robbing, kongs, shapes, conditions, minimum, cap, knobs)


__all__ = ["CHECKS", "LINT_CODES", "Lint", "lint"]
