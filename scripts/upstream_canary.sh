#!/usr/bin/env bash
# Run the upstream sentinels and every lesson (fast mode) against the newest TensorFlow and
# Keras on the registry, in .venv-canary/ (rebuilt each run, so "newest" is today's).
#   scripts/upstream_canary.sh [pytest args...]     (make upstream-canary; weekly in CI)
#   NIGHTLY=1 scripts/upstream_canary.sh            (make upstream-canary NIGHTLY=1; nightly in CI)
#   DRY_RUN=1 ...                                   prints the commands instead of running them
# By default the newest releases (tensorflow, keras, tf-keras); with NIGHTLY=1 the nightlies
# (tf-nightly, keras-nightly, tf-keras-nightly): the next release's breaks, weeks before
# students meet them. TensorBoard stays the release: tf-nightly does not require it, and
# tb-nightly's newest (2.21.0a20251023) is older than tensorboard 2.21.0. The nightlies
# provide the same modules under other distribution names, so the course is installed with
# --no-deps beside its other requirements (scripts/canary_requirements.py) and no release is
# installed next to a nightly. Both install the extras `make test` does (lesson 9 needs JAX,
# lesson 5's trace xprof).
# A failing sentinel names the upstream issue that a release fixed and the lessons to update
# (docs/upstream.md); a failing lesson is a break the course must fix before students meet it.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-canary
PY="$VENV/bin/python"
PIP=("$PY" -m pip install --quiet --disable-pip-version-check)
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
case "${NIGHTLY:-0}" in
    0|"") NIGHTLY=0 ;;
    1) ;;
    *) echo "NIGHTLY must be 0 or 1, got '${NIGHTLY}'" >&2; exit 2 ;;
esac
# The release distributions the nightlies replace (each nightly provides the same module).
REPLACED=(tensorflow keras tf-keras)
NIGHTLIES=(tf-nightly keras-nightly tf-keras-nightly)

run() {  # run a command, or print it (shell-quoted) under DRY_RUN=1
    if [ "${DRY_RUN:-0}" = 1 ]; then
        printf '%q ' "$@" | sed 's/ $//'
        echo
    else
        "$@"
    fi
}

run rm -rf "$VENV"
run "${PYTHON:-python3}" -m venv "$VENV"
run "${PIP[@]}" --upgrade pip
if [ "$NIGHTLY" = 1 ]; then
    mapfile -t requirements < <("${PYTHON:-python3}" scripts/canary_requirements.py \
        --without "${REPLACED[@]}" tfdist-edu tfdist-instructor)
    run "${PIP[@]}" --upgrade --pre "${NIGHTLIES[@]}"
    run "${PIP[@]}" "${requirements[@]}"
    run "${PIP[@]}" --no-deps -e . -e ./instructor
    # A release beside its nightly would overwrite the nightly's module: stop if pip put one there.
    run "$PY" scripts/canary_requirements.py --absent "${REPLACED[@]}"
else
    # The newest releases, resolved together (tf-keras pins the TensorFlow minor it matches).
    run "${PIP[@]}" --upgrade tensorflow keras tf-keras tensorflow-datasets
    run "${PIP[@]}" -e ".[course,test,legacy,profile,jax]" -e ./instructor
fi
run "$PY" -c "import tensorflow as tf, keras, tf_keras; print(f'TensorFlow {tf.__version__}, \
Keras {keras.__version__}, tf-keras {tf_keras.__version__}')"
# The support matrix holds the sentinels that need a cluster (-k sentinel selects them).
run "$PY" -m pytest -p no:cacheprovider tests/upstream "$@"
run "$PY" -m pytest -p no:cacheprovider tests/instructor/test_compat.py -k sentinel "$@"
run env TFDIST_EDU_FAST=1 "$PY" -m pytest -p no:cacheprovider notebooks --nbval-lax "$@"
