"""``python -m workbench``: see :mod:`workbench.cli`."""

import sys

from workbench.cli import main

if __name__ == "__main__":
    sys.exit(main())
