#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, in a build folder of its own.
# CI runs ThreadSanitizer; this one is run by hand (and before releases): both do not fit in
# CI's time budget on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

swift test --sanitize=address --scratch-path .build-asan "$@"
