"""A deal's commitment: the SHA-256 of a secret salt and the whole deal, written in a start record
beside the salt (docs/table.md, "The records of a log"; docs/server.md, "Deals").

A server shows every seat the commitment from the deal on and reveals the salt with the log once the
hand is over; anyone then checks that the deal played is the one committed to, with ``hkscore replay``
or by hand (``printf ... | sha256sum``).
"""
from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from typing import Any

from hkcore.errors import TableError, shown

#: the first line of the text a commitment is the digest of (it names the text's version)
HEADER = "hkcore-deal-1"
#: a salt: 32 lowercase hexadecimal digits (128 bits); a commitment: 64 (a SHA-256)
SALT = re.compile(r"[0-9a-f]{32}")
COMMITMENT = re.compile(r"[0-9a-f]{64}")
_TILES = re.compile(r"[0-9A-Za-z]*")


def check_salt(value: Any, field: str = "start.salt") -> str:
    """``value`` if it is a salt (32 lowercase hex digits), else a TableError naming ``field``."""
    if not isinstance(value, str) or SALT.fullmatch(value) is None:
        raise TableError(f"{field} = {shown(value)}: a secret of 32 lowercase hexadecimal digits", field, value)
    return value


def deal_text(record: Mapping[str, Any]) -> str:
    """The text a start record's commitment is the SHA-256 of: eight lines, each ended by a newline,
    ``hkcore-deal-1``, ``salt S``, ``E T``, ``S T``, ``W T``, ``N T`` (the record's ``hands``),
    ``live T`` and ``dead T``, each as the record writes it; a TableError names a field that cannot be
    written so (a tile string holds letters and digits only, so that the text reads one way)."""
    salt = check_salt(record.get("salt"))
    hands = record.get("hands")
    if not isinstance(hands, Mapping):
        raise TableError(f"start.hands = {shown(hands)}: the tiles dealt to each seat (E, S, W, N)", "start.hands",
                         hands)
    fields = [(f"start.hands.{s}", s, hands.get(s)) for s in ("E", "S", "W", "N")]
    fields += [("start.live", "live", record.get("live", "")), ("start.dead", "dead", record.get("dead", ""))]
    out = [HEADER, f"salt {salt}"]
    for field, label, value in fields:
        if not isinstance(value, str) or _TILES.fullmatch(value) is None:
            raise TableError(f"{field} = {shown(value)}: a deal with a salt writes its tiles in letters and digits "
                             "only (no spaces)", field, value)
        out.append(f"{label} {value}")
    return "\n".join(out) + "\n"


def commitment(record: Mapping[str, Any]) -> str:
    """The commitment of a start record's deal: the lowercase hex SHA-256 of ``deal_text(record)``."""
    return hashlib.sha256(deal_text(record).encode("ascii")).hexdigest()


def deal_salt(key: bytes, deal: int) -> str:
    """The salt of deal number ``deal`` (1, 2, ...) made with ``key``: the first 32 hex digits of
    HMAC-SHA256(key, the deal's number in decimal), so that the same key deals the same salts again."""
    return hmac.new(key, str(deal).encode("ascii"), hashlib.sha256).hexdigest()[:32]


__all__ = ["COMMITMENT", "HEADER", "SALT", "check_salt", "commitment", "deal_salt", "deal_text"]
