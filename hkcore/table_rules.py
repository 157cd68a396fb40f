"""The ``[table]`` section of a preset: how a hand and a match are played.

One model is the validator, the JSON Schema and the docs' key table of the
section (docs/house-rules.md). In TOML a number that may be absent is given
as ``false``; in Python it is ``None``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

#: the most points a table may start with or play to
MAX_POINTS = 10_000_000
#: tiles the deal takes from the wall: 14 to the dealer, 13 to each other seat (GAME.md §2)
DEALT = 14 + 3 * 13


def most_dead_wall(tiles: int) -> int:
    """The largest dead wall that leaves a live wall to play under a set of
    ``tiles`` tiles: one live tile after the deal (90 of 144, 82 of 136)."""
    return tiles - DEALT - 1


def _off(value: Any) -> Any:
    """TOML's ``false`` for "none" read as None (``true`` stays, and is refused)."""
    return None if value is False else value


#: a number that TOML may give as ``false`` for none
_OFF = BeforeValidator(_off)


class TableRules(BaseModel):
    """How a preset's table plays (docs/house-rules.md, "[table]"): the wall, kongs, the
    claim window, the dealer's turn and the length of a match."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Table")

    # the most a wall of 144 leaves in the schema; each tile count's own bound is checked by table_problems,
    # whose message gives that count's range
    dead_wall: Annotated[Annotated[int, Field(ge=0, strict=True, json_schema_extra={"maximum": most_dead_wall(144)})],
                         Field(
        description='tiles at the back of the wall that live draws never take (the dead wall): at most '
                    f'{most_dead_wall(136)} with 136 tiles, {most_dead_wall(144)} with 144 (a live wall of one '
                    'tile or more after the deal)')] = 0
    replacement: Annotated[Literal["back", "front"], Field(
        description='the end of the wall replacement draws (after a bonus tile or a kong) take from')] = "back"
    concealed_kong: Annotated[StrictBool, Field(description='a seat may declare a concealed kong on its turn')] = True
    added_kong: Annotated[StrictBool, Field(
        description='a seat may add a drawn or held tile to its own exposed pung')] = True
    kong_tile: Annotated[Literal["any", "drawn"], Field(
        description='which tile a self kong may be made with: any held tile, or only the tile just drawn')] = "any"
    self_pung: Annotated[StrictBool, Field(
        description='a seat may lay the drawn tile with two held ones as a face-up pung (not a claim)')] = False
    show_concealed_kongs: Annotated[StrictBool, Field(
        description="every seat sees a concealed kong's tiles (else they stay hidden until the hand ends)")] = True
    claim_seconds: Annotated[Annotated[int, Field(ge=1, le=600, strict=True)] | None, _OFF, Field(
        description='seconds a server gives a claim window (a hint: the engine keeps no clock); '
                    'false for no limit')] = None
    turn_seconds: Annotated[Annotated[int, Field(ge=1, le=3600, strict=True)] | None, _OFF, Field(
        description="seconds a server gives a person's turn before the fallback bot plays the seat until the "
                    "person is back (a hint: the engine keeps no clock); false for the server's own")] = None
    dealer_stays: Annotated[tuple[Literal["dealer_win", "draw"], ...], Field(
        description='after what the dealer keeps the deal: "dealer_win" (a dealer win), '
                    '"draw" (an exhaustive draw)')] = ("dealer_win",)
    rounds: Annotated[Annotated[int, Field(ge=1, le=16, strict=True)] | None, _OFF, Field(
        description='rounds in a match (every player deals once a round); false for no limit by rounds')] = 4
    hands: Annotated[Annotated[int, Field(ge=1, le=10_000, strict=True)] | None, _OFF, Field(
        description='hands in a match; false for no limit by hands')] = None
    target: Annotated[Annotated[int, Field(ge=1, le=MAX_POINTS, strict=True)] | None, _OFF, Field(
        description='points that end a match once a player reaches them; false for none')] = None
    start_points: Annotated[Annotated[int, Field(ge=0, le=MAX_POINTS, strict=True)] | None, _OFF, Field(
        description="each player's points at the start of a match: false under a faan ledger (no payments), "
                    "0 by default with a payment table")] = None
    last_discard: Annotated[Literal["win", "any"], Field(
        description='what may be claimed on the last discard: only a win, or any set too')] = "win"
    max_dealer_repeats: Annotated[Annotated[int, Field(ge=1, le=100, strict=True)] | None, _OFF, Field(
        description='how many times in a row a dealer may keep the deal; false for no limit')] = None

    def to_toml(self) -> dict[str, Any]:
        """The section as TOML data (``false`` for None)."""
        out: dict[str, Any] = {}
        for key, value in self.model_dump().items():
            out[key] = False if value is None else list(value) if isinstance(value, tuple) else value
        return out


#: the keys of ``[table]``, in the model's order
TABLE_KEYS = tuple(TableRules.model_fields)


def docs_table() -> str:
    """The keys of ``[table]`` as the Markdown table of docs/house-rules.md."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    defaults = TableRules().to_toml()
    for key, info in TableRules.model_fields.items():
        default = defaults[key]
        shown = "false" if default is False else "true" if default is True else repr(default).replace("'", '"')
        rows.append(f"| `{key}` | `{shown}` | {info.description} |")
    return "\n".join(rows)


def table_problems(rules: TableRules, *, payments: bool, robbing_kong: str,
                   tiles: int = 144) -> list[tuple[str, str, Any]]:
    """What a preset's ``[table]`` may not say given the rest of the preset
    (its payments, robbing rule and tile count): (dotted TOML path, message,
    value) for each refused combination."""
    out: list[tuple[str, str, Any]] = []
    most = most_dead_wall(tiles)
    if rules.dead_wall > most:
        out.append(("table.dead_wall", f"a dead wall of {rules.dead_wall} tiles leaves no live wall to play with "
                    f"{tiles} tiles (the deal leaves {tiles - DEALT}): give 0 to {most}", rules.dead_wall))
    if rules.replacement == "front" and rules.dead_wall > 0:
        out.append(("table.dead_wall", f"a dead wall of {rules.dead_wall} tiles cannot be kept when replacements "
                    "come from the front (replacement = \"front\"); set dead_wall = 0", rules.dead_wall))
    if payments and rules.start_points is None:
        out.append(("table.start_points", "a preset with payments keeps points: give start_points a number "
                    "(0 to start level)", False))
    if not payments and rules.start_points is not None:
        out.append(("table.start_points", "a preset without payments keeps a faan ledger, not points: "
                    "start_points must be false", rules.start_points))
    if rules.rounds is None and rules.hands is None and rules.target is None:
        out.append(("table.rounds", "rounds, hands and target are all false: a match would never end", False))
    if robbing_kong != "none" and not rules.added_kong:
        out.append(("claims.robbing_kong", f"{robbing_kong!r} robs added kongs, but [table] added_kong = false; "
                    "set robbing_kong = \"none\"", robbing_kong))
    if robbing_kong == "added_and_concealed_orphans" and not rules.concealed_kong:
        out.append(("claims.robbing_kong", "'added_and_concealed_orphans' robs concealed kongs, but [table] "
                    "concealed_kong = false; set robbing_kong = \"added\"", robbing_kong))
    return out
