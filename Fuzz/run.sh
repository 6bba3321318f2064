#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for the given number of seconds (default 60),
# starting from the seed corpus in Corpus/<Target>/. Crash inputs are written to a temporary
# folder, whose path is printed. Exits non-zero when any target finds a crash.
#
#   Fuzz/run.sh [seconds-per-target]
#
# FUZZ_TARGETS="FuzzURLEncoding FuzzMultipart" limits the run to some targets.
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
    '' | *[!0-9]*) echo "usage: $0 [seconds-per-target]" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "$0")" && pwd)"
targets=(${FUZZ_TARGETS:-FuzzURLEncoding FuzzJSONEncoding FuzzMultipart FuzzResponseMapping FuzzRequestConversion FuzzCacheControl FuzzServerSentEvents})

# -sanitize=fuzzer on every module (Moya included) gives the fuzzer coverage feedback
# inside the library; the fuzz targets add it to their link step themselves.
build_flags=(--package-path "$here" -c debug -Xswiftc -sanitize=fuzzer,address)

# Plans afresh when the root's sources were added or removed since the last build (see the script).
source "$here/../scripts/build-plan.sh"
sources_record="$here/.build/sources.cksum"
build_flags+=($(fresh_plan_flags "$sources_record" "$here/../Sources"))

echo "== building the fuzz targets"
# gold warns once per sanitizer symbol it cannot export; those lines say nothing.
swift build "${build_flags[@]}" 2>&1 | { grep -v 'Cannot export local symbol' || true; }
bin="$(swift build "${build_flags[@]}" --show-bin-path)"
record_sources "$sources_record" "$here/../Sources"

work="$(mktemp -d "${TMPDIR:-/tmp}/moya-fuzz.XXXXXX")"
echo "== crash artifacts and logs go to $work"

# Swift's runtime keeps caches for the life of the process, which LeakSanitizer reports;
# Swift's own backtracer would run after libFuzzer has already reported the crash.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

failed=0
summary=()
for target in "${targets[@]}"; do
    corpus="$work/corpus-$target"
    mkdir -p "$corpus"
    log="$work/$target.log"
    echo "== $target for ${seconds}s"
    status=0
    # New inputs go to the first folder; the committed seeds are only read.
    "$bin/$target" \
        -max_total_time="$seconds" \
        -timeout=20 \
        -rss_limit_mb=4096 \
        -max_len=4096 \
        -print_final_stats=1 \
        -artifact_prefix="$work/$target-" \
        "$corpus" "$here/Corpus/$target" >"$log" 2>&1 || status=$?

    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //' || true)"
    ft="$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | sed 's/ft: //' || true)"
    if [ "$status" -eq 0 ]; then
        result="ok"
    else
        failed=1
        artifact="$(ls "$work/$target-"* 2>/dev/null | head -n 1 || true)"
        result="CRASH (exit $status) ${artifact:-see $log}"
        grep -m 5 -E 'Fatal error|Property failed|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' "$log" | sed 's/^/    /' || true
    fi
    summary+=("$(printf '%-24s runs=%-9s cov=%-6s ft=%-6s %s' "$target" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$result")")
done

echo "== results (${seconds}s per target; logs in $work)"
printf '%s\n' "${summary[@]}"
exit "$failed"
