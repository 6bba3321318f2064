// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for Moya. Built by `run.sh`; not part of the root package.
///
/// Every target is an executable: its Swift file exports `LLVMFuzzerTestOneInput`, has no
/// top-level code (`-parse-as-library`) and exports `<Target>_main`, the name SwiftPM links
/// as `main`, which hands over to libFuzzer's driver.
/// The Moya library itself is instrumented through `-Xswiftc -sanitize=fuzzer,address` on the
/// command line (see `run.sh`), so that coverage guides the fuzzer inside Moya too.
let fuzzTargets = [
    "FuzzURLEncoding",
    "FuzzJSONEncoding",
    "FuzzMultipart",
    "FuzzResponseMapping",
    "FuzzRequestConversion",
    "FuzzCacheControl",
    "FuzzServerSentEvents",
]

let package = Package(
    name: "MoyaFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Moya", path: ".."),
        // Already a dependency of Moya; named here for `HTTPClient.Request`.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // Declares libFuzzer's driver entry point.
        .target(name: "CLibFuzzer"),
        // Turns bytes into strings, numbers and value trees; starts the driver.
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer"],
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "Moya", package: "Moya"),
            ] + (name == "FuzzRequestConversion" ? [.product(name: "AsyncHTTPClient", package: "async-http-client")] : []),
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    },
    swiftLanguageModes: [.v6]
)
