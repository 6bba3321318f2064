#!/usr/bin/env python3
"""Turns package-benchmark's influx CSV export into a Markdown table of Moya against its baselines.

Usage: compare.py RESULTS.influx.csv [TRANSFER_BYTES]

Benchmarks are named "<work> · <who>"; every iteration reports how many requests it made in the
"requests" metric. The export holds raw percentiles per metric (nanoseconds, counts, bytes).
Figures are medians over the iterations turned into per-request figures (peak memory: the
maximum); ratios are Moya's figure over the baseline's, from the same run.

The influx format is used rather than JMH because the JMH export drops a benchmark whose
iterations take over two seconds (its integer throughput rounds to zero), as 1 GiB transfers can.
"""

import csv
import sys
from collections import defaultdict

WHO = ["Moya", "AHC raw", "AHC+Data", "JSONDecoder"]
# Benchmarks that move one file per iteration: their throughput is shown in MiB/s.
TRANSFERS = ("Download", "Multipart upload")


def load(path):
    """{work: {who: {metric: {percentile: value}}}} in the order the export lists them."""
    results = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    with open(path, newline="") as file:
        rows = [row for row in csv.reader(file) if row and not row[0].startswith("#")]
    header, rows = rows[0], rows[1:]
    column = {name: index for index, name in enumerate(header)}
    for row in rows:
        work, _, who = row[column["test"]].rpartition(" · ")
        metric = row[column["metric"]]
        results[work][who][metric][float(row[column["percentile"]])] = float(row[column["value"]])
    return results


def figures(metrics, transfer_bytes, is_transfer):
    """Per-request (or per-transfer) figures of one benchmark."""
    requests = metrics["requests"][50.0] or 1
    seconds = metrics["Time(wallclock)"][50.0] / 1e9

    def per_request(metric):
        return metrics[metric][50.0] / requests if metric in metrics else None

    return {
        "throughput": (transfer_bytes / 2**20 if is_transfer else requests) / seconds,
        "cpu": per_request("Time(totalCPU)") / 1000,
        "mallocs": per_request("Malloc(total)"),
        "rss": metrics["Memory(residentpeak)"][100.0] / 2**20,
    }


def number(value, digits=1):
    if value is None:
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def ratio(moya, other):
    if moya is None or not other:
        return "–"
    return f"{moya / other:.2f}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    transfer_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 2**30
    results = load(sys.argv[1])

    print("| benchmark | who | throughput | CPU µs/op | allocs/op | peak RSS MiB"
          " | Moya ÷ raw (thr, CPU) | Moya ÷ Data (thr, CPU) | RSS − Data MiB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for work in results:
        is_transfer = work.startswith(TRANSFERS)
        unit = "MiB/s" if is_transfer else "/s"
        by_who = {who: figures(m, transfer_bytes, is_transfer) for who, m in results[work].items()}
        raw = by_who.get("AHC raw")
        data = by_who.get("AHC+Data") or by_who.get("JSONDecoder")
        for who in sorted(by_who, key=lambda w: WHO.index(w) if w in WHO else len(WHO)):
            f = by_who[who]
            cells = [work, who, f"{number(f['throughput'])} {unit}", number(f["cpu"], 2),
                     number(f["mallocs"]), number(f["rss"])]
            if who == "Moya":
                cells.append(f"{ratio(f['throughput'], raw['throughput'])}, {ratio(f['cpu'], raw['cpu'])}" if raw else "")
                cells.append(f"{ratio(f['throughput'], data['throughput'])}, {ratio(f['cpu'], data['cpu'])}" if data else "")
                cells.append(f"{f['rss'] - data['rss']:+.1f}" if data else "")
            else:
                cells += ["", "", ""]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
