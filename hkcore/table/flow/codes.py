"""The small integer codes a hand is played on: actions, phases, kinds of
declared set, claim ranks, and how a set is written. Their one home: the
pure engine and the pure players import them from here, the compiled modules
cimport their C mirror, ``_codes.pxd`` (a test holds the two equal)."""
from __future__ import annotations

from hkcore.table.flow.wall import CODES, canonical

#: action codes, in the order a prompt lists them where it matters
PASS, WIN, CONCEALED, ADDED, EXPOSED, PUNG, CHOW, DISCARD, SELF_PUNG = range(9)
#: phases
TURN, DISCARD_ONLY, CLAIM, ROB, INSTANT, OVER, DEAL = range(7)
PHASES = ("turn", "discard", "claim", "rob", "instant", "over", "deal")
#: what an instant window follows
AFTER_DEAL, AFTER_G4 = 1, 2
ACTS = ("pass", "win", "kong", "kong", "kong", "pung", "chow", "discard", "pung")
KINDS = (None, None, "concealed", "added", "exposed", None, None, None, None)
NEXT = (1, 2, 3, 0)
#: kind codes of declared sets
M_CHOW, M_PUNG, M_KONG = 0, 1, 2
MELD_KIND = ("chow", "pung", "kong")
#: claim ranks (priority): a win, then a pung or kong, then a chow
RANK = {WIN: 0, EXPOSED: 1, PUNG: 1, CHOW: 2}


def set_text(code: int, low: int) -> str:
    """The tiles of the set action ``code`` declares with ``low`` its lowest tile, as a record writes them."""
    if code == CHOW:
        return canonical((low, low + 1, low + 2))
    n = 4 if code in (CONCEALED, ADDED, EXPOSED) else 3
    return CODES[low][0] * n + CODES[low][1]

