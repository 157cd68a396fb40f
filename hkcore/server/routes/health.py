"""``GET /health``."""
from __future__ import annotations

from fastapi import APIRouter

from hkcore import core
from hkcore.server.catalog import Known
from hkcore.server.models import Health

router = APIRouter(tags=["service"])


def version() -> str:
    """The installed hkcore's version."""
    from importlib.metadata import PackageNotFoundError, version as installed

    try:
        return installed("hkcore")
    except PackageNotFoundError:  # a source tree that was not installed
        return "unknown (not installed)"


@router.get("/health", response_model=Health)
async def health(known: Known) -> Health:
    """The service is up: its version, its core and how many presets it knows."""
    return Health(status="ok", version=version(), core=core.IMPLEMENTATION, presets=len(known.ids()))
