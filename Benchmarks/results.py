"""Reads run.sh's results (package-benchmark's influx CSV exports and the ceilings) into
per-request figures, and formats them; compare.py and peer_tables.py print the tables.

Benchmarks are named "<work> · <who>"; every iteration reports how many requests it made in the
"requests" metric. The export holds raw percentiles per metric (nanoseconds, counts, bytes).
Within a run, figures are medians over the iterations turned into per-request figures (peak
memory: the maximum), and ratios are one contender's figure over another's from that same run.
Over the runs, the tables show the median of each figure and ratio and its min–max.
"""

import csv
import glob
import os
import re
import statistics
import sys
from collections import defaultdict

# Benchmarks that move one file per iteration: their throughput is shown in MiB/s.
TRANSFERS = ("Download", "Multipart upload")
# The server must answer at least this many times faster than the fastest client.
CEILING_FACTOR = 3


def load(path):
    """{work: {who: {metric: {percentile: value}}}} in the order the export lists them."""
    results = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    with open(path, newline="") as file:
        rows = [row for row in csv.reader(file) if row and not row[0].startswith("#")]
    if not rows:
        sys.exit(f"{path} is empty: no benchmark ran. A --filter must match whole names, "
                 "e.g. '(GET|POST).*', not 'GET|POST'.")
    header, rows = rows[0], rows[1:]
    column = {name: index for index, name in enumerate(header)}
    for row in rows:
        work, _, who = row[column["test"]].rpartition(" · ")
        metric = row[column["metric"]]
        results[work][who][metric][float(row[column["percentile"]])] = float(row[column["value"]])
    return results


def load_ceiling(path):
    """{("get"|"post", connections): requests/s, ("get-cpu"|"post-cpu", connections): nginx's CPU
    µs per request, ("load", "before"|"after"): 1-minute load average}."""
    ceiling = {}
    if not os.path.exists(path):
        return ceiling
    with open(path) as file:
        for line in file:
            fields = line.split()
            if len(fields) != 3:
                continue
            key, second, value = fields
            try:
                ceiling[(key, second if key == "load" else int(second))] = float(value)
            except ValueError:
                pass
    return ceiling


def figures(metrics, transfer_bytes, is_transfer):
    """Per-request (or per-transfer) figures of one benchmark in one run.

    "p50" and "p99" (µs) are the percentiles of the "latency" metric, where a benchmark records
    every request's duration (the concurrency curve), so they are per request, not per batch."""
    requests = metrics["requests"][50.0] or 1
    seconds = metrics["Time(wallclock)"][50.0] / 1e9

    def per_request(metric):
        return metrics[metric][50.0] / requests if metric in metrics else None

    latency = metrics.get("latency", {})
    return {
        "throughput": (transfer_bytes / 2**20 if is_transfer else requests) / seconds,
        "cpu": per_request("Time(totalCPU)") / 1000,
        "mallocs": per_request("Malloc(total)"),
        "rss": metrics["Memory(residentpeak)"][100.0] / 2**20,
        "p50": latency[50.0] / 1000 if 50.0 in latency else None,
        "p99": latency[99.0] / 1000 if 99.0 in latency else None,
    }


def concurrency(work):
    """The number of requests in flight a benchmark's name announces ("× 32"), else 1."""
    match = re.search(r"× (\d+)", work)
    return int(match.group(1)) if match else 1


def number(value, digits=1):
    if value is None:
        return "–"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def spread(values, digits=2, signed=False):
    """'median (min–max)' of the runs' values, or the one value of a single run."""
    values = [v for v in values if v is not None]
    if not values:
        return "–"

    def show(v):
        if signed:
            return f"{v:+.{digits}f}"
        return number(v, digits) if abs(v) >= 1000 else f"{v:.{digits}f}"

    middle = show(statistics.median(values))
    if len(values) == 1:
        return middle
    return f"{middle} ({show(min(values))}–{show(max(values))})"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


class Runs:
    """The runs' figures: `runs` is [(by_work {work: {who: figures}}, ceiling)], one per run."""

    def __init__(self, directories, transfer_bytes):
        self.runs = []
        for directory in directories:
            exports = glob.glob(os.path.join(directory, "*.influx.csv"))
            if len(exports) != 1:
                sys.exit(f"Expected one influx export in {directory}, found {len(exports)}.")
            by_work = {}
            for work, by_who in load(exports[0]).items():
                is_transfer = work.startswith(TRANSFERS)
                by_work[work] = {who: figures(m, transfer_bytes, is_transfer) for who, m in by_who.items()}
            self.runs.append((by_work, load_ceiling(os.path.join(directory, "ceiling.txt"))))
        self.works = []
        for by_work, _ in self.runs:
            self.works += [work for work in by_work if work not in self.works]

    def __len__(self):
        return len(self.runs)

    def __iter__(self):
        return iter(self.runs)

    def whos(self, work):
        """Everyone measured in `work`, in the order the runs list them."""
        whos = []
        for by_work, _ in self.runs:
            whos += [who for who in by_work.get(work, {}) if who not in whos]
        return whos

    def values(self, work, who, key):
        return [by_work[work][who][key] for by_work, _ in self.runs if who in by_work.get(work, {})]

    def ratios(self, work, baseline, key, who="Moya", baseline_work=None):
        """`who`'s figure (Moya's by default) over the baseline's, run by run; the baseline's
        from `baseline_work` when given, else from `work`."""
        out = []
        for by_work, _ in self.runs:
            figures_ = by_work.get(work, {})
            base = by_work.get(baseline_work or work, {})
            if who in figures_ and baseline in base and base[baseline][key]:
                out.append(figures_[who][key] / base[baseline][key])
        return out

    def differences(self, work, baseline, key, who="Moya"):
        """`who`'s figure minus the baseline's, run by run."""
        out = []
        for by_work, _ in self.runs:
            figures_ = by_work.get(work, {})
            if who in figures_ and baseline in figures_:
                out.append(figures_[who][key] - figures_[baseline][key])
        return out
