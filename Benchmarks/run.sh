#!/usr/bin/env bash
# Runs the benchmarks (release build) against nginx on loopback, N times, then prints Markdown
# tables of Moya against raw AsyncHTTPClient and AsyncHTTPClient with Foundation Data: each
# ratio is taken within a run, and the tables give its median and min–max over the runs.
#
# Usage: Benchmarks/run.sh [--runs N] [swift package benchmark options, e.g. --filter '(GET|POST).*']
#   --runs N   how many times to run the suite (default 3)
# Environment:
#   MOYA_BENCH_TRANSFER_BYTES   size of the download and of the uploaded file part (default 1 GiB)
#   MOYA_BENCH_NGINX_WORKERS    nginx worker processes (default 1: the higher ceiling here)
#   MOYA_BENCH_CEILING_SECONDS  how long each wrk measurement of the ceiling lasts (default 3)
#
# Installs nginx and wrk with apt-get when they are missing. nginx runs on 127.0.0.1 on a free
# port with a configuration generated in .build/nginx, and is stopped when the script exits.
set -euo pipefail
cd "$(dirname "$0")"

runs=3
benchmark_args=()
while (($#)); do
    case "$1" in
        --runs) runs="${2:-}"; shift 2 || { echo "--runs needs a number" >&2; exit 2; } ;;
        --runs=*) runs="${1#--runs=}"; shift ;;
        *) benchmark_args+=("$1"); shift ;;
    esac
done
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "--runs needs a positive number, not '$runs'" >&2
    exit 2
fi

export MOYA_BENCH_TRANSFER_BYTES="${MOYA_BENCH_TRANSFER_BYTES:-1073741824}"
workers="${MOYA_BENCH_NGINX_WORKERS:-1}"
ceiling_seconds="${MOYA_BENCH_CEILING_SECONDS:-3}"
# Kept after the run (the CSV exports, the ceilings, the table, nginx's log), and ignored by git
# like all of .build.
results=".build/benchmark-results"
nginx_dir="$PWD/.build/nginx"
rm -rf "$results" "$nginx_dir"
mkdir -p "$results" "$nginx_dir/www" "$nginx_dir/temp"
nginx_pid=""
child=""
started=$SECONDS
# Background jobs get process groups of their own, so that an interrupted run can stop a build or
# a benchmark run with all its processes.
set -m

cleanup() {
    if [[ -n "$nginx_pid" ]]; then
        kill -TERM "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        cp "$nginx_dir/error.log" "$results/nginx-error.log" 2>/dev/null || true
    fi
    # The download's sparse source file, and the benchmarks' own files.
    rm -rf "$nginx_dir/www" "$nginx_dir/temp"
    rm -f "${TMPDIR:-/tmp}/moya-benchmark-upload" "${TMPDIR:-/tmp}/moya-benchmark-download"
}
interrupted() {
    if [[ -n "$child" ]]; then
        kill -TERM -- "-$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    fi
    exit 130
}
trap cleanup EXIT
trap interrupted INT TERM

# Runs a command in the background and waits for it, so that a signal is handled at once.
run() {
    local status=0
    "$@" &
    child=$!
    wait "$child" || status=$?
    child=""
    return "$status"
}

# MARK: nginx and wrk

find_tool() {
    command -v "$1" 2>/dev/null || { [[ -x "/usr/sbin/$1" ]] && echo "/usr/sbin/$1"; } || true
}
missing=()
[[ -n "$(find_tool nginx)" ]] || missing+=(nginx)
[[ -n "$(find_tool wrk)" ]] || missing+=(wrk)
if ((${#missing[@]})); then
    echo "== installing ${missing[*]} with apt-get" >&2
    sudo=()
    [[ $EUID -eq 0 ]] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    # An image without package lists needs an update first.
    "${sudo[@]}" apt-get install -y "${missing[@]}" >&2 \
        || { "${sudo[@]}" apt-get update >&2 && "${sudo[@]}" apt-get install -y "${missing[@]}" >&2; }
fi
nginx="$(find_tool nginx)"
wrk="$(find_tool wrk)"

echo "== building the benchmarks" >&2
# Plans afresh when the root's sources were added or removed since the last build (see the
# script). The build runs inside the benchmark plugin, so the manifest's date is what changes.
source ../scripts/build-plan.sh
if [[ -n $(fresh_plan_flags .build/sources.cksum ../Sources) ]]; then
    touch Package.swift
fi
# `list` builds the benchmark targets as a run does, so the build is done before nginx starts
# and before the ceiling is measured.
run swift package --disable-sandbox --allow-writing-to-package-directory benchmark list >&2
record_sources .build/sources.cksum ../Sources

# What nginx serves: the same ~1 KB of JSON as before (twice: /cached for the cache's hits), the answer of the POST locations, and a
# sparse file for the download (zeros read from memory, not from the disk).
python3 - "$nginx_dir/www" <<'EOF'
import sys
record = '{"id":1,"name":"user 1","email":"user1@example.com","active":true,"score":1.5,"tags":["alpha","beta","gamma"]}'
www = sys.argv[1]
open(f"{www}/json", "w").write("[" + ",".join([record] * 9) + "]")
open(f"{www}/cached", "w").write("[" + ",".join([record] * 9) + "]")
open(f"{www}/ok", "w").write('{"ok":true}')
for name in ("echo", "upload"):  # the static handler refuses a POST of an existing file: 405
    open(f"{www}/{name}", "w").close()
EOF
truncate -s "$MOYA_BENCH_TRANSFER_BYTES" "$nginx_dir/www/download"

write_config() {
    cat > "$nginx_dir/nginx.conf" <<EOF
# Generated by Benchmarks/run.sh.
worker_processes $workers;
daemon off;
pid $nginx_dir/nginx.pid;
error_log $nginx_dir/error.log error;
# The concurrency curve keeps up to 1,024 connections open, and wrk as many while measuring
# the ceiling: room for both, and for the descriptors they take.
worker_rlimit_nofile 16384;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    # One connection for the whole run, as a client's pool keeps it: no reconnection after
    # nginx's default 1,000 requests.
    keepalive_requests 100000000;
    keepalive_timeout 300s;
    open_file_cache max=16;
    client_body_temp_path $nginx_dir/temp/body;
    proxy_temp_path $nginx_dir/temp/proxy;
    fastcgi_temp_path $nginx_dir/temp/fastcgi;
    uwsgi_temp_path $nginx_dir/temp/uwsgi;
    scgi_temp_path $nginx_dir/temp/scgi;
    default_type application/octet-stream;
    server {
        # A backlog for 1,024 connections opened at once: nginx's default, 511, could overflow,
        # and a dropped SYN delays its connection by a second.
        listen 127.0.0.1:$1 reuseport backlog=4096;
        root $nginx_dir/www;
        client_max_body_size 0;
        location = /json { default_type application/json; }
        # The HTTP cache benchmarks: /cached stays fresh for an hour; /json's ETag (nginx sends
        # one for every static file) answers their revalidations with 304.
        location = /cached { default_type application/json; add_header Cache-Control "max-age=3600"; }
        location = /download { }
        # POST: the whole body is read before the answer. mirror_request_body makes nginx read
        # it (in memory up to client_body_buffer_size, beyond that into a file under temp/)
        # before the content phase; the static handler then refuses the POST (405), which
        # error_page turns into a 200 with /ok as the body.
        location ~ ^/(echo|upload)\$ {
            client_body_buffer_size 128k;
            mirror /sink;
            mirror_request_body on;
            error_page 405 =200 /ok;
        }
        location = /sink { internal; return 204; }
        location = /ok { internal; default_type application/json; }
    }
}
EOF
}

source "$PWD/nginx-start.sh"
start_nginx "$nginx" "$nginx_dir"
export MOYA_BENCH_BASE_URL="http://127.0.0.1:$port"
echo "== nginx at $MOYA_BENCH_BASE_URL ($workers worker(s)), transfers of $MOYA_BENCH_TRANSFER_BYTES bytes" >&2

# The POST locations must read the whole body before answering, or a client's measurement
# would end when its headers are sent: send half a body, check that no answer has come,
# send the rest, check the answer.
python3 - "$port" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
for path, size in (("/echo", 64 * 1024), ("/upload", 8 * 1024 * 1024)):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {size}\r\n\r\n".encode())
    s.sendall(b"a" * (size // 2))
    time.sleep(0.3)
    s.setblocking(False)
    try:
        early = s.recv(1024)
    except BlockingIOError:
        early = b""
    if early:
        sys.exit(f"nginx answered POST {path} before reading its body: {early[:60]!r}")
    s.setblocking(True)
    s.settimeout(10)
    s.sendall(b"a" * (size - size // 2))
    answer = s.recv(1024)
    if not answer.startswith(b"HTTP/1.1 200") or not answer.endswith(b'{"ok":true}'):
        sys.exit(f"POST {path}: unexpected answer {answer[:200]!r}")
    s.close()
EOF

# The POST body of the ceiling measurement: 64 KB, as the benchmark sends.
cat > "$nginx_dir/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body = string.rep("a", 64 * 1024)
wrk.headers["Content-Type"] = "application/json"
EOF

# CPU time nginx's processes (master and workers) have used, in clock ticks.
nginx_ticks() {
    local pid total=0
    for pid in "$nginx_pid" $(pgrep -P "$nginx_pid"); do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
clock_ticks="$(getconf CLK_TCK)"

# The ceiling: wrk against nginx, one thread, for ceiling_seconds. Prints two lines of
# ceiling.txt: "<name> <connections> <requests/s>" and "<name>-cpu <connections> <nginx's CPU
# µs per request>". Usage: ceiling NAME PATH CONNECTIONS [wrk options].
ceiling() {
    local name="$1" path="$2" connections="$3" before output
    shift 3
    before="$(nginx_ticks)"
    output="$("$wrk" -t1 -c"$connections" -d"${ceiling_seconds}s" "$@" "$MOYA_BENCH_BASE_URL$path")"
    awk -v name="$name" -v c="$connections" -v ticks="$(( $(nginx_ticks) - before ))" -v hz="$clock_ticks" '
        / requests in / { requests = $1 }
        /^Requests\/sec:/ { rate = $2 }
        END {
            print name, c, rate
            if (requests > 0) printf "%s-cpu %d %.2f\n", name, c, ticks * 1e6 / hz / requests
        }' <<< "$output"
}

load_average() {
    cut -d' ' -f1 /proc/loadavg
}

# MARK: Runs

run_dirs=()
for run in $(seq "$runs"); do
    dir="$results/run-$run"
    mkdir -p "$dir"
    run_dirs+=("$dir")
    echo "== run $run of $runs: load $(load_average), measuring the server's ceiling" >&2
    {
        echo "load before $(load_average)"
        ceiling get /json 1
        ceiling get /json 32
        # The concurrency curve's higher levels.
        ceiling get /json 256
        ceiling get /json 1024
        ceiling post /echo 1 -s "$nginx_dir/post.lua"
        ceiling post /echo 32 -s "$nginx_dir/post.lua"
    } > "$dir/ceiling.txt"
    sed 's/^/   /' "$dir/ceiling.txt" >&2
    echo "== run $run of $runs: benchmarks" >&2
    # The sandbox (macOS) would keep the benchmarks off the network, loopback included.
    run swift package --disable-sandbox --allow-writing-to-package-directory benchmark \
        --format influx --path "$dir" --no-progress ${benchmark_args[@]+"${benchmark_args[@]}"} >&2
    echo "load after $(load_average)" >> "$dir/ceiling.txt"
done

echo "== $runs run(s) in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s" >&2
python3 compare.py --transfer-bytes "$MOYA_BENCH_TRANSFER_BYTES" "${run_dirs[@]}" | tee "$results/table.md"
# The README's table, from the same runs: `readme_table.py --readme ../README.md` writes it there.
python3 readme_table.py --transfer-bytes "$MOYA_BENCH_TRANSFER_BYTES" "${run_dirs[@]}" > "$results/readme-table.md"
echo "== the README's table: $results/readme-table.md (readme_table.py --readme ../README.md RUN_DIRS writes it)" >&2
