"""``python -m tfdist_instructor.compat``; multi-worker tasks run this file as their script (launch.py)."""

import sys

from tfdist_instructor.compat.matrix import main

if __name__ == "__main__":
    sys.exit(main())
