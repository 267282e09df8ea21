"""``python -m tilec`` is the ``tilec`` command."""

import sys

from .cli import main

sys.exit(main())
