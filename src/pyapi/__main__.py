"""``python -m boardcore`` runs the ``boardcore`` command."""

import sys

from boardcore.cli import main

sys.exit(main())
