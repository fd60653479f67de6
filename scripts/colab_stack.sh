#!/usr/bin/env bash
# Run every lesson and solution notebook (fast mode) on Colab's package versions.
#   scripts/colab_stack.sh [pytest args...]
# Builds .venv-colab once (a stamp per step skips what already happened): Colab's pins from
# scripts/colab_pins.txt, the tools nbval needs, then the course's dependencies installed the
# way the Colab setup cell installs them. Then runs tests/colab and the notebooks there.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-colab
PY="$VENV/bin/python"
PIP=("$PY" -m pip install --quiet --disable-pip-version-check)
PINS=scripts/colab_pins.txt
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"

# Colab's pip is recent; the venv's bundled one is older and rejects git+file:// requirements.
if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
    "${PIP[@]}" --upgrade pip
fi

# Colab's stack plus what Colab also has (matplotlib, pandas, ipykernel, tensorboard) and the
# test tools, resolved together against the pins so none of them moves a pinned version.
# otter-grader resolves to the newest release that accepts Colab's ipywidgets 7, as it does in
# the exercises' setup cell.
if [ ! "$VENV/.stack-installed" -nt "$PINS" ] || [ ! "$VENV/.stack-installed" -nt "$0" ]; then
    "${PIP[@]}" -r "$PINS" -c "$PINS" matplotlib pandas ipykernel tensorboard otter-grader \
        pytest nbval nbformat nbclient portpicker psutil pyyaml
    touch "$VENV/.stack-installed"
fi

# The course's dependencies, installed as the Colab setup cell does (every installed package
# pinned). The course itself is then removed again: the notebooks import this checkout
# (PYTHONPATH), and tests/colab install it afresh the way a student's setup cell does.
if [ ! "$VENV/.deps-installed" -nt pyproject.toml ] || [ ! "$VENV/.deps-installed" -nt "$VENV/.stack-installed" ]; then
    "$PY" -m pip list --format=freeze > "$VENV/preinstalled.txt"
    "${PIP[@]}" -c "$VENV/preinstalled.txt" .
    "$PY" -m pip uninstall --quiet --yes tfdist-edu
    touch "$VENV/.deps-installed"
fi

# COLAB_TARGETS narrows the run (make test, within CI's time, runs the lessons only).
# shellcheck disable=SC2086
PYTHONPATH="$PWD:$PWD/instructor" TFDIST_EDU_FAST=1 TFDIST_EDU_DATA=synthetic \
    "$PY" -m pytest -p no:cacheprovider ${COLAB_TARGETS:-tests/colab notebooks solutions} --nbval-lax "$@"
