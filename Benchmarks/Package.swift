// swift-tools-version:6.1
// Performance benchmarks for Moya, kept out of the root package so that neither its users nor its
// CI depend on package-benchmark. Run them with `Benchmarks/run.sh`.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is whatever the clone is called.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "MoyaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The OpenAPI trait builds MoyaOpenAPI (MoyaTransport), which the OpenAPI peers need.
        .package(path: "..", traits: ["OpenAPI"]),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The generated client of Shared/BenchmarkAPI/openapi.yaml, on its own AsyncHTTPClient transport
        // and on MoyaTransport.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The outage benchmark's upstream.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "MoyaBenchmarks",
            dependencies: [
                .product(name: "Moya", package: rootPackage),
                .product(name: "MoyaOpenAPI", package: rootPackage),
                "BenchmarkAPI",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // NIOFileSystem, for the raw baselines' file I/O.
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/MoyaBenchmarks",
            // The generator's input, kept beside the code generated from it.
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // The stubbed request alone, for valgrind's callgrind (see the README's profile notes).
        // The client swift-openapi-generator made from the benchmark server's two routes, with
        // `package` access so that the suite and the profiles share it.
        .target(
            name: "BenchmarkAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Shared/BenchmarkAPI",
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
        ),
        .executableTarget(
            name: "OpenAPIProfile",
            dependencies: [
                "BenchmarkAPI",
                .product(name: "Moya", package: rootPackage),
                .product(name: "MoyaOpenAPI", package: rootPackage),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            path: "Profiles/OpenAPIProfile"
        ),
        .executableTarget(
            name: "StubProfile",
            dependencies: [.product(name: "Moya", package: rootPackage)],
            path: "Profiles/StubProfile"
        ),
        // One GET at a time through Moya or AsyncHTTPClient alone, for perf and allocation counts.
        .executableTarget(
            name: "GETProfile",
            dependencies: [
                .product(name: "Moya", package: rootPackage),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            path: "Profiles/GETProfile"
        ),
        // Callers against an upstream that fails and recovers, with and without the resilience policies.
        .executableTarget(
            name: "OutageProfile",
            dependencies: [
                .product(name: "Moya", package: rootPackage),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Profiles/OutageProfile"
        ),
    ],
    swiftLanguageModes: [.v6]
)
