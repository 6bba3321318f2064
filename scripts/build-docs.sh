#!/usr/bin/env bash
# Builds the DocC catalogues of Moya, CombineMoya, MoyaTesting and MoyaObservability with warnings
# as errors, as CI does; the archives go to .build-docs/<Target>.doccarchive.
#
# Not through swift-docc-plugin (`swift package generate-documentation`): the symbol graph
# extraction SwiftPM offers plugins, like `swift package dump-symbol-graph`, resolves the
# dependencies of every trait, and the RxMoya and ReactiveMoya traits' RxSwift and
# ReactiveSwift cannot be fetched on a machine without network. The compiler emits the symbol
# graphs during an ordinary build instead, which resolves only what the enabled traits use.
# The build has its own scratch folder, since the extra compiler flags would rebuild .build.
#
# MoyaOpenAPI is empty without its trait: `scripts/build-docs.sh MoyaOpenAPI` builds it with the
# OpenAPI trait (swift-openapi-runtime must be reachable); the default list leaves it out.
#
# Usage: scripts/build-docs.sh [TARGET ...]    (default: Moya CombineMoya MoyaTesting MoyaObservability)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(Moya CombineMoya MoyaTesting MoyaObservability)
fi
scratch=.build-docs
graphs=$PWD/$scratch/symbol-graphs
# Kept from one run to the next: the compiler writes a target's graph only when it compiles the
# target, and a target none of whose inputs changed (its dependencies' doc comments aside) is not
# compiled again, so its graph from the last run is the one that matches it.
mkdir -p "$graphs"

for target in "${targets[@]}"; do
    traits=()
    if [[ $target == MoyaOpenAPI ]]; then
        traits=(--traits OpenAPI)
    fi
    swift build --scratch-path "$scratch" ${traits[@]+"${traits[@]}"} --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -emit-extension-block-symbols
done

for target in "${targets[@]}"; do
    # The target's own graph and its extensions of other modules' types, nothing else.
    own=$scratch/graphs-$target
    rm -rf "$own"
    mkdir -p "$own"
    cp "$graphs/$target.symbols.json" "$own/"
    find "$graphs" -maxdepth 1 -name "$target@*.symbols.json" -exec cp {} "$own/" \;
    docc convert "Sources/$target/$target.docc" \
        --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$target" \
        --fallback-bundle-identifier "$target" \
        --output-path "$scratch/$target.doccarchive" \
        --warnings-as-errors
done
echo "build-docs: ${targets[*]} built without a warning"
