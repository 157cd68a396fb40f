"""``python -m hkcore.cli``: the ``hkscore`` command line."""

import sys

from hkcore.cli.commands import main

sys.exit(main())
