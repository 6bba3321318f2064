# Sourced by the scripts that build a side package depending on this one by path (the snippets,
# the fuzz targets, the benchmarks).
#
# SwiftPM reuses a package's build plan while that package's manifest is unchanged, so a source
# file added to or removed from the root package since the side package's last build is missed.
# These functions plan afresh whenever the root's list of sources differs from the one recorded
# at the last successful build:
#
#   flags=($(fresh_plan_flags "$record" "$root/Sources"))
#   swift build ${flags[@]+"${flags[@]}"} ...
#   record_sources "$record" "$root/Sources"     # once the build succeeded

# The root's list of Swift sources under $1, as one checksum line.
sources_checksum() {
    find "$1" -name '*.swift' | LC_ALL=C sort | cksum
}

# Prints `--disable-build-manifest-caching` when the list of sources under $2 differs from the
# one recorded in $1 (or none is recorded yet); nothing otherwise.
fresh_plan_flags() {
    if [[ ! -f $1 || $(cat "$1") != "$(sources_checksum "$2")" ]]; then
        echo --disable-build-manifest-caching
    fi
}

# Records the list of sources under $2 in $1, for the next `fresh_plan_flags`.
record_sources() {
    mkdir -p "$(dirname "$1")"
    sources_checksum "$2" >"$1"
}
