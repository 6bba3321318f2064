#!/usr/bin/env bash
# Compiles every ```swift block of README.md and of the DocC articles (Sources/*/*.docc/**/*.md)
# against the package's products (Moya, CombineMoya, MoyaTesting, MoyaObservability), in the
# Swift 6 language mode with warnings as errors, so that the documentation cannot drift from the API.
#
# scripts/snippets.py writes a scratch package to .build-snippets/package (git-ignored): one
# library target per document, depending on this package by path. A document compiles as one
# file read from the top: declarations stay at file scope; statements run in an `async throws`
# function, each block in a scope nested in the previous one's, so a block may use what earlier
# blocks made. Every target also gets the `GitHub` target and the `User` model of the Moya
# module's Getting Started article, unless it declares its own. Diagnostics name the document
# and line, e.g. `README.md:74:5: error: ...`.
#
# A ```swift block that is not meant to compile here (a Package.swift fragment, Moya 15 code on
# Alamofire) starts with the line `// not compiled: <reason>`; those are counted and listed.
# Shell goes in ```sh blocks.
#
# The build has its own scratch folder, .build-snippets/build, so it never waits on or
# invalidates the root package's .build. It resolves offline: from the root's Package.resolved
# and a copy of the repositories the root package already fetched. The first run builds the
# dependencies once (about 5 minutes on 2 cores); later runs compile only what changed.
#
# Usage: scripts/check-snippets.sh    (exits non-zero on any error or warning in a block)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build-snippets
mkdir -p "$work/build"
started=$SECONDS

python3 scripts/snippets.py generate "$root" "$work/package"

# Start from the repositories the root package already fetched: no network, no cloning.
if [[ -d .build/repositories && ! -d $work/build/repositories ]]; then
    cp -R .build/repositories "$work/build/repositories"
fi

# Plans afresh when the root's sources were added or removed since the last run (see the script).
source scripts/build-plan.sh
plan=($(fresh_plan_flags "$work/sources.cksum" Sources))

log=$work/build.log
build() {
    swift build --package-path "$work/package" --scratch-path "$work/build" ${plan[@]+"${plan[@]}"} "$@" >>"$log" 2>&1
}
: >"$log"
status=0
if ! build; then
    status=1
    # The build stops at the first target that fails: unless the package itself failed to build,
    # build each document's target to list every problem.
    outside_documents=$(python3 scripts/snippets.py report "$root" "$log" | grep -v '\.md:' || true)
    if [[ -z $outside_documents ]]; then
        for target in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["targets"]))' "$work/package/summary.json"); do
            build --target "$target" || true
        done
    fi
fi

# Warnings in blocks are errors (the targets treat warnings as errors), so the build's status says
# it all; the report lists what the log says about the documents and this package's sources.
if [[ $status -ne 0 ]]; then
    problems=$(python3 scripts/snippets.py report "$root" "$log")
    if [[ -n $problems ]]; then
        echo "$problems"
    else
        tail -n 40 "$log"
    fi
    echo "check-snippets: FAILED ($(( SECONDS - started ))s); full log: ${log#"$root"/}" >&2
    exit 1
fi
record_sources "$work/sources.cksum" Sources
compiled=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["compiled"]))' "$work/package/summary.json")
echo "check-snippets: compiled $compiled blocks without a warning ($(( SECONDS - started ))s)"
