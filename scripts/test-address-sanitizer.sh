#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, in a build folder of its own (a first build takes
# a while: every dependency is rebuilt with the sanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."

swift test --sanitize=address --scratch-path .build-asan "$@"
