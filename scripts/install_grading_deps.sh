#!/usr/bin/env bash
# Install what sandboxed grading needs beyond the Python packages: Debian's bubblewrap (bwrap),
# which runs each submission with no network, its own processes and a read-only system.
# Without it, `tfdist-instructor grade` refuses to run untrusted notebooks (see exercises/README.md).
set -euo pipefail

if command -v bwrap >/dev/null; then
  echo "bubblewrap already installed: $(bwrap --version)"
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends bubblewrap
bwrap --version
