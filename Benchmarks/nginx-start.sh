# Sourced by run.sh and instructions.sh: starts nginx on a free port of 127.0.0.1.
#
# start_nginx NGINX DIR: runs NGINX with DIR/nginx.conf, which the caller's `write_config PORT`
# writes, until `GET /json` answers; sets `port` and `nginx_pid`. Another process may take the
# port between choosing and binding it: five ports are tried before it gives up, printing
# nginx's error log.
start_nginx() {
    local nginx="$1" dir="$2"
    for attempt in 1 2 3 4 5; do
        port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        write_config "$port"
        "$nginx" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" &
        nginx_pid=$!
        for _ in $(seq 50); do
            curl -sf -o /dev/null "http://127.0.0.1:$port/json" && break
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
        done
        curl -sf -o /dev/null "http://127.0.0.1:$port/json" && return 0
        kill -TERM "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    done
    echo "nginx did not start:" >&2
    cat "$dir/error.log" >&2
    exit 1
}
