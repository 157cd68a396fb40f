"""The bench's peer for ``hkscore serve``: a bare FastAPI endpoint that reads
the same ``POST /score`` body into a pydantic model and answers a fixed body
of the same size (hkcore's own answer, read from ``HKCORE_BARE_ANSWER``).
Run by bench/bench_server.py with one uvicorn worker, as hkcore's service is."""
from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

ANSWER = Path(os.environ["HKCORE_BARE_ANSWER"]).read_bytes()


class Meld(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    kind: str
    tiles: str
    source: str | None = Field(default=None, alias="from")
    concealed: bool = False


class Hand(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tiles: str
    melds: list[Meld] = []
    win_tile: str | None = None
    seat_wind: str = "E"
    discarder: str | None = None


class ScoreRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand: Hand
    preset: str


app = FastAPI()


@app.post("/score")
async def score(body: ScoreRequest) -> Response:
    return Response(ANSWER, media_type="application/json")


@app.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}
