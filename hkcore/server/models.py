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
