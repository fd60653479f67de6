#!/usr/bin/env bash
# Run every lesson and solution notebook (fast mode) on Colab's Python and package versions.
#   scripts/colab_stack.sh [pytest args...]
# Colab runs Python 3.13, which Debian 12 does not have. As root, the stage makes (once, a stamp)
# a Debian 13 root from Debian's own packages with debootstrap, under .colab-root/ (COLAB_ROOT
# moves it), and runs everything inside it with bubblewrap: a mount namespace of its own, so
# nothing stays mounted after the run, finished or interrupted. Without root, or where
# debootstrap or bubblewrap cannot be installed, it says so in one line and runs on the
# stand-in: .venv-colab/ on the Python we have (3.11), labelled as such (COLAB_STANDIN=1 asks
# for the stand-in).
# Then (a stamp per step skips what already happened; COLAB_STAGE, below, stops early): a venv
# with Colab's pins from scripts/colab_pins.txt, the tools nbval needs, then the course's
# dependencies installed the way the Colab setup cell installs them. Then runs tests/colab and the notebooks there.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKOUT=$PWD
PINS=scripts/colab_pins.txt
SUITE=trixie # Debian 13: python3 is 3.13, Colab's Python
COLAB_ROOT=${COLAB_ROOT:-$CHECKOUT/.colab-root/$SUITE}
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"

standin() {
    echo "Colab stage: no Debian 13 root ($1); running on the stand-in, Python $("${PYTHON:-python3}" -c \
        'import platform; print(platform.python_version())') in .venv-colab/, not Colab's 3.13"
    MODE=stand-in
}

# apt-get install, as install_grading_deps.sh does, only where it is missing.
need() {
    command -v "$1" >/dev/null && return 0
    command -v apt-get >/dev/null || return 1
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$2"; } >/dev/null 2>&1 || return 1
    command -v "$1" >/dev/null
}

MODE=root
if [ "${COLAB_STANDIN:-0}" = 1 ]; then
    standin "COLAB_STANDIN=1"
elif [ "$(id -u)" -ne 0 ]; then
    standin "making one needs root"
elif ! need bwrap bubblewrap; then
    standin "no bubblewrap, and apt-get could not install it"
elif [ ! -e "$COLAB_ROOT/.made" ] && ! { need debootstrap debootstrap && [ -e /usr/share/debootstrap/scripts/$SUITE ]; }; then
    standin "no debootstrap that knows $SUITE, and apt-get could not install one"
fi

# COLAB_STAGE=tools: only install what the stage needs from Debian (apt-get, which one process
# at a time may run), so the rest can be prepared beside other installs; COLAB_STAGE=prepare:
# make the root and its venv, then stop; unset: prepare what is missing, then run the tests.
[ "${COLAB_STAGE:-}" = tools ] && exit 0

# One run at a time per root (or stand-in venv): a second one waits, saying so, rather than
# building or installing into the same folder at the same moment.
LOCK=$([ "$MODE" = root ] && echo "$COLAB_ROOT.lock" || echo "$CHECKOUT/.venv-colab.lock")
mkdir -p "$(dirname "$LOCK")"
exec 9> "$LOCK"
if ! flock -n 9; then
    echo "Colab stage: another run holds $LOCK; waiting for it to end"
    flock 9
fi

if [ "$MODE" = root ]; then
    if [ ! -e "$COLAB_ROOT/.made" ]; then
        echo "Colab stage: making the Debian 13 root in $COLAB_ROOT (debootstrap, once)"
        rm -rf "$COLAB_ROOT.partial"
        mkdir -p "$(dirname "$COLAB_ROOT")"
        # In a mount namespace of its own: the /proc and /sys that debootstrap mounts in the new
        # root go away with it, even when it is interrupted. git: the exercises' setup cells clone.
        if ! unshare --mount --propagation private debootstrap --variant=minbase \
                --include=python3,python3-venv,ca-certificates,git \
                $SUITE "$COLAB_ROOT.partial" ${COLAB_MIRROR:-} > "$COLAB_ROOT.debootstrap.log" 2>&1; then
            tail -n 20 "$COLAB_ROOT.debootstrap.log"
            echo "Colab stage: debootstrap failed (log: $COLAB_ROOT.debootstrap.log)" >&2
            exit 1
        fi
        rm -rf "$COLAB_ROOT"
        mv "$COLAB_ROOT.partial" "$COLAB_ROOT"
        touch "$COLAB_ROOT/.made"
    fi

    # What pip inside needs from this machine, read-only at the same paths: its configuration
    # files, every existing path they or PIP_* name (local indexes: the folder above `simple`),
    # and the CA bundles; name resolution.
    binds=()
    while read -r path; do
        [ -e "$path" ] && [ "$path" != / ] && binds+=(--ro-bind "$path" "$path")
    done < <({ "${PYTHON:-python3}" -m pip config debug 2>/dev/null || true
               env | grep -E '^(PIP_[A-Z_]+|SSL_CERT_FILE|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE)=' || true
               printf '%s\n' /etc/pip.conf /etc/xdg/pip "$HOME/.config/pip" "$HOME/.pip"; } |
             grep -oE "/[^ ',\"]+" | sed -E 's#^/+#/#; s#/simple/?$##' | sort -u)
    binds+=(--ro-bind-try /etc/resolv.conf /etc/resolv.conf --ro-bind-try /etc/hosts /etc/hosts)

    # /tmp is a fresh folder per run, removed afterwards.
    RUN_TMP=$(mktemp -d "$COLAB_ROOT.tmp.XXXXXX")
    chmod 1777 "$RUN_TMP"
    trap 'rm -rf "$RUN_TMP"' EXIT
    inroot() {
        bwrap --bind "$COLAB_ROOT" / --proc /proc --dev /dev --bind "$RUN_TMP" /tmp \
            "${binds[@]}" --bind "$CHECKOUT" "$CHECKOUT" --chdir "$CHECKOUT" \
            --unshare-pid --die-with-parent \
            --setenv PATH "$VENV/bin:/usr/local/bin:/usr/bin:/bin" --setenv HOME /root \
            --unsetenv PYTHONHOME --unsetenv VIRTUAL_ENV --unsetenv TMPDIR --unsetenv PYENV_VERSION \
            "$@"
    }
    VENV=/opt/venv-colab # inside the root
    HOST_VENV=$COLAB_ROOT$VENV
    PY=(inroot "$VENV/bin/python")
    [ -x "$HOST_VENV/bin/python" ] || inroot /usr/bin/python3 -m venv "$VENV"
    LABEL="Debian 13 root, Colab's Python"
else
    VENV=.venv-colab
    HOST_VENV=$VENV
    PY=("$VENV/bin/python")
    [ -x "$VENV/bin/python" ] || "${PYTHON:-python3}" -m venv "$VENV"
    LABEL="stand-in: not Colab's Python 3.13"
fi
PIP=("${PY[@]}" -m pip install --quiet --disable-pip-version-check)
STAMP=$HOST_VENV

# With UV (make passes its .venv-uv/bin/uv), uv installs Colab's stack: the same versions as
# pip, downloaded and unpacked in parallel (inside the root: the binary and its cache bound in),
# with their bytecode compiled, as pip does.
# The course itself is still installed by pip, as Colab's setup cell installs it.
STACK_PIP=("${PIP[@]}")
if [ -n "${UV:-}" ] && [ -x "$UV" ]; then
    UV_BIN=$(realpath "$UV")
    UV_CACHE=${UV_CACHE_DIR:-$HOME/.cache/uv}
    mkdir -p "$UV_CACHE"
    if [ "$MODE" = root ]; then
        binds+=(--ro-bind "$UV_BIN" /usr/local/bin/uv --bind "$UV_CACHE" "$UV_CACHE")
        STACK_PIP=(inroot env UV_CACHE_DIR="$UV_CACHE" /usr/local/bin/uv pip install --quiet --compile-bytecode
                   --python "$VENV/bin/python")
    else
        STACK_PIP=(env UV_CACHE_DIR="$UV_CACHE" "$UV_BIN" pip install --quiet --compile-bytecode --python "$VENV/bin/python")
    fi
fi

# Colab's pip is recent; the venv's bundled one may be older and reject git+file:// requirements.
if [ ! -e "$STAMP/.pip-upgraded" ]; then
    "${PIP[@]}" --upgrade pip
    touch "$STAMP/.pip-upgraded"
fi

# Colab's stack plus what Colab also has (matplotlib, pandas, tensorboard) and the test tools,
# resolved together against the pins so none of them moves a pinned version. otter-grader
# resolves to the newest release that accepts Colab's ipywidgets 7, as it does in the
# exercises' setup cell.
if [ ! "$STAMP/.stack-installed" -nt "$PINS" ] || [ ! "$STAMP/.stack-installed" -nt "$0" ]; then
    "${STACK_PIP[@]}" -r "$PINS" -c "$PINS" matplotlib pandas tensorboard otter-grader \
        pytest nbval nbformat nbclient portpicker psutil pyyaml
    touch "$STAMP/.stack-installed"
fi

# The course's dependencies, installed as the Colab setup cell does (every installed package
# pinned); what was installed before and with the course is kept for tests/colab. The course
# itself is then removed again: the notebooks import this checkout (PYTHONPATH), and tests/colab
# install it afresh the way a student's setup cell does.
if [ ! "$STAMP/.deps-installed" -nt pyproject.toml ] || [ ! "$STAMP/.deps-installed" -nt "$STAMP/.stack-installed" ]; then
    "${PY[@]}" -m pip list --format=freeze > "$STAMP/preinstalled.txt"
    "${PIP[@]}" -c "$VENV/preinstalled.txt" . # $VENV: the path pip sees (inside the root)
    "${PY[@]}" -m pip list --format=freeze > "$STAMP/with-course.txt"
    "${PY[@]}" -m pip uninstall --quiet --yes tfdist-edu
    touch "$STAMP/.deps-installed"
fi

echo "Colab stage: Python $("${PY[@]}" -c 'import platform; print(platform.python_version())') ($LABEL)"
[ "${COLAB_STAGE:-}" = prepare ] && exit 0
# COLAB_TARGETS narrows the run (make test, within CI's time, runs the lessons only).
# PYDEVD_DISABLE_FILE_VALIDATION: Colab's ipykernel imports debugpy, which warns about Python
# 3.13's frozen modules at every start.
# shellcheck disable=SC2086
PYTHONPATH="$CHECKOUT:$CHECKOUT/instructor" TFDIST_EDU_FAST=1 TFDIST_EDU_DATA=synthetic \
    PYDEVD_DISABLE_FILE_VALIDATION=1 \
    TFDIST_EDU_COLAB_STAGE="$MODE" TFDIST_EDU_COLAB_LABEL="$LABEL" \
    "${PY[@]}" -m pytest -p no:cacheprovider ${COLAB_TARGETS:-tests/colab tests/engines notebooks solutions} --nbval-lax "$@"
