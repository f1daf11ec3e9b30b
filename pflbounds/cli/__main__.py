"""``python -m pflbounds.cli``: the command line."""

import sys

from pflbounds.cli import main

sys.exit(main())
