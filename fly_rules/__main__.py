"""``python -m fly_rules``: the same as the ``fly-rules`` command."""

import sys

from fly_rules.cli import main

sys.exit(main())
