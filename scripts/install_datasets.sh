#!/usr/bin/env bash
# Install the real Fashion-MNIST (Debian's dataset-fashion-mnist: the four original IDX files in
# /usr/share/datasets/fashion-mnist/, which tfdist_edu.data reads and checks); idempotent.
# Does nothing when the files are there. Needs root (or sudo) and a Debian/Ubuntu apt.
#   scripts/install_datasets.sh                 `make test`: a failure stops the build
#   scripts/install_datasets.sh --if-possible   `make demo`: when it cannot install, it says
#                                               so in one line and the tour uses the stand-in
set -euo pipefail

folder="${FASHION_MNIST_FOLDER:-/usr/share/datasets/fashion-mnist}"  # tests look elsewhere
files=(train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz
       t10k-labels-idx1-ubyte.gz)
if_possible=0
[ "${1:-}" = "--if-possible" ] && if_possible=1

installed() {
    for file in "${files[@]}"; do [ -f "$folder/$file" ] || return 1; done
}

cannot() {  # $1: why; one line, then stop (an error unless --if-possible)
    if [ "$if_possible" = 1 ]; then
        echo "Real Fashion-MNIST not installed ($1): 'sudo apt-get install dataset-fashion-mnist'" \
             "or TFDIST_EDU_FASHION_MNIST_DIR=<folder of its IDX files> gets it; until then" \
             "the tour uses the labelled SYNTHETIC stand-in."
        exit 0
    fi
    echo "install_datasets.sh: $1; install the Debian package dataset-fashion-mnist" >&2
    exit 1
}

if installed; then
    echo "Fashion-MNIST already installed in $folder"
    exit 0
fi
command -v apt-get >/dev/null || cannot "no apt-get on this system"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    # -n: never prompt for a password (make demo must not stop and wait)
    sudo -n true 2>/dev/null || cannot "needs root or password-less sudo"
    SUDO="sudo -n"
fi

export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && \
       $SUDO apt-get install -y -qq --no-install-recommends dataset-fashion-mnist; } >/dev/null; then
    cannot "apt-get install dataset-fashion-mnist failed"
fi
installed || cannot "the package did not put the IDX files in $folder"
echo "installed: Fashion-MNIST in $folder"
