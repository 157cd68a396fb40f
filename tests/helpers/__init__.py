"""Helpers shared by the test modules (no test module imports another).

tests/ itself is not a package (an ``__init__.py`` there would make pytest
import hkcore from beside tests/, the unbuilt source of an sdist):
tests/conftest.py puts tests/ on ``sys.path``, so this folder imports as
``helpers`` wherever the tests run.
"""
from __future__ import annotations

import tempfile

#: a working folder outside the source tree: a subprocess started there
#: imports the installed hkcore, not the checkout's
OUTSIDE = tempfile.gettempdir()
