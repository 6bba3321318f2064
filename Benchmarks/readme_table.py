#!/usr/bin/env python3
"""Prints the README's performance table from run.sh's results, or writes it into the README.

Usage: readme_table.py [--transfer-bytes N] [--readme PATH] RUN_DIRECTORY...

Every row is one benchmark the runs hold, as the median over the runs of ratios taken within
each run (results.py); a benchmark the runs do not hold (a --filter left it out) has no row.
With --readme, the table replaces what stands between the README's two marker lines
(`<!-- performance-table:begin -->` and `<!-- performance-table:end -->`), with a line saying
when and how many runs it comes from; nothing else in the README changes.
"""

import argparse
import datetime
import re
import sys

from results import Runs, median, number, spread

BEGIN = "<!-- performance-table:begin -->"
END = "<!-- performance-table:end -->"

GET_ROWS = [
    ("GET 1 KB, one at a time", "GET 1 KB JSON × 1"),
    ("GET 1 KB, 32 in flight", "GET 1 KB JSON × 32"),
]


def ratio(runs, work, baseline, key, who="Moya", baseline_work=None):
    values = runs.ratios(work, baseline, key, who, baseline_work)
    return spread(values) if values else "–"


def get_row(runs, label, prefix, who="Moya"):
    """One row for the async and the callback API of a GET benchmark, as "async / callback"."""
    works = [f"{prefix}, async API", f"{prefix}, callback API"]
    works = [w for w in works if w in runs.works and who in runs.whos(w)]
    if not works:
        return None

    def each(show):
        return " / ".join(show(w) for w in works)

    return [
        f"{label} ({' / '.join(w.rsplit(', ', 1)[1] for w in works)})",
        each(lambda w: f"{number(median(runs.values(w, who, 'throughput')), 0)} req/s"),
        each(lambda w: f"{ratio(runs, w, 'AHC raw', 'throughput', who)}, {ratio(runs, w, 'AHC raw', 'cpu', who)}"),
        each(lambda w: f"{ratio(runs, w, 'AHC+Data', 'throughput', who)}, {ratio(runs, w, 'AHC+Data', 'cpu', who)}"),
        each(lambda w: allocations(runs, w, who)),
    ]


def allocations(runs, work, who="Moya", baseline="AHC raw", baseline_label="AHC raw"):
    mine = median(runs.values(work, who, "mallocs"))
    theirs = median(runs.values(work, baseline, "mallocs"))
    if mine is None:
        return "–"
    if theirs is None:
        return f"{number(mine)} in all"
    return f"{number(mine)} ({baseline_label}: {number(theirs)})"


def rows(runs):
    out = [r for r in (get_row(runs, label, prefix) for label, prefix in GET_ROWS) if r]
    out += [r for r in (get_row(runs, f"{label} on `URLSessionTransport`", prefix, "Moya URLSession")
                        for label, prefix in GET_ROWS) if r]
    works = runs.works

    def named(start):
        return next((w for w in works if w.startswith(start)), None)

    if (work := named("POST 64 KB JSON")) is not None:
        out.append([
            "POST 64 KB, one at a time",
            f"{number(median(runs.values(work, 'Moya', 'throughput')), 0)} req/s",
            f"{ratio(runs, work, 'AHC raw', 'throughput')}, {ratio(runs, work, 'AHC raw', 'cpu')}",
            f"{ratio(runs, work, 'AHC+Data', 'throughput')}, {ratio(runs, work, 'AHC+Data', 'cpu')}",
            allocations(runs, work),
        ])
    for start, label in (("Download to a file", "download to a file"),
                         ("Multipart upload of a file part", "multipart upload of a file part")):
        if (work := named(start)) is not None:
            out.append([
                label,
                f"{number(median(runs.values(work, 'Moya', 'throughput')), 0)} MiB/s",
                f"{ratio(runs, work, 'AHC raw', 'throughput')}, {ratio(runs, work, 'AHC raw', 'cpu')}",
                f"{ratio(runs, work, 'AHC+Data', 'throughput')}, {ratio(runs, work, 'AHC+Data', 'cpu')}",
                f"{number(median(runs.values(work, 'Moya', 'rss')))} MiB peak",
            ])
    if (work := named("Stubbed request with 2 plugins")) is not None:
        out.append(own_row(runs, work, "stubbed request, 2 plugins, async API"))
    if (work := named("Stub workload")) is not None:
        out.append(against(runs, work, "URLRequest by hand",
                           "stubbed request as a user's test makes it (callback API)", "the same URLRequest by hand"))
    if (work := named("HTTP cache: 1 KB from memory")) is not None:
        out.append(against(runs, work, "Moya stub", "HTTP cache, fresh hit from memory", "a stub", who="Moya cache hit"))
    if (work := named("HTTP cache: 1 KB GET, 304")) is not None:
        out.append(against(runs, work, "Moya full GET", "HTTP cache, `304` revalidation of 1 KB", "the full GET",
                           who="Moya 304"))
    if (work := named("Server-sent events")) is not None:
        out.append(against(runs, work, "Parser alone", "server-sent events through `events(_:)`", "the parser alone",
                           unit="events/s"))
    if (work := named("Endpoint to URLRequest")) is not None:
        out.append(own_row(runs, work, "`Endpoint` → `URLRequest`, 20 parameters"))
    if (work := named("map(Decodable)")) is not None:
        out.append(against(runs, work, "JSONDecoder", "`map(Decodable)` of 1 MB", "`JSONDecoder`"))
    return out


def own_row(runs, work, label, who="Moya"):
    cpu = median(runs.values(work, who, "cpu"))
    return [label, f"{number(median(runs.values(work, who, 'throughput')), 0)} /s, {number(cpu, 1)} µs CPU",
            "", "", allocations(runs, work, who)]


def against(runs, work, baseline, label, baseline_label, who="Moya", unit="/s"):
    """A row for work measured against a baseline other than AsyncHTTPClient."""
    cpu = median(runs.values(work, who, "cpu"))
    return [
        label,
        f"{number(median(runs.values(work, who, 'throughput')), 0)} {unit}, {number(cpu, 1)} µs CPU",
        "",
        f"{ratio(runs, work, baseline, 'throughput', who)}, {ratio(runs, work, baseline, 'cpu', who)} "
        f"vs {baseline_label}",
        allocations(runs, work, who, baseline, baseline_label),
    ]


def table(runs):
    lines = [
        "| benchmark | Moya | ÷ AHC raw (thr, CPU) | ÷ AHC + `Data`, or as said (thr, CPU) | allocations per request |",
        "|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows(runs)]
    return "\n".join(lines)


def write_readme(path, text, runs):
    with open(path) as file:
        readme = file.read()
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if len(pattern.findall(readme)) != 1:
        sys.exit(f"{path} must hold the lines {BEGIN} and {END} once each.")
    when = datetime.date.today().isoformat()
    if len(runs) == 1:
        stamp = f"Generated by `Benchmarks/readme_table.py` from one run on {when}."
    else:
        stamp = (f"Generated by `Benchmarks/readme_table.py` from {len(runs)} runs on {when}: "
                 "medians over the runs, min–max in parentheses.")
    block = f"{BEGIN}\n{stamp}\n\n{text}\n{END}"
    with open(path, "w") as file:
        file.write(pattern.sub(lambda _: block, readme))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transfer-bytes", type=int, default=2**30)
    parser.add_argument("--readme", help="write the table into this README between its marker lines")
    parser.add_argument("runs", nargs="+", help="run directories, each with an influx export")
    arguments = parser.parse_args()
    runs = Runs(arguments.runs, arguments.transfer_bytes)
    text = table(runs)
    if arguments.readme:
        write_readme(arguments.readme, text, runs)
    print(text)


if __name__ == "__main__":
    main()
