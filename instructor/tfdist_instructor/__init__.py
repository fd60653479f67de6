"""Instructor tooling for the tfdist-edu course: grading, exercises from their masters, decks
and the support matrix. It works inside a checkout of the course repository and imports
``tfdist_edu``; the student package never imports it.
"""

from pathlib import Path

# instructor/tfdist_instructor/__init__.py -> the repository root
REPO_ROOT = Path(__file__).resolve().parents[2]
