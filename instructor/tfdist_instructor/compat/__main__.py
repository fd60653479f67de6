"""``python -m tfdist_instructor.compat``: the package's command line (see ``main``)."""

import sys

from tfdist_instructor.compat import main

if __name__ == "__main__":
    sys.exit(main())
