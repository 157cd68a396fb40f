"""``python -m hkcore``: the ``hkscore`` command line."""

import sys

from hkcore.console import main

sys.exit(main())
