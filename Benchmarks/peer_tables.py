"""compare.py's tables of the peers, the concurrency curve and the stub workload.

Each takes results.Runs and prints a Markdown table, or nothing when the runs hold none of its
benchmarks (a --filter left them out). Ratios are taken within each run, against raw
AsyncHTTPClient ("AHC raw") of the same benchmark, or the stub workload's hand-built floor, and
shown as the median over the runs with the min–max.
"""

import re

from results import CEILING_FACTOR, median, number, spread

# The clients of the peer table, in its order: Moya on both transports, then the peers.
PEER_TABLE_WHO = ["Moya", "Moya URLSession", "URLSession", "OpenAPI AHC", "OpenAPI Moya"]
PEERS = ("URLSession", "OpenAPI AHC", "OpenAPI Moya")
CURVE_WHO = ["Moya", "AHC raw", "URLSession", "OpenAPI AHC", "OpenAPI Moya"]
CURVE = re.compile(r"^(?P<base>.+ curve), (?P<level>\d+) in flight$")
STUB_WORKLOAD = "Stub workload"
OPENAPI_ALONE = "OpenAPI client alone"


def is_curve(work):
    return CURVE.match(work) is not None


def is_stub_workload(work):
    return work.startswith(STUB_WORKLOAD)


def print_all(runs):
    peers(runs)
    openapi_alone(runs)
    curve(runs)
    stub_workload(runs)


def row(cells):
    print("| " + " | ".join(cells) + " |")


def peers(runs):
    """Moya and the peers against raw AsyncHTTPClient, per benchmark."""
    works = [w for w in runs.works if not is_curve(w) and any(p in runs.whos(w) for p in PEERS)]
    if not works:
        return
    print("Peers, as ratios to raw AsyncHTTPClient in the same run (throughput: above 1 is faster; "
          "CPU per request: below 1 is cheaper):")
    print()
    row(["benchmark", "client", "throughput", "÷ raw (thr)", "÷ raw (CPU)", "CPU µs/req",
         "allocs/req (raw)", "peak RSS MiB (raw)"])
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for work in works:
        raw_allocs = number(median(runs.values(work, "AHC raw", "mallocs")))
        raw_rss = number(median(runs.values(work, "AHC raw", "rss")))
        for who in [w for w in PEER_TABLE_WHO if w in runs.whos(work)]:
            row([work, who, f"{spread(runs.values(work, who, 'throughput'), 0)} /s",
                 spread(runs.ratios(work, "AHC raw", "throughput", who)),
                 spread(runs.ratios(work, "AHC raw", "cpu", who)),
                 number(median(runs.values(work, who, "cpu")), 2),
                 f"{number(median(runs.values(work, who, 'mallocs')))} ({raw_allocs})",
                 f"{number(median(runs.values(work, who, 'rss')))} ({raw_rss})"])
    print()
    # The generated client on both transports: the same client code, so the difference is the
    # transport's alone.
    transport_works = [w for w in works if {"OpenAPI AHC", "OpenAPI Moya"} <= set(runs.whos(w))]
    if transport_works:
        print("The generated client on MoyaTransport ÷ on its AsyncHTTPClient transport:")
        print()
        row(["benchmark", "thr", "CPU", "allocs/req, MoyaTransport − AHC transport"])
        print("|---|---:|---:|---:|")
        for work in transport_works:
            row([work, spread(runs.ratios(work, "OpenAPI AHC", "throughput", "OpenAPI Moya")),
                 spread(runs.ratios(work, "OpenAPI AHC", "cpu", "OpenAPI Moya")),
                 spread(runs.differences(work, "OpenAPI AHC", "mallocs", "OpenAPI Moya"), 1, signed=True)])
        print()


def openapi_alone(runs):
    """The generated client on an in-memory transport: its codec's share of the peers' CPU."""
    works = [w for w in runs.works if w.startswith(OPENAPI_ALONE)]
    if not works:
        return
    print("The generated client alone, on a transport answering from memory (no network):")
    print()
    row(["benchmark", "per second", "CPU µs/req", "allocs/req"])
    print("|---|---:|---:|---:|")
    for work in works:
        for who in runs.whos(work):
            row([work, spread(runs.values(work, who, "throughput"), 0), spread(runs.values(work, who, "cpu"), 1),
                 number(median(runs.values(work, who, "mallocs")))])
    print()


def curve_levels(runs):
    """{level: work} of the concurrency curve's benchmarks."""
    levels = {}
    for work in runs.works:
        match = CURVE.match(work)
        if match:
            levels[int(match.group("level"))] = work
    return dict(sorted(levels.items()))


def rss_per_request(runs, work, first, level, who):
    """KiB of peak RSS per request in flight above the same client's one-at-a-time figure, run by
    run: (RSS at `level` − RSS at 1) ÷ (`level` − 1)."""
    out = []
    for by_work, _ in runs:
        high, low = by_work.get(work, {}).get(who), by_work.get(first, {}).get(who)
        if high and low and level > 1:
            out.append((high["rss"] - low["rss"]) * 1024 / (level - 1))
    return out


def curve(runs):
    """One row per client and level: throughput, CPU, allocations, memory and latency."""
    levels = curve_levels(runs)
    if not levels:
        return
    print("Concurrency curve, GET 1 KB on the async API (p50/p99: per request, over every request of "
          "the measured iterations; RSS/req: peak RSS above the client's own 1-in-flight figure, "
          "per request in flight):")
    print()
    ceilings = []
    for level in levels:
        values = [c[("get", level)] for _, c in runs if ("get", level) in c]
        if values:
            ceilings.append(f"{number(median(values), 0)} req/s ({level} connection{'s' if level > 1 else ''})")
    if ceilings:
        print(f"server ceiling with wrk, median of the runs: {', '.join(ceilings)}")
        print()
    row(["client", "in flight", "throughput", "÷ raw (thr)", "÷ raw (CPU)", "CPU µs/req", "allocs/req",
         "peak RSS MiB", "RSS/req KiB", "p50 µs", "p99 µs", "p99 ÷ raw"])
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    first = levels.get(1)
    whos = [w for w in CURVE_WHO if any(w in runs.whos(work) for work in levels.values())]
    for who in whos:
        for level, work in levels.items():
            if who not in runs.whos(work):
                continue
            per_request = rss_per_request(runs, work, first, level, who) if first else []
            row([who, f"{level:,}", f"{spread(runs.values(work, who, 'throughput'), 0)} /s",
                 spread(runs.ratios(work, "AHC raw", "throughput", who)),
                 spread(runs.ratios(work, "AHC raw", "cpu", who)),
                 spread(runs.values(work, who, "cpu"), 1),
                 number(median(runs.values(work, who, "mallocs"))),
                 spread(runs.values(work, who, "rss"), 1),
                 spread(per_request, 1) if per_request else "–",
                 spread(runs.values(work, who, "p50"), 0),
                 spread(runs.values(work, who, "p99"), 0),
                 spread(runs.ratios(work, "AHC raw", "p99", who))])
    print()
    for index, (by_work, ceiling) in enumerate(runs, start=1):
        for level, work in levels.items():
            fastest = max(((f["throughput"], who) for who, f in by_work.get(work, {}).items()), default=None)
            limit = ceiling.get(("get", level))
            if fastest and limit and limit < CEILING_FACTOR * fastest[0]:
                print(f"WARNING: run {index}: the GET ceiling with {level} connections, {number(limit)} req/s, is only "
                      f"{limit / fastest[0]:.1f}× the fastest client of the curve at {level} in flight ({fastest[1]}, "
                      f"{number(fastest[0])} req/s); the server may be part of the figures.")
    print()


def stub_workload(runs):
    """The stub workload through Moya against the same request built by hand."""
    for work in [w for w in runs.works if is_stub_workload(w)]:
        whos = runs.whos(work)
        floor = next((w for w in whos if w != "Moya"), None)
        print(f"{work}: Moya against its floor ({floor or 'not measured'}):")
        print()
        row(["who", "per second", "CPU µs/op", "allocs/op", "÷ floor (thr)", "÷ floor (CPU)",
             "CPU µs/op above the floor"])
        print("|---|---:|---:|---:|---:|---:|---:|")
        for who in ["Moya"] + ([floor] if floor else []):
            if who not in whos:
                continue
            is_moya = who == "Moya" and floor
            row([who, spread(runs.values(work, who, "throughput"), 0),
                 spread(runs.values(work, who, "cpu"), 2),
                 number(median(runs.values(work, who, "mallocs"))),
                 spread(runs.ratios(work, floor, "throughput", who)) if is_moya else "",
                 spread(runs.ratios(work, floor, "cpu", who)) if is_moya else "",
                 spread(runs.differences(work, floor, "cpu", who), 2, signed=True) if is_moya else ""])
        print()
