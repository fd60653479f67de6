#!/usr/bin/env bash
# Run a foreground command and, beside it, background commands one after another (each runs even
# when an earlier one failed), their output in LOG, printed when everything has ended.
#   scripts/beside.sh LOG "FOREGROUND" "BACKGROUND" ["BACKGROUND" ...]
# Exits non-zero when any command failed, and names each one that did.
set -uo pipefail
log=$1 foreground=$2
shift 2
mkdir -p "$(dirname "$log")"
: > "$log"
echo "beside the next run, in the background (log: $log, printed at the end):"
printf '  %s\n' "$@"
# The background runs in its own session (setsid), so stopping it stops every process it started.
setsid bash -c '
    failed=0
    for command in "$@"; do
        echo "==== $command"
        start=$SECONDS
        bash -c "$command" || { echo "failed (exit $?): $command"; failed=1; }
        echo "==== took $((SECONDS - start)) s: $command"
    done
    exit "$failed"' beside "$@" > "$log" 2>&1 &
pid=$!
trap 'kill -TERM -- "-$pid" 2>/dev/null' EXIT
start=$SECONDS
bash -c "$foreground"
front=$?
echo "---- the foreground run took $((SECONDS - start)) s; waiting for the background runs"
wait "$pid"
back=$?
echo "---- everything beside each other took $((SECONDS - start)) s"
trap - EXIT
echo "---- $log (the background runs)"
cat "$log"
echo "---- end of $log"
[ "$front" -eq 0 ] || echo "failed (exit $front): $foreground"
[ "$back" -eq 0 ] || grep '^failed (exit' "$log"
[ "$front" -eq 0 ] && [ "$back" -eq 0 ]
