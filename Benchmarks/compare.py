#!/usr/bin/env python3
"""Turns package-benchmark's influx CSV exports into Markdown tables of Moya against its baselines.

Usage: compare.py [--transfer-bytes N] RUN_DIRECTORY...

Each run directory (run.sh writes .build/benchmark-results/run-1, run-2, ...) holds one
influx CSV export and `ceiling.txt`, the server's ceiling measured with wrk just before that
run's benchmarks (lines "<endpoint> <connections> <requests/s>", "<endpoint>-cpu <connections>
<nginx's CPU µs per request>" and "load <when> <1-minute load average>").

How the exports become per-request figures and ratios: results.py. The tables of the peers,
the concurrency curve and the stub workload: peer_tables.py.

The influx format is used rather than JMH because the JMH export drops a benchmark whose
iterations take over two seconds (its integer throughput rounds to zero), as 1 GiB transfers can.
"""

import argparse

import peer_tables
from results import CEILING_FACTOR, TRANSFERS, Runs, concurrency, median, number, spread

WHO = ["Moya", "Moya URLSession", "AHC raw", "AHC+Data", "URLSession", "OpenAPI AHC", "OpenAPI Moya",
       "JSONDecoder", "Parser alone"]

# The targets, judged on the medians over the runs.
GET_TARGETS = {
    "thr_data": 0.97,     # requests/s ≥ 0.97 × AHC+Data
    "cpu_data": 1.05,     # CPU per request ≤ 1.05 × AHC+Data
    "thr_raw": 0.90,      # requests/s ≥ 0.90 × raw AHC
    "rss_data": 4.0,      # peak RSS ≤ AHC+Data + 4 MiB
    "allocs_raw": 15.0,   # allocations per request ≤ raw AHC + 15
}
POST_TARGET = 0.95        # POST 64 KB requests/s ≥ 0.95 × AHC+Data
STUB_TARGET = 160_000     # stubbed requests with 2 plugins per second


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transfer-bytes", type=int, default=2**30)
    parser.add_argument("runs", nargs="+", help="run directories, each with an influx export and ceiling.txt")
    arguments = parser.parse_args()

    runs = Runs(arguments.runs, arguments.transfer_bytes)
    works = runs.works
    values, ratios, differences = runs.values, runs.ratios, runs.differences
    # The concurrency curve and the stub workload have tables of their own (peer_tables.py).
    own_table_works = [w for w in works if peer_tables.is_curve(w) or peer_tables.is_stub_workload(w)]

    def data_baseline(work):
        whos = {who for by_work, _ in runs for who in by_work.get(work, {})}
        for baseline in ("AHC+Data", "JSONDecoder", "Parser alone"):
            if baseline in whos:
                return baseline
        return None

    # The server's ceiling, and whether it outpaces the clients.
    print(f"{len(runs)} run(s); figures are the median over the runs, with the min–max in parentheses.")
    print()
    def per_connections(endpoint):
        return ([c[(endpoint, 1)] for _, c in runs if (endpoint, 1) in c],
                [c[(endpoint, 32)] for _, c in runs if (endpoint, 32) in c])

    def listing(values_, digits=0):
        return ", ".join(number(v, digits) for v in values_) or "–"

    for endpoint, label in [("get", "server ceiling"), ("post", "POST 64 KB ceiling")]:
        one, many = per_connections(endpoint)
        if one or many:
            print(f"{label}: {number(median(one), 0)} req/s (1 connection), {number(median(many), 0)} req/s (32 connections)")
            if len(runs) > 1:
                print(f"  (median of the runs; run by run: {listing(one)} and {listing(many)})")
    for endpoint, label in [("get-cpu", "GET"), ("post-cpu", "POST 64 KB")]:
        one, many = per_connections(endpoint)
        if one or many:
            print(f"nginx's CPU per {label} request while measuring its ceiling: {spread(one, 1)} µs (1 connection), "
                  f"{spread(many, 1)} µs (32 connections)")
    loads = [(c.get(("load", "before")), c.get(("load", "after"))) for _, c in runs]
    if any(b is not None for b, _ in loads):
        shown = ", ".join(f"{number(b, 2)} → {number(a, 2)}" for b, a in loads)
        print(f"machine load (1-minute average, before → after each run): {shown}")

    warnings = []
    for index, (by_work, ceiling) in enumerate(runs, start=1):
        for endpoint, prefix in [("get", "GET"), ("post", "POST")]:
            for connections in (1, 32):
                if (endpoint, connections) not in ceiling:
                    continue
                fastest = None
                for work, by_who in by_work.items():
                    if not work.startswith(prefix) or concurrency(work) != connections or work in own_table_works:
                        continue
                    for who, f in by_who.items():
                        if fastest is None or f["throughput"] > fastest[0]:
                            fastest = (f["throughput"], who, work)
                if fastest is None:
                    continue
                limit = ceiling[(endpoint, connections)]
                if limit < CEILING_FACTOR * fastest[0]:
                    warnings.append(
                        f"WARNING: run {index}: the {prefix} ceiling with {connections} connection(s), "
                        f"{number(limit)} req/s, is only {limit / fastest[0]:.1f}× the fastest client "
                        f"({fastest[1]}, {fastest[2]}: {number(fastest[0])} req/s); "
                        f"it should be at least {CEILING_FACTOR}×, or the server may be part of that client's figures."
                    )
    for warning in warnings:
        print(warning)
    print()

    # Ratios, with their spread over the runs.
    moya_works = [w for w in works if w not in own_table_works and any("Moya" in r.get(w, {}) for r, _ in runs)]
    if moya_works:
        print("| benchmark | Moya | Moya ÷ AHC+Data (thr) | Moya ÷ AHC+Data (CPU) | Moya ÷ raw (thr)"
              " | Moya ÷ raw (CPU) | allocs/op Moya / raw / Data | peak RSS MiB Moya / Data, Moya − Data |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for work in moya_works:
        unit = "MiB/s" if work.startswith(TRANSFERS) else "/s"
        data = data_baseline(work)
        allocs = " / ".join(number(median(values(work, who, "mallocs"))) for who in ("Moya", "AHC raw", data) if who
                            and values(work, who, "mallocs"))
        rss = ""
        if data:
            rss = (f"{number(median(values(work, 'Moya', 'rss')))} / {number(median(values(work, data, 'rss')))}, "
                   f"{spread(differences(work, data, 'rss'), 1, signed=True)}")
        cells = [
            work,
            f"{spread(values(work, 'Moya', 'throughput'), 0)} {unit}",
            spread(ratios(work, data, "throughput")) if data else "",
            spread(ratios(work, data, "cpu")) if data else "",
            spread(ratios(work, "AHC raw", "throughput")) if ratios(work, "AHC raw", "throughput") else "",
            spread(ratios(work, "AHC raw", "cpu")) if ratios(work, "AHC raw", "cpu") else "",
            allocs,
            rss,
        ]
        print("| " + " | ".join(cells) + " |")
    print()

    # Moya on each transport: the platform's default (AsyncHTTPClient on Linux) and URLSession.
    transport_works = [w for w in works if any("Moya URLSession" in r.get(w, {}) for r, _ in runs)]
    if transport_works:
        print("| benchmark | transport | ÷ AHC+Data (thr) | ÷ AHC+Data (CPU) | ÷ raw (thr) | ÷ raw (CPU) |")
        print("|---|---|---:|---:|---:|---:|")
        for work in transport_works:
            for who, label in (("Moya", "AsyncHTTPClientTransport"), ("Moya URLSession", "URLSessionTransport")):
                print("| " + " | ".join([
                    work, label,
                    spread(ratios(work, "AHC+Data", "throughput", who)),
                    spread(ratios(work, "AHC+Data", "cpu", who)),
                    spread(ratios(work, "AHC raw", "throughput", who)),
                    spread(ratios(work, "AHC raw", "cpu", who)),
                ]) + " |")
        print()

    peer_tables.print_all(runs)

    # Every benchmark's own figures, medians over the runs.
    # "cores busy": the client's CPU time over its wall-clock time. Near 1 for a one-at-a-time
    # benchmark, the client was running nearly all the time and waited little for the server.
    print("| benchmark | who | throughput | CPU µs/op | cores busy | allocs/op | peak RSS MiB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for work in works:
        unit = "MiB/s" if work.startswith(TRANSFERS) else "/s"
        whos = []
        for by_work, _ in runs:
            whos += [who for who in by_work.get(work, {}) if who not in whos]
        for who in sorted(whos, key=lambda w: WHO.index(w) if w in WHO else len(WHO)):
            busy = [f["cpu"] * f["throughput"] / 1e6 for by_work, _ in runs
                    if (f := by_work.get(work, {}).get(who)) and not work.startswith(TRANSFERS)]
            cells = [work, who, f"{spread(values(work, who, 'throughput'), 0)} {unit}",
                     number(median(values(work, who, "cpu")), 2), number(median(busy), 2),
                     number(median(values(work, who, "mallocs"))), number(median(values(work, who, "rss")))]
            print("| " + " | ".join(cells) + " |")
    print()

    # The targets, on the medians.
    def judge(value, target, higher_is_better):
        if value is None:
            return "–"
        met = value >= target if higher_is_better else value <= target
        return f"{value:.2f} {'met' if met else '**not met**'}"

    get_works = [w for w in works if w.startswith("GET") and w not in own_table_works
                 and any("Moya" in r.get(w, {}) for r, _ in runs)]
    if get_works:
        t = GET_TARGETS
        print(f"| target (medians) | thr ÷ Data ≥ {t['thr_data']} | CPU ÷ Data ≤ {t['cpu_data']} "
              f"| thr ÷ raw ≥ {t['thr_raw']} | RSS − Data ≤ {t['rss_data']:.0f} MiB | allocs − raw ≤ {t['allocs_raw']:.0f} |")
        print("|---|---|---|---|---|---|")
        for work in get_works:
            allocs = [m - r for m, r in zip(values(work, "Moya", "mallocs"), values(work, "AHC raw", "mallocs"))]
            print("| " + " | ".join([
                work,
                judge(median(ratios(work, "AHC+Data", "throughput")), t["thr_data"], True),
                judge(median(ratios(work, "AHC+Data", "cpu")), t["cpu_data"], False),
                judge(median(ratios(work, "AHC raw", "throughput")), t["thr_raw"], True),
                judge(median(differences(work, "AHC+Data", "rss")), t["rss_data"], False),
                judge(median(allocs), t["allocs_raw"], False),
            ]) + " |")
        print()
    for work in works:
        if work.startswith("POST"):
            print(f"- {work}: thr ÷ AHC+Data ≥ {POST_TARGET}: "
                  f"{judge(median(ratios(work, 'AHC+Data', 'throughput')), POST_TARGET, True)}")
        if work.startswith("Stubbed"):
            stub = median(values(work, "Moya", "throughput"))
            if stub is not None:
                met = "met" if stub >= STUB_TARGET else "**not met**"
                print(f"- {work}: ≥ {STUB_TARGET:,} requests/s: {stub:,.0f} {met}")


if __name__ == "__main__":
    main()
