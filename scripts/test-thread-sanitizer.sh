#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer, in a build folder of its own (a first build takes
# a while: every dependency is rebuilt with the sanitizer). Fails on any report, even one that
# does not change the test process's exit status.
set -euo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp "${TMPDIR:-/tmp}/moya-tsan.XXXXXX")"
status=0
swift test --sanitize=thread --scratch-path .build-tsan "$@" 2>&1 | tee "$log" || status=$?
reports="$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)"
echo "== ThreadSanitizer: ${reports} report(s); log in $log"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    exit 1
fi
