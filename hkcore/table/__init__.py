"""Play hands and matches under any preset (docs/table.md).

``Table`` plays one hand from a ``start`` record, ``Match`` plays hands in
turn, ``replay`` reproduces a log record for record, ``Env`` is one hand as
an environment for learning agents (docs/env.md). The rules of play are read from the preset (its
``[table]`` and ``[claims]`` sections); wins are scored by the preset's
compiled ruleset.
"""
from __future__ import annotations

from hkcore.errors import TableError
from hkcore.table.env import Env
from hkcore.table.match import Match
from hkcore.table.replay import ReplayError, replay
from hkcore.table.table import Table

__all__ = ["Env", "Match", "ReplayError", "Table", "TableError", "replay"]
