#!/usr/bin/env bash
# Runs the benchmarks (release build) against BenchmarkServer on loopback, then prints a Markdown
# table of Moya against raw AsyncHTTPClient and AsyncHTTPClient with Foundation Data.
#
# Usage: Benchmarks/run.sh [swift package benchmark options, e.g. --filter 'GET']
# Environment: MOYA_BENCH_TRANSFER_BYTES, the size of the download and of the uploaded file part
# (default 1073741824, 1 GiB).
set -euo pipefail
cd "$(dirname "$0")"

export MOYA_BENCH_TRANSFER_BYTES="${MOYA_BENCH_TRANSFER_BYTES:-1073741824}"
# Kept after the run (the CSV export, the table and the server's log), and ignored by git like all of .build.
results=".build/benchmark-results"
rm -rf "$results"
mkdir -p "$results"
server_pid=""

cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -f "${TMPDIR:-/tmp}/moya-benchmark-upload" "${TMPDIR:-/tmp}/moya-benchmark-download"
}
trap cleanup EXIT

echo "== building the loopback server" >&2
# A scratch path of its own: package-benchmark builds the benchmarks in .build with other
# parameters, and sharing it would make each build undo the other.
swift build -c release --product BenchmarkServer --scratch-path .build/server >&2
server="$(swift build -c release --scratch-path .build/server --show-bin-path)/BenchmarkServer"
"$server" > "$results/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    grep -qs '^listening on ' "$results/server.log" && break
    sleep 0.1
done
MOYA_BENCH_BASE_URL="$(sed -n 's/^listening on //p' "$results/server.log")"
if [[ -z "$MOYA_BENCH_BASE_URL" ]]; then
    echo "BenchmarkServer did not start:" >&2
    cat "$results/server.log" >&2
    exit 1
fi
export MOYA_BENCH_BASE_URL
echo "== server at $MOYA_BENCH_BASE_URL, transfers of $MOYA_BENCH_TRANSFER_BYTES bytes" >&2

echo "== running the benchmarks" >&2
# The sandbox (macOS) would keep the benchmarks off the network, loopback included.
swift package --disable-sandbox --allow-writing-to-package-directory benchmark \
    --format influx --path "$results" --no-progress "$@" >&2

shopt -s nullglob
exports=("$results"/*.influx.csv)
if [[ ${#exports[@]} -ne 1 ]]; then
    echo "Expected one influx export in $results, found ${#exports[@]}." >&2
    exit 1
fi
python3 compare.py "${exports[0]}" "$MOYA_BENCH_TRANSFER_BYTES" | tee "$results/table.md"
