"""``python -m hkcore``: the ``hkscore`` command line."""

import sys

from hkcore.cli import main

sys.exit(main())
