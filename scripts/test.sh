#!/usr/bin/env bash
# The test suite, as the README gives it: every test, in three steps so that the tests whose
# point is a timing never share the machine with the suites that load it on purpose.
#
#   1. everything else, in parallel (Swift Testing's default);
#   2. the timing tests (timeouts, deadlines, a reader holding a transfer back, trickling
#      servers), in parallel among themselves: they mostly wait, and their in-process servers
#      answer on Swift's cooperative pool, which the stress suites would fill with thousands of
#      jobs (on 2 cores, a server's 300 ms pause then took seconds, and a live transfer
#      looked idle);
#   3. the stress suites (request storms, connection bursts).
#
# Options are passed to every step, e.g. `scripts/test.sh --parallel --num-workers 2`.
# `swift test` alone still runs everything at once, which holds on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# Suites whose assertions are about time: a timeout must fire, a live transfer must survive.
timing='TransportContractTimeoutTests|RequestDeadlineTests|NetworkTimeoutTests|StreamNetworkTests|NetworkFaultTests'
# Suites that load the machine on purpose.
stress='RequestStormTests|ConnectionBurstTests'

started=$SECONDS
step() {
    echo "== scripts/test.sh: $1 (at $((SECONDS - started))s)"
}

step "every test but the timing and stress suites"
swift test --skip "$timing|$stress" "$@"
step "the timing suites"
swift test --skip-build --filter "$timing" "$@"
step "the stress suites"
swift test --skip-build --filter "$stress" "$@"
step "done"
