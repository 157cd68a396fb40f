"""The service's request and answer models: the OpenAPI document is made from them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, RootModel
from pydantic_core import PydanticCustomError

from hkcore.analysis import Analysis
from hkcore.claims import Claim
from hkcore.errors import HkcoreError
from hkcore.models import Hand, Position, Seat
from hkcore.results import ScoreResult
from hkcore.server.limits import MAX_BODY
from hkcore.server.problems import PARSED

_HAND_DOC = ("a finished hand: the docs/rules.md JSON (a Hand) or the compact notation, e.g. "
             "'234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N'")
_POSITION_DOC = "a hand in play: the docs/rules.md JSON without the win (a Position) or notation without win:"
_PRESET_DOC = ("a preset id (GET /presets), or a custom preset as TOML text (it may extend the built-in "
               "presets and the server's presets folder only)")



def _parsed(parse: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A validator reading a value with hkcore's own ``parse``: its error rides in a ``PARSED`` pydantic
    error, for the answer to give in the parser's words (``problems.validation_problem``)."""

    def check(value: Any) -> Any:
        try:
            return parse(value)
        except HkcoreError as exc:
            raise PydanticCustomError(PARSED, "{detail}", {"detail": str(exc), "error": exc}) from None
        except RecursionError:
            raise PydanticCustomError(PARSED, "nested too deeply", {"error": None}) from None

    return check


# Hands are read with Hand.parse / Position.parse, whose errors name the field
# in the words of the Python API; the schema still says what they are.
HandIn = Annotated[Hand, PlainValidator(_parsed(Hand.parse), json_schema_input_type=Hand | str),
                   Field(description=_HAND_DOC)]
PositionIn = Annotated[Position, PlainValidator(_parsed(Position.parse), json_schema_input_type=Position | str),
                       Field(description=_POSITION_DOC)]
ClaimIn = Annotated[Claim, PlainValidator(_parsed(Claim.parse), json_schema_input_type=Claim)]
PresetRef = Annotated[str, Field(description=_PRESET_DOC, max_length=MAX_BODY)]
Presets = Annotated[PresetRef | list[PresetRef], Field(description=_PRESET_DOC + "; a list for several")]
BATCH_BODY_DOC = ('one hand per line (JSON or notation). The first line may name the preset, as in every other '
                   'request: {"preset": P}, P a preset id or a custom preset as TOML text (JSON-escaped); '
                   "then ?preset= is not given")
BATCH_QUERY_DOC = ("a preset id (GET /presets); default bga-old-style. For a custom preset, send "
                    '{"preset": "<TOML text>"} as the first line of the body instead')


class StrictRequest(BaseModel):
    """A request body: no fields beside its own."""

    model_config = ConfigDict(extra="forbid")


class ScoreRequest(StrictRequest):
    """``POST /score``: a hand under one preset (a ScoreResult) or several (a list)."""

    hand: HandIn
    preset: Presets = "bga-old-style"


class CompareRequest(StrictRequest):
    """``POST /compare``: a hand under several presets, side by side (default: every preset of the server)."""

    hand: HandIn
    presets: list[PresetRef] | None = None


class PositionRequest(StrictRequest):
    """``POST /position``: a hand in play, read as ``/analyse`` reads it."""

    hand: PositionIn


class AnalyseRequest(StrictRequest):
    """``POST /analyse``: tiles away, waits and their value (one preset: an Analysis; several: a list)."""

    hand: PositionIn
    preset: Presets = "bga-old-style"
    visible: Annotated[str, Field(max_length=1000, description="tiles face up elsewhere, for the unseen counts")] = ""


class LegalClaimsRequest(StrictRequest):
    """``POST /claims/legal``: the claims a waiting hand may make on a discard."""

    hand: PositionIn
    discard: str
    discarder: Seat
    preset: PresetRef = "bga-old-style"
    kong: Literal["added", "concealed"] | None = None
    last_tile: bool = False


def own_fields(request: type[BaseModel]) -> frozenset[str]:
    """A request's fields beside its ``hand``: an error naming one of them is about it, not the hand's ``hand.X``."""
    return frozenset(request.model_fields) - {"hand"}


class ResolveClaimsRequest(StrictRequest):
    """``POST /claims/resolve``: who gets the tile among the claims made."""

    claims: Annotated[list[ClaimIn], Field(max_length=16)]
    discarder: Seat
    preset: PresetRef = "bga-old-style"


class Entry(BaseModel):
    """One preset's answer in a list: its result, or its error (message, type, field)."""

    preset: str
    error: str | None = None
    type: str | None = None
    field: str | None = None


class ScoreEntry(Entry):
    """One preset's answer in ``POST /score``'s list."""

    result: ScoreResult | None = None


class AnalysisEntry(Entry):
    """One preset's answer in ``POST /analyse``'s list."""

    result: Analysis | None = None


class PresetListing(BaseModel):
    """One preset of ``GET /presets``: what a client shows in a list, and where it comes from."""

    id: str
    name: str
    unit: Literal["faan", "points"]
    minimum: int
    cap: int | None
    tiles: int
    origin: Literal["built-in", "presets folder"]


class Problem(BaseModel):
    """An error, as RFC 9457 problem details: ``detail`` is the Python error's
    message, ``field`` the request field (dotted) and ``value`` its value."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    error_type: str
    field: str | None = None
    value: Any = None
    errors: list[dict[str, Any]] = []


class BatchError(BaseModel):
    """A line of ``POST /score/batch``'s answer for a hand line that could not be scored (or, last, for
    the lines the time limit or the size limit left unscored)."""

    line: int = Field(description="the number of the input line it answers (from 1)")
    error: str
    type: str = Field(description="HandError, PresetError, ..., or Timeout, RequestTooLarge for the last line")
    field: str | None = Field(None, description="the hand's field the error names")


class Health(BaseModel):
    """``GET /health``: the service is up; its version, its core and how many presets it knows."""

    status: Literal["ok"]
    version: str
    core: str
    presets: int




class BatchLine(RootModel[ScoreResult | BatchError]):
    """A line of ``POST /score/batch``'s answer: a hand's ScoreResult, or a BatchError."""


# --------------------------------------------------------------------- tables (docs/server.md, "Tables")

TableSeat = Literal["E", "S", "W", "N"]
_SEATS_DOC = 'each seat\'s player: "human", or the name of a bot the server offers (docs/bots.md)'


def _default_seats() -> dict[TableSeat, str]:
    return {"E": "human", "S": "guard", "W": "guard", "N": "guard"}


class TableRequest(StrictRequest):
    """``POST /tables``: a table of one hand (or a whole match) under a preset, each seat a person or a bot."""

    preset: PresetRef = "hk-classic"
    seed: Annotated[int, Field(ge=0, le=2**63, strict=True)] | None = Field(
        None, description="a practice deal's seed, shown to every seat (whoever knows it knows every wall); null: "
                          "the server draws one from the OS's secure source")
    seats: dict[TableSeat, Annotated[str, Field(max_length=100)]] = Field(
        default_factory=lambda: _default_seats(),
        description=_SEATS_DOC + "; all four seats")
    match: bool = Field(False, strict=True,
                        description="true: a whole match (its rounds, hands or target), else one hand")
    names: dict[TableSeat, Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        default_factory=dict, description="display names by seat (default: the seat's wind for a person, the bot's "
                                          "name for a bot)")


class BotListing(BaseModel):
    """A bot a seat may be given (``GET /bots``)."""

    name: str
    description: str = Field(description="the whole first paragraph of the bot's docstring, as plain text (may be "
                                         "empty)")


class TableCreated(BaseModel):
    """``POST /tables``'s answer: the table's id, one secret token per human seat and the page's link for each."""

    id: str
    tokens: dict[TableSeat, str]
    seats: dict[TableSeat, str]
    links: dict[TableSeat, str] = Field(description="/play?table=ID&seat=S#TOKEN: the token in the fragment, which a "
                                                    "browser never sends")


class TablePreset(BaseModel):
    """The table's preset, as a page shows it."""

    id: str
    name: str
    unit: Literal["faan", "points"]
    minimum: int
    cap: int | None


class TableWait(BaseModel):
    """A tile the seat's hand waits on and what it is worth under the preset."""

    tile: str
    unseen: int = Field(description="copies the seat has not seen")
    value: int = Field(description="on a discard")
    winnable: bool = Field(description="on a discard")
    self_draw_value: int
    self_draw_winnable: bool
    reason: str | None = Field(description="why it cannot be declared (on a discard; else on a self-draw)")


class TableDiscard(BaseModel):
    """A discard that leaves the hand waiting, with those waits."""

    discard: str
    waits: list[TableWait]


class TableAdvice(BaseModel):
    """How far the seat's hand is and what it may not do, and why."""

    tiles_away: int = Field(description="tiles from complete (0: waiting; -1: complete)")
    waits: list[TableWait] = Field(description="a waiting hand's waits (empty on the seat's turn)")
    discards: list[TableDiscard] = Field(description="on the seat's turn: the discards leaving it waiting, best first")
    notes: list[str] = Field(description='e.g. "complete but 2 faan; hk-classic needs 3", '
                                         '"3m: a chow only from the seat before you"')


class TablePattern(BaseModel):
    """A scored pattern of the win, named in English and Chinese."""

    id: str
    name: str
    chinese: str
    value: int


class TableWin(BaseModel):
    """One winner's win."""

    winner: str
    from_: str | None = Field(alias="from")
    tile: str | None
    robbing: str | None
    hand: dict[str, Any]
    value: int
    unit: Literal["faan", "points"]
    patterns: list[TablePattern]
    payments: dict[str, int] | None


class TableResult(BaseModel):
    """The end of the hand (the first winner's win at the top level; every win in ``wins``)."""

    result: Literal["win", "exhausted"]
    winner: str | None
    from_: str | None = Field(alias="from")
    tile: str | None
    hand: dict[str, Any] | None
    value: int | None
    unit: Literal["faan", "points"]
    patterns: list[TablePattern]
    payments: dict[str, int] | None
    delta: dict[str, int] | None
    points: dict[str, int] | None
    faan: dict[str, int]
    next: dict[str, Any] | None
    wins: list[TableWin]


class TableDeal(BaseModel):
    """The deal of the hand shown, as every seat sees it (docs/server.md, "Deals")."""

    commitment: str | None = Field(description="the lowercase hex SHA-256 of the hand's salt and deal (docs/table.md): "
                                               "the log, once the hand is over, reveals the salt to check it with")
    practice_seed: int | None = Field(description="the seed chosen when the table was made (a practice deal: "
                                                  "whoever knows it knows every wall); null: a secret seed")


class TableState(BaseModel):
    """What one seat may see of a table: never another seat's concealed tiles or the wall."""

    table: str
    seat: TableSeat = Field(description="the player's seat in the hand shown (in a match it moves with the deal)")
    home: TableSeat = Field(description="the seat the token was given for")
    version: int = Field(description="the seat's own: rises by one each time what this seat sees changes")
    status: Literal["playing", "hand_over", "over"]
    preset: TablePreset
    seats: dict[TableSeat, str]
    names: dict[TableSeat, str]
    homes: dict[TableSeat, TableSeat] = Field(description="each seat's player, by the seat it was given")
    hand: int
    round: TableSeat
    dealer: TableSeat
    deal: TableDeal
    view: dict[str, Any] = Field(description="the seat's view (docs/table.md, the decision interface)")
    prompt: dict[str, Any] | None = Field(description="the seat's open prompt, without its view")
    waiting_for: list[TableSeat]
    deadline_ms: int | None = Field(description="ms left of this seat's claim window or timed turn")
    claim_seconds: float
    turn_seconds: float | None = Field(description="seconds of a person's turn (null: untimed)")
    away: list[TableSeat] = Field(description="the seats whose person is away: the fallback bot plays them")
    events: list[dict[str, Any]]
    advice: TableAdvice | None
    result: TableResult | None
    standings: list[dict[str, Any]] | None


class TableDecision(BaseModel):
    """A decision, as ``Table.submit`` takes it: the prompt's number, the seat, one of the prompt's actions."""

    model_config = ConfigDict(extra="allow")

    prompt: int
    seat: TableSeat
    act: str
