#!/usr/bin/env bash
# Run a foreground command and, beside it, each background command at the same time, in a lane
# of its own (a lane runs its commands in order when they are joined with `;`); every lane's
# output goes to LOG.N while it runs and into LOG, lane by lane, when everything has ended.
#   scripts/beside.sh LOG "FOREGROUND" "BACKGROUND" ["BACKGROUND" ...]
# Exits non-zero when any command failed, and names each one that did.
set -uo pipefail
log=$1 foreground=$2
shift 2
mkdir -p "$(dirname "$log")"
: > "$log"
echo "beside the next run, in the background, each in its own lane (log: $log, printed at the end):"
printf '  %s\n' "$@"
# Each lane runs in its own session (setsid), so stopping it stops every process it started.
pids=()
lane=0
for command in "$@"; do
    lane=$((lane + 1))
    setsid bash -c '
        echo "==== $1"
        start=$SECONDS
        bash -c "$1"
        status=$?
        [ "$status" -eq 0 ] || echo "failed (exit $status): $1"
        echo "==== took $((SECONDS - start)) s: $1"
        exit "$status"' lane "$command" > "$log.$lane" 2>&1 &
    pids+=($!)
done
trap 'for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done' EXIT
start=$SECONDS
bash -c "$foreground"
front=$?
echo "---- the foreground run took $((SECONDS - start)) s; waiting for the background runs"
back=0
for pid in "${pids[@]}"; do
    wait "$pid" || back=1
done
echo "---- everything beside each other took $((SECONDS - start)) s"
trap - EXIT
for ((n = 1; n <= lane; n++)); do
    cat "$log.$n" >> "$log" && rm -f "$log.$n"
done
echo "---- $log (the background runs)"
cat "$log"
echo "---- end of $log"
[ "$front" -eq 0 ] || echo "failed (exit $front): $foreground"
[ "$back" -eq 0 ] || grep '^failed (exit' "$log"
[ "$front" -eq 0 ] && [ "$back" -eq 0 ]
