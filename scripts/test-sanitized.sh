#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build folder of its own (a first build takes a
# while: every dependency is rebuilt with the sanitizer), and fails on any report, even one
# that does not change the test process's exit status.
#
#   scripts/test-sanitized.sh thread|address [swift test options]
#
# LeakSanitizer is off under AddressSanitizer (ASAN_OPTIONS overrides it): Swift packs enum
# payloads into pointers' spare bits, so a `Data` held that way looks unreferenced, and the
# test servers are kept for the life of the process on purpose. Leaks are tested instead with
# weak references (Tests/MoyaTests/Provider/ProviderReleaseTests.swift).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer="${1:-}"
case "$sanitizer" in
    # Mutex's futex is invisible to ThreadSanitizer: InlineLock uses its lock box instead.
    # Reports that are not races are suppressed in scripts/tsan-suppressions.txt, each with why.
    thread) short=tsan; pattern='^WARNING: ThreadSanitizer'; flags=(-Xswiftc -DMOYA_THREAD_SANITIZER)
        export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=$PWD/scripts/tsan-suppressions.txt" ;;
    address) short=asan; flags=(); pattern='ERROR: AddressSanitizer'; export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" ;;
    *) echo "usage: $0 thread|address [swift test options]" >&2; exit 2 ;;
esac
shift

# Tests whose load is bounded by time (the connection burst) scale down under a sanitizer.
export MOYA_TEST_SANITIZER="$sanitizer"
log="$(mktemp "${TMPDIR:-/tmp}/moya-$short.XXXXXX")"
status=0
swift test --sanitize="$sanitizer" --scratch-path ".build-$short" ${flags[@]+"${flags[@]}"} "$@" 2>&1 | tee "$log" || status=$?
reports="$(grep -c "$pattern" "$log" || true)"
echo "== $sanitizer sanitizer: ${reports} report(s), test exit status ${status}; log in $log"
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    exit 1
fi
