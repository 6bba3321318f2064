#!/usr/bin/env python3
"""Turns instructions.sh's counts into a Markdown table of instructions per request.

Usage: instructions_table.py COUNTS_DIR SMALL LARGE

Each row's per-request count is (count of the LARGE run - count of the SMALL run) divided by
(LARGE - SMALL) requests (ten times both for the stub workload). Ratios are to raw
AsyncHTTPClient sending the same headers (the fair baseline) and, in brackets, to the headerless
baseline; the targets are checked against the fair one.
"""

import sys
from pathlib import Path


def per_request(counts: Path, name: str, small: int, large: int) -> float:
    low = int((counts / f"{name}-{small}").read_text().strip())
    high = int((counts / f"{name}-{large}").read_text().strip())
    return (high - low) / (large - small)


def main() -> int:
    counts = Path(sys.argv[1])
    small, large = int(sys.argv[2]), int(sys.argv[3])

    def network(mode: str, concurrency: int) -> float:
        return per_request(counts, f"{mode}-x{concurrency}", small, large)

    rows = [
        ("raw AsyncHTTPClient, async `execute` + `collect`, no headers", "ahc", None, None),
        ("the same, sending Moya's default headers", "ahc-headers", None, "ahc"),
        ("Moya, `try await provider.request(.x)`", "moya", "ahc-headers", "ahc"),
        ("Moya, async, one no-op plugin", "moya-plugin", "ahc-headers", "ahc"),
        ("Moya, async, every resilience policy set, none tripping", "moya-policies", "ahc-headers", "ahc"),
        ("raw AsyncHTTPClient, callback API + a queue hop, no headers", "ahc-callback", None, None),
        ("the same, sending Moya's default headers", "ahc-callback-headers", None, "ahc-callback"),
        ("Moya, callback API", "moya-callback", "ahc-callback-headers", "ahc-callback"),
        ("Moya, callback API, one no-op plugin", "moya-callback-plugin", "ahc-callback-headers", "ahc-callback"),
    ]
    values = {(mode, c): network(mode, c) for _, mode, _, _ in rows for c in (1, 32)}

    def cell(mode: str, fair: str | None, bare: str | None, c: int) -> str:
        value = values[(mode, c)]
        text = f"{value:,.0f}"
        ratios = []
        if fair:
            ratios.append(f"{value / values[(fair, c)]:.3f}×")
        if bare:
            ratios.append(f"{value / values[(bare, c)]:.3f}× of no headers" if fair else f"{value / values[(bare, c)]:.3f}×")
        return text + (f" ({'; '.join(ratios)})" if ratios else "")

    print("| per request (instructions) | × 1 | × 32 |")
    print("|---|---:|---:|")
    for label, mode, fair, bare in rows:
        print(f"| {label} | {cell(mode, fair, bare, 1)} | {cell(mode, fair, bare, 32)} |")

    openapi = {(mode, c): network(f"openapi-{mode}", c) for mode in ("ahc", "moya") for c in (1, 32)}
    print()
    print("| generated OpenAPI client, GET (instructions per request) | × 1 | × 32 |")
    print("|---|---:|---:|")
    print(f"| on swift-openapi-async-http-client | {openapi[('ahc', 1)]:,.0f} | {openapi[('ahc', 32)]:,.0f} |")
    print(
        f"| on `MoyaTransport` | {openapi[('moya', 1)]:,.0f} ({openapi[('moya', 1)] / openapi[('ahc', 1)]:.3f}×)"
        f" | {openapi[('moya', 32)]:,.0f} ({openapi[('moya', 32)] / openapi[('ahc', 32)]:.3f}×) |"
    )

    users = per_request(counts, "stub-users", small * 10, large * 10)
    floor = per_request(counts, "stub-floor", small * 10, large * 10)
    print()
    print("| stub workload (instructions per request) | count | ratio |")
    print("|---|---:|---:|")
    print(f"| a `URLRequest` built by hand | {floor:,.0f} | 1 |")
    print(f"| Moya, immediate stub, two plugins, callback API | {users:,.0f} | {users / floor:.2f}× |")

    print()
    print("| target | × 1 | × 32 |")
    print("|---|---|---|")

    def verdict(value: float, limit: float, unit: str) -> str:
        return f"{value:.3f}{unit} {'met' if value <= limit else 'missed'}"

    async_ratio = [values[("moya", c)] / values[("ahc-headers", c)] for c in (1, 32)]
    callback_ratio = [values[("moya-callback", c)] / values[("ahc-callback-headers", c)] for c in (1, 32)]
    plugin_cost = [values[("moya-plugin", c)] - values[("moya", c)] for c in (1, 32)]
    print(f"| async ≤ 1.12× raw with the same headers | {verdict(async_ratio[0], 1.12, '×')} | {verdict(async_ratio[1], 1.12, '×')} |")
    print(f"| callback ≤ 1.18× raw callback with the same headers | {verdict(callback_ratio[0], 1.18, '×')} | {verdict(callback_ratio[1], 1.18, '×')} |")
    print(
        f"| one no-op plugin ≤ 3,000 instructions | {plugin_cost[0]:,.0f} {'met' if plugin_cost[0] <= 3000 else 'missed'}"
        f" | {plugin_cost[1]:,.0f} {'met' if plugin_cost[1] <= 3000 else 'missed'} |"
    )
    policies_ratio = [values[("moya-policies", c)] / values[("moya", c)] for c in (1, 32)]
    print(
        f"| every resilience policy, none tripping, ≤ 1.03× without | {verdict(policies_ratio[0], 1.03, '×')}"
        f" | {verdict(policies_ratio[1], 1.03, '×')} |"
    )
    openapi_ratio = [openapi[("moya", c)] / openapi[("ahc", c)] for c in (1, 32)]
    print(
        f"| OpenAPI client on `MoyaTransport` ≤ 1.15× on swift-openapi-async-http-client"
        f" | {verdict(openapi_ratio[0], 1.15, '×')} | {verdict(openapi_ratio[1], 1.15, '×')} |"
    )
    print(f"| stub workload ≤ 1.5× by hand | {verdict(users / floor, 1.5, '×')} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
