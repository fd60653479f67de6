#!/usr/bin/env bash
# Install what the slide build and its tests need beyond the Python packages:
#   reveal.js  from the npm registry into build/node_modules (ignored; decks copy it beside themselves)
#   chromium   Debian's package, only for tests/test_slides.py (headless rendering check)
# Usage: scripts/install_slide_deps.sh [reveal] [chromium]   (no argument: both)
set -euo pipefail

REVEAL_VERSION="${REVEAL_VERSION:-5.2.1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(reveal chromium)

for target in "${targets[@]}"; do
  case "$target" in
    reveal)
      if [ -f "$root/build/node_modules/reveal.js/dist/reveal.js" ]; then
        echo "reveal.js already in $root/build/node_modules"
      else
        command -v npm >/dev/null || { echo "npm is missing: install Node.js (Debian: apt-get install -y npm)" >&2; exit 1; }
        npm install --prefix "$root/build" --no-save --no-audit --no-fund "reveal.js@${REVEAL_VERSION}"
      fi
      ;;
    chromium)
      if command -v chromium >/dev/null; then
        echo "chromium already installed: $(command -v chromium)"
      else
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y --no-install-recommends chromium
      fi
      ;;
    *)
      echo "unknown target '$target': use reveal and/or chromium" >&2
      exit 2
      ;;
  esac
done
