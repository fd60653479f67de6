#!/usr/bin/env bash
# Run every lesson and solution notebook (fast mode) on Colab's package versions.
#   scripts/colab_stack.sh [pytest args...]
# Builds .venv-colab once (a stamp per step skips what already happened): Colab's pins from
# scripts/colab_pins.txt, the tools nbval needs, then the course installed the way the Colab
# setup cell installs it. Then runs the Colab-only tests and the notebooks there.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-colab
PY="$VENV/bin/python"
PIP=("$PY" -m pip install --quiet --disable-pip-version-check)
PINS=scripts/colab_pins.txt
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"

[ -x "$PY" ] || "${PYTHON:-python3}" -m venv "$VENV"

# Colab's stack plus what Colab also has (matplotlib, pandas, ipykernel, tensorboard) and the
# test tools; all resolved together against the pins so none of them moves a pinned version.
if [ ! "$VENV/.stack-installed" -nt "$PINS" ] || [ ! "$VENV/.stack-installed" -nt "$0" ]; then
    "${PIP[@]}" -r "$PINS" -c "$PINS" matplotlib pandas ipykernel tensorboard \
        pytest nbval nbformat nbclient portpicker psutil pyyaml
    touch "$VENV/.stack-installed"
fi

# The course, installed as the Colab setup cell does (every installed package pinned);
# editable, so the notebooks run against this checkout's package.
if [ ! "$VENV/.course-installed" -nt pyproject.toml ] || [ ! "$VENV/.course-installed" -nt "$VENV/.stack-installed" ]; then
    "$PY" -m pip list --format=freeze > "$VENV/preinstalled.txt"
    "${PIP[@]}" -c "$VENV/preinstalled.txt" -e .
    touch "$VENV/.course-installed"
fi

TFDIST_EDU_FAST=1 TFDIST_EDU_DATA=synthetic "$PY" -m pytest -p no:cacheprovider \
    tests/colab notebooks solutions --nbval-lax "$@"
