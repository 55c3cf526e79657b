"""``python -m mlfsbench.cli``: the ``mlfsbench`` command."""

import sys

from mlfsbench.cli import main

sys.exit(main())
