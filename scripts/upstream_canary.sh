#!/usr/bin/env bash
# Run the upstream sentinels and every lesson (fast mode) against the newest TensorFlow and
# Keras releases on the registry, in .venv-canary/ (rebuilt each run, so "newest" is today's).
#   scripts/upstream_canary.sh [pytest args...]     (make upstream-canary; weekly in CI)
# A failing sentinel names the upstream issue that a release fixed and the lessons to update
# (docs/upstream.md); a failing lesson is a break the course must fix before students meet it.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-canary
PY="$VENV/bin/python"
PIP=("$PY" -m pip install --quiet --disable-pip-version-check)
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"

rm -rf "$VENV"
"${PYTHON:-python3}" -m venv "$VENV"
"${PIP[@]}" --upgrade pip
# The newest releases, resolved together (tf-keras pins the TensorFlow minor it matches).
"${PIP[@]}" --upgrade tensorflow keras tf-keras tensorflow-datasets
"${PIP[@]}" -e ".[course,test,legacy]" -e ./instructor
"$PY" -m pip list --format=freeze | grep -iE '^(tensorflow|keras|tf.keras|tensorflow.datasets)=='
# The support matrix holds the sentinels that need a cluster (-k sentinel selects them).
"$PY" -m pytest -p no:cacheprovider tests/upstream "$@"
"$PY" -m pytest -p no:cacheprovider tests/instructor/test_compat.py -k sentinel "$@"
TFDIST_EDU_FAST=1 "$PY" -m pytest -p no:cacheprovider notebooks --nbval-lax "$@"
