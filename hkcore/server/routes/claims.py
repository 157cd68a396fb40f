"""``POST /claims/legal`` and ``/claims/resolve``."""
from __future__ import annotations

from fastapi import APIRouter

from hkcore.claims import Claim, legal_claims, resolve_claims
from hkcore.server.catalog import Known
from hkcore.server.models import LegalClaimsRequest, ResolveClaimsRequest, own_fields
from hkcore.server.openapi import ERRORS, RawJSON
from hkcore.server.problems import guard
from hkcore.server.routes.scoring import listing

router = APIRouter(tags=["claims"], default_response_class=RawJSON)


@router.post("/claims/legal", response_model=list[Claim], responses={**ERRORS})
def claims_legal(body: LegalClaimsRequest, known: Known) -> RawJSON:
    """Every claim the hand's seat may make on the discard: the win first, then kong, pung, chows."""
    p = known.named(body.preset, "preset")
    found = guard("hand", lambda: legal_claims(body.hand, body.discard, body.discarder, p, kong=body.kong,
                                               last_tile=body.last_tile), own_fields(LegalClaimsRequest))
    return listing(c.to_json() for c in found)


@router.post("/claims/resolve", response_model=list[Claim], responses={**ERRORS})
def claims_resolve(body: ResolveClaimsRequest, known: Known) -> RawJSON:
    """The claim(s) that get the tile: win over pung or kong over chow, then the nearest seat."""
    p = known.named(body.preset, "preset")
    found = guard(None, lambda: resolve_claims(body.claims, body.discarder, p))
    return listing(c.to_json() for c in found)
