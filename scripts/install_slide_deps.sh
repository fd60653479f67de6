#!/usr/bin/env bash
# Install what the slide build, the handouts and their tests need beyond the Python packages:
#   reveal     reveal.js and axe-core from the npm registry into build/node_modules (ignored; decks
#              copy reveal.js beside themselves; the accessibility tests inject axe-core into pages)
#   chromium   Debian's chromium (renders decks and site in the tests, prints the handouts) and
#              poppler-utils (pdfinfo: the handout test counts each PDF's pages)
# Usage: scripts/install_slide_deps.sh [reveal] [chromium]   (no argument: both)
set -euo pipefail

REVEAL_VERSION="${REVEAL_VERSION:-5.2.1}"
AXE_VERSION="${AXE_VERSION:-4.14.1}"
root="$(cd "$(dirname "$0")/.." && pwd)"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(reveal chromium)

for target in "${targets[@]}"; do
  case "$target" in
    reveal)
      # one npm call per package would remove the other (--no-save prunes what package.json lacks)
      if [ -f "$root/build/node_modules/reveal.js/dist/reveal.js" ] && [ -f "$root/build/node_modules/axe-core/axe.min.js" ]; then
        echo "reveal.js and axe-core already in $root/build/node_modules"
      else
        command -v npm >/dev/null || { echo "npm is missing: install Node.js (Debian: apt-get install -y npm)" >&2; exit 1; }
        npm install --prefix "$root/build" --no-save --no-audit --no-fund \
          "reveal.js@${REVEAL_VERSION}" "axe-core@${AXE_VERSION}"
      fi
      ;;
    chromium)
      missing=()
      command -v chromium >/dev/null || missing+=(chromium)
      command -v pdfinfo >/dev/null || missing+=(poppler-utils)
      if [ ${#missing[@]} -eq 0 ]; then
        echo "chromium and pdfinfo already installed: $(command -v chromium) $(command -v pdfinfo)"
      else
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y --no-install-recommends "${missing[@]}"
      fi
      ;;
    *)
      echo "unknown target '$target': use reveal and/or chromium" >&2
      exit 2
      ;;
  esac
done
