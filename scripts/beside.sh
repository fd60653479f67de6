#!/usr/bin/env bash
# Run two commands side by side: the second in the foreground (its output as it comes), the first
# in the background with its output in LOG, printed when both have ended.
#   scripts/beside.sh LOG "BACKGROUND COMMAND" "FOREGROUND COMMAND"
# Exits non-zero when either command failed, and says which.
set -uo pipefail
log=$1 background=$2 foreground=$3
mkdir -p "$(dirname "$log")"
echo "beside the next run, in the background (log: $log): $background"
setsid bash -c "$background" > "$log" 2>&1 &  # its own process group, stopped as one below
pid=$!
trap 'kill -- -$pid 2>/dev/null' EXIT
bash -c "$foreground"
front=$?
wait "$pid"
back=$?
trap - EXIT
echo "---- $log (the background run: $background)"
cat "$log"
echo "---- end of $log"
[ "$front" -eq 0 ] || echo "failed (exit $front): $foreground"
[ "$back" -eq 0 ] || echo "failed (exit $back): $background"
[ "$front" -eq 0 ] && [ "$back" -eq 0 ]
