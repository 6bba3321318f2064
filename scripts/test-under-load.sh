#!/usr/bin/env bash
# Runs the README's test command several times in a row while busy loops keep every core
# loaded, as on a laptop that is compiling something else, and reports each run and the load.
#
#   scripts/test-under-load.sh [runs, default 5] [busy loops, default one per core]
#
# The first run builds if needed; later runs reuse the build. The busy loops stop when the
# script ends, however it ends. Exits non-zero if any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-5}"
loops="${2:-$(nproc)}"
logs="$(mktemp -d "${TMPDIR:-/tmp}/moya-load.XXXXXX")"

busy=()
stop_busy() {
    if ((${#busy[@]})); then
        kill "${busy[@]}" 2>/dev/null || true
    fi
}
trap stop_busy EXIT
for _ in $(seq "$loops"); do
    # A shell loop that never sleeps: one core's worth of load each.
    bash -c 'while :; do :; done' &
    busy+=($!)
done

failed=0
for run in $(seq "$runs"); do
    started=$SECONDS
    status=0
    scripts/test.sh >"$logs/run-$run.log" 2>&1 || status=$?
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    summary="$(grep -E '^(✔|✘|━) Test run with' "$logs/run-$run.log" | tr '\n' ' ')"
    echo "run $run: exit $status in $((SECONDS - started))s, load $load; $summary"
    if [ "$status" -ne 0 ]; then
        failed=$((failed + 1))
        grep -E '✘' "$logs/run-$run.log" | head -20 || true
    fi
done
echo "== $((runs - failed)) of $runs runs green beside $loops busy loops; logs in $logs"
[ "$failed" -eq 0 ]
