#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, in a build folder of its own (a first build takes
# a while: every dependency is rebuilt with the sanitizer). Fails on any report, even one that
# does not change the test process's exit status.
set -euo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp "${TMPDIR:-/tmp}/moya-asan.XXXXXX")"
status=0
swift test --sanitize=address --scratch-path .build-asan "$@" 2>&1 | tee "$log" || status=$?
reports="$(grep -c 'ERROR: AddressSanitizer' "$log" || true)"
echo "== AddressSanitizer: ${reports} report(s); log in $log"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    exit 1
fi
